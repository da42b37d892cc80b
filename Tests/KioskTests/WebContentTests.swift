import Foundation
import Glibc
import KioskCore
import KioskMedia
import KioskWebContent
import XCTest

/// Web pages through kiosk's web helper (`kiosk web-snapshot` → `kiosk web-helper`, WPE WebKit offscreen, frames as
/// memfds): a page of coloured boxes and a line of big text against headless chromium's screenshot of the same page
/// at the same size (a reference no one here wrote), the text read back by tesseract; a missing page, a page that
/// never paints and a navigation out of the page's folder, each one clear line and bounded in time.
final class WebContentTests: XCTestCase {
    /// The boxes the page draws (left, top, 140x100 each) and their colours.
    static let boxes: [(x: Int, y: Int, colour: String)] = [(20, 20, "#d81b1b"), (180, 20, "#1bb04a"), (340, 20, "#1b4ad8"), (480, 200, "#f0c419")]
    static let text = "KIOSK WEB 42"

    static var page: String {
        let divs = boxes.enumerated().map { i, b in
            "<div style=\"position:absolute;left:\(b.x)px;top:\(b.y)px;width:140px;height:100px;background:\(b.colour)\" id=\"b\(i)\"></div>"
        }.joined()
        return """
        <!doctype html><html><head><meta charset="utf-8"><style>
        html,body{margin:0;padding:0;background:#ffffff;overflow:hidden}
        p{position:absolute;left:20px;top:180px;margin:0;font:bold 48px "DejaVu Sans",sans-serif;color:#000000}
        </style></head><body>\(divs)<p>\(text)</p></body></html>
        """
    }

    /// The picture in a PNG, decoded by ffmpeg (an outside decoder) into RGBA of `size`.
    func load(_ png: String, _ size: PixelSize) throws -> RGBAImage {
        let data = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", png, "-pix_fmt", "rgba", "-f", "rawvideo", "-"])
        XCTAssertEqual(data.count, size.width * size.height * 4, png)
        return RGBAImage(size: size, pixels: data.count == size.width * size.height * 4 ? [UInt8](data) : [UInt8](repeating: 0, count: size.width * size.height * 4))
    }

    func testPageMatchesChromiumAndItsTextReadsBack() throws {
        let dir = try TempDir()
        let page = dir.file("page.html")
        try Self.page.write(toFile: page, atomically: true, encoding: .utf8)
        let size = PixelSize(width: 640, height: 360)
        let run = try CLITests.run(["web-snapshot", page, "--size", "640x360", "--output", dir.file("kiosk.png")], timeout: 60)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "", "a page that paints says nothing")
        let chromium = try BoundedProcess.run("/usr/bin/chromium", [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--disable-extensions",
            "--window-size=640,360", "--screenshot=" + dir.file("chromium.png"), "file://" + page,
        ], environment: ["HOME": dir.path], timeout: 90)
        XCTAssertEqual(chromium.status, 0, String(decoding: chromium.stderr, as: UTF8.self))
        let ours = try load(dir.file("kiosk.png"), size), reference = try load(dir.file("chromium.png"), size)
        for (i, box) in Self.boxes.enumerated() {
            // 2 pixels in from each edge: the boxes' own pixels, not how an edge falls on the grid
            let rect = PixelRect(x: box.x + 2, y: box.y + 2, width: 136, height: 96)
            let psnr = ImageCompare.psnr(TextTestSupport.crop(ours, rect), TextTestSupport.crop(reference, rect))
            XCTAssertGreaterThanOrEqual(psnr, 40, "box \(i) (\(box.colour)) differs from chromium's: \(psnr) dB")
        }
        // tesseract reads the line of text on kiosk's picture (its band, black on white)
        let band = TextTestSupport.crop(ours, PixelRect(x: 0, y: 160, width: 460, height: 100))
        try PNGWriter.write(band, to: dir.file("band.png"))
        let ocr = try BoundedProcess.run(TextTestSupport.tesseract, [dir.file("band.png"), "-", "--psm", "7", "-l", "eng"],
                                         environment: ["OMP_THREAD_LIMIT": "1"], timeout: 60)
        XCTAssertEqual(ocr.status, 0, String(decoding: ocr.stderr, as: UTF8.self))
        let read = String(decoding: ocr.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertEqual(read, Self.text, "tesseract read '\(read)'")
    }

    func testFirstFrameIsThePaintedPageNeverTheBlankOneBefore() throws {
        // at 1920x1080 WebKit's first frame after the load event is often still white; the snapshot must not be
        let dir = try TempDir()
        let page = dir.file("dark.html")
        try """
        <html><body style="margin:0;background:#203a60;font:bold 120px 'DejaVu Sans',sans-serif;color:#f0c419">
        <div style="position:absolute;left:80px;top:80px;width:520px;height:300px;background:#1bb04a"></div>
        <h1 style="position:absolute;left:80px;top:500px;margin:0">Welcome</h1></body></html>
        """.write(toFile: page, atomically: true, encoding: .utf8)
        for attempt in 1...3 {
            let out = dir.file("dark-\(attempt).png")
            let run = try CLITests.run(["web-snapshot", page, "--size", "1920x1080", "--output", out], timeout: 60)
            XCTAssertEqual(run.status, 0, run.stderr)
            let image = try load(out, PixelSize(width: 1920, height: 1080))
            XCTAssertEqual(RenderTestSupport.pixel(image, 1800, 1000), [0x20, 0x3a, 0x60, 255], "attempt \(attempt): the background")
            XCTAssertEqual(RenderTestSupport.pixel(image, 300, 200), [0x1b, 0xb0, 0x4a, 255], "attempt \(attempt): the box")
        }
    }

    func testUsageErrorsAreOneLineNamingTheFlag() throws {
        let cases: [([String], String)] = [
            (["web-snapshot"], "PAGE.html"), (["web-snapshot", "p.html"], "--output"),
            (["web-snapshot", "p.html", "--output", "x.png", "--size", "0x0"], "--size"),
            (["web-snapshot", "p.html", "--output", "x.png", "--timeout", "0"], "--timeout"),
            (["web-snapshot", "a.html", "b.html", "--output", "x.png"], "PAGE.html"),
        ]
        for (args, flag) in cases {
            let run = try CLITests.run(args, timeout: 30)
            XCTAssertEqual(run.status, 2, "\(args): \(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "\(args): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(flag), "\(args) names \(flag): \(run.stderr)")
        }
    }

    func testMissingPageIsOneLineNamingIt() throws {
        let dir = try TempDir()
        let run = try CLITests.run(["web-snapshot", dir.file("nope.html"), "--size", "320x240", "--output", dir.file("x.png")], timeout: 30)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("nope.html") && run.stderr.contains("No such file"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("x.png")))
    }

    func testPageWhoseNameNeedsEncodingLoadsWithItsPictures() throws {
        // spaces, '#', '%' and non-ASCII in the folder and file names: each must be percent-encoded in the URI, or the
        // page (or its folder's prefix, which its own picture must match) is another
        let dir = try TempDir()
        let folder = dir.file("a b #1 %41 é")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=red:s=40x40", "-frames:v", "1", folder + "/red #2.png"])
        try "<html><body style=\"margin:0;background:#fff\"><img src=\"red%20%232.png\" style=\"width:40px;height:40px\"></body></html>"
            .write(toFile: folder + "/page #1 %.html", atomically: true, encoding: .utf8)
        let run = try CLITests.run(["web-snapshot", folder + "/page #1 %.html", "--size", "320x240", "--output", dir.file("x.png")], timeout: 60)
        XCTAssertEqual(run.status, 0, run.stderr)
        let own = RenderTestSupport.pixel(try load(dir.file("x.png"), PixelSize(width: 320, height: 240)), 20, 20)
        XCTAssertTrue(own[0] > 200 && own[1] < 60 && own[2] < 60, "the page's own picture is not shown: \(own)")
        // a folder is not a page
        let notPage = try CLITests.run(["web-snapshot", folder, "--size", "320x240", "--output", dir.file("y.png")], timeout: 30)
        XCTAssertEqual(notPage.status, 1, notPage.stderr)
        XCTAssertEqual(notPage.stderr.split(separator: "\n").count, 1, notPage.stderr)
        XCTAssertTrue(notPage.stderr.contains("not a regular file"), notPage.stderr)
    }

    func testPageThatNeverPaintsIsBoundedAndOneLine() throws {
        let dir = try TempDir()
        let page = dir.file("hang.html")
        try "<html><body style=\"background:red\"><script>while (true) {}</script></body></html>".write(toFile: page, atomically: true, encoding: .utf8)
        let run = try CLITests.run(["web-snapshot", page, "--size", "320x240", "--timeout", "2", "--output", dir.file("x.png")], timeout: 30)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("hang.html: not painted within 2 s"), run.stderr)
        XCTAssertLessThan(run.seconds, 10, "the timeout bounds it")
        XCTAssertEqual(Self.livingProcesses(naming: dir.path), [], "the helper was ended with kiosk")
    }

    func testHelperAndWebProcessEndWhenKioskIsKilled() throws {
        let dir = try TempDir()
        let page = dir.file("spin.html")
        try "<html><body><script>while (true) {}</script></body></html>".write(toFile: page, atomically: true, encoding: .utf8)
        // kiosk's output goes nowhere: what is watched is which processes outlive it, from the moment it is killed
        let kiosk = Process()
        kiosk.executableURL = URL(fileURLWithPath: CLITests.kiosk)
        kiosk.arguments = ["web-snapshot", page, "--size", "320x240", "--timeout", "20", "--output", dir.file("x.png")]
        kiosk.environment = ProcessInfo.processInfo.environment.merging(["LIBGL_ALWAYS_SOFTWARE": "1"]) { _, b in b }
        kiosk.standardOutput = FileHandle.nullDevice
        kiosk.standardError = FileHandle.nullDevice
        try kiosk.run()
        defer { if kiosk.isRunning { kill(kiosk.processIdentifier, SIGKILL) } }
        var helper: Int32 = 0
        let seen = Date().addingTimeInterval(20)
        while Date() < seen, helper == 0 {
            // the helper, once its web process is spinning on the page
            if let found = Self.livingProcesses(naming: "web-helper --fd 3 --size 320x240 " + page).first,
               Self.children(of: Int32(found)).contains(where: { Self.command(of: $0).contains("WPEWebProcess") }) {
                helper = Int32(found)
            } else {
                usleep(50_000)
            }
        }
        XCTAssertNotEqual(helper, 0, "the helper and its web process were seen")
        usleep(300_000)
        kill(kiosk.processIdentifier, SIGKILL)
        // reaped here (Foundation's waitUntilExit can take seconds to notice), or by Foundation (ECHILD)
        var status: Int32 = 0
        let reaped = Date().addingTimeInterval(5)
        while Date() < reaped, waitpid(kiosk.processIdentifier, &status, WNOHANG) == 0 { usleep(10_000) }
        // within 2 s: WebKit's own watchdog ends a web process stuck in a page's script only about 10 s later
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline, !Self.webProcesses(of: helper).isEmpty { usleep(50_000) }
        XCTAssertEqual(Self.livingProcesses(naming: page), [], "the helper outlived kiosk")
        let left = Self.webProcesses(of: helper)
        XCTAssertEqual(left, [], "the spinning web process outlived its helper")
        for pid in left { kill(Int32(pid), SIGKILL) }
    }

    func testNavigationOutOfThePagesFolderIsRefused() throws {
        let dir = try TempDir()
        let page = dir.file("nav.html")
        try "<html><body><p>here</p><script>location.href = 'file:///etc/passwd'</script></body></html>".write(toFile: page, atomically: true, encoding: .utf8)
        let run = try CLITests.run(["web-snapshot", page, "--size", "320x240", "--output", dir.file("x.png")], timeout: 60)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("refused a navigation to file:///etc/passwd"), run.stderr)
    }

    func testPageLoadsNoFileOutsideItsFolder() throws {
        let dir = try TempDir()
        try FileManager.default.createDirectory(atPath: dir.file("page"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir.file("outside"), withIntermediateDirectories: true)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=red:s=40x40", "-frames:v", "1", dir.file("page/red.png")])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=blue:s=40x40", "-frames:v", "1", dir.file("outside/blue.png")])
        let page = dir.file("page/files.html")
        try """
        <html><body style="margin:0;background:#fff"><img src="red.png" style="position:absolute;left:0;top:0;width:40px;height:40px">
        <img src="../outside/blue.png" style="position:absolute;left:100px;top:0;width:40px;height:40px">
        <img src="file://\(dir.file("outside/blue.png"))" style="position:absolute;left:200px;top:0;width:40px;height:40px"></body></html>
        """.write(toFile: page, atomically: true, encoding: .utf8)
        let run = try CLITests.run(["web-snapshot", page, "--size", "320x240", "--settle", "0.5", "--output", dir.file("x.png")], timeout: 60)
        XCTAssertEqual(run.status, 0, run.stderr)
        let image = try load(dir.file("x.png"), PixelSize(width: 320, height: 240))
        let own = RenderTestSupport.pixel(image, 20, 20)
        XCTAssertTrue(own[0] > 200 && own[1] < 60 && own[2] < 60, "the page's own image is not shown: \(own)")
        for x in [120, 220] {
            let p = RenderTestSupport.pixel(image, x, 20)
            XCTAssertFalse(p[2] > 200 && p[0] < 60, "the image outside the page's folder was shown at x \(x): \(p)")
        }
    }

    func testPageReachesNoServer() throws {
        // a listening socket on 127.0.0.1: any connection the page makes waits in its backlog, accepted or not
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        XCTAssertGreaterThanOrEqual(listener, 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 16) == 0
                && getsockname(listener, $0, &length) == 0 }
        }
        XCTAssertTrue(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let dir = try TempDir()
        let page = dir.file("net.html")
        try """
        <html><body><p>offline</p><img src="http://127.0.0.1:\(port)/image.png">
        <script>fetch("http://127.0.0.1:\(port)/fetch").catch(() => 0)</script></body></html>
        """.write(toFile: page, atomically: true, encoding: .utf8)
        let run = try CLITests.run(["web-snapshot", page, "--size", "320x240", "--settle", "1.5", "--output", dir.file("x.png")], timeout: 60)
        XCTAssertEqual(run.status, 0, run.stderr)
        let connection = accept(listener, nil, nil)
        XCTAssertLessThan(connection, 0, "the page reached the server on 127.0.0.1:\(port)")
        if connection >= 0 { close(connection) }
    }

    func testPlayerDoesNotLinkWebKitAndAMissingHelperIsOneLine() throws {
        // WebKit is mapped only by kiosk-web-helper: every kiosk process would carry it otherwise
        let ldd = try BoundedProcess.run("/usr/bin/ldd", [CLITests.kiosk], timeout: 30)
        let libraries = String(decoding: ldd.stdout, as: UTF8.self)
        XCTAssertEqual(ldd.status, 0, libraries)
        XCTAssertFalse(libraries.contains("WPEWebKit") || libraries.contains("WPEBackend"), libraries)
        // a kiosk with no helper beside it says so in one line
        let dir = try TempDir()
        try FileManager.default.copyItem(atPath: CLITests.kiosk, toPath: dir.file("kiosk"))
        try Self.page.write(toFile: dir.file("page.html"), atomically: true, encoding: .utf8)
        let run = try BoundedProcess.run(dir.file("kiosk"), ["web-snapshot", dir.file("page.html"), "--size", "320x240", "--output", dir.file("x.png")],
                                         environment: ["LIBGL_ALWAYS_SOFTWARE": "1"], timeout: 30)
        let stderr = String(decoding: run.stderr, as: UTF8.self)
        XCTAssertEqual(run.status, 1, stderr)
        XCTAssertEqual(stderr.split(separator: "\n").count, 1, stderr)
        XCTAssertTrue(stderr.contains(dir.file("kiosk-web-helper")) && stderr.contains("No such file"), stderr)
    }

    func testMessagesRoundTripAndOthersAreRefused() {
        let messages: [WebHelperMessage] = [
            .frame(WebFrameHeader(width: 1920, height: 1080, stride: 7680, format: 0, loaded: true, number: 1 << 33 + 5)),
            .loaded, .loadFailed("file:///x.html: gone"), .webProcessEnded("crashed"), .navigationRefused("https://example.org/"),
            .helperFailed("no backend"), .done,
        ]
        for message in messages { XCTAssertEqual(WebHelperMessage(bytes: message.bytes), message) }
        XCTAssertNil(WebHelperMessage(bytes: [UInt8](repeating: 0, count: 36)), "another magic")
        XCTAssertNil(WebHelperMessage(bytes: Array(WebHelperMessage.loaded.bytes.prefix(20))), "short")
        var unknown = WebHelperMessage.loaded.bytes
        unknown[4] = 99
        XCTAssertNil(WebHelperMessage(bytes: unknown), "an unknown kind")
    }

    /// The pids of the living processes in the process group `group` (the helper's, as kiosk starts it).
    static func webProcesses(of group: Int32) -> [Int] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 3 && fields[0] != "Z" && fields[2] == "\(group)"
        }
    }

    /// The pids whose parent is `pid`.
    static func children(of pid: Int32) -> [Int] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int.init).filter { child in
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && fields[1] == "\(pid)"
        }
    }

    /// The command line of `pid`, its arguments joined by spaces ("" when it is gone).
    static func command(of pid: Int) -> String {
        FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map { String(decoding: $0, as: UTF8.self).replacingOccurrences(of: "\0", with: " ") } ?? ""
    }

    /// The pids of processes (not zombies) whose command line names `text`.
    static func livingProcesses(naming text: String) -> [Int] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int.init).filter { pid in
            guard let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                  String(decoding: line, as: UTF8.self).replacingOccurrences(of: "\0", with: " ").contains(text),
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            return !stat[close...].hasPrefix(") Z")
        }
    }
}
