import Foundation
@preconcurrency import Glibc
import KioskCore
import XCTest

/// Local media only (issue 10): paths that ffmpeg would read as URLs, nested demuxers (concat, HLS), image2
/// patterns, symlinks and FIFOs, made for real in a temp folder and run through the built `kiosk` binary.
final class LocalMediaTests: XCTestCase {
    /// One `kiosk probe` JSON line as a dictionary.
    private func probe(_ args: [String], in directory: String? = nil, timeout: Double = 30) throws -> (CLITests.Run, [String: Any]) {
        let r = try CLITests.run(["probe"] + args, timeout: timeout, directory: directory)
        let line = r.stdout.split(separator: "\n").first.map(String.init) ?? ""
        let json = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        return (r, json)
    }

    /// A PNG of `size` (a test pattern) at `path`, folders made as needed.
    private func png(_ path: String, size: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(size)", "-frames:v", "1", path])
    }

    /// The lines of `text` that contain `needle`.
    private func lines(_ text: String, containing needle: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.contains(needle) }
    }

    // MARK: URLs

    /// A relative path whose first folder is `http:` names a local file: kiosk probes that file and nobody is
    /// contacted (before: ffmpeg fetched `http://127.0.0.1:PORT/x.png` from the listener).
    func testRelativePathNamedLikeAURLOpensTheLocalFile() throws {
        let dir = try TempDir()
        let trap = try ConnectionTrap()
        let rel = "http://127.0.0.1:\(trap.port)/x.png"
        try png(dir.path + "/" + rel, size: "24x16")
        let (r, json) = try probe([rel], in: dir.path)
        XCTAssertEqual(trap.connections(), 0, "nobody may connect: \(r.stdout) \(r.stderr)")
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertEqual(json["kind"] as? String, "image", r.stdout)
        XCTAssertEqual(json["width"] as? Int, 24, r.stdout)
    }

    /// `kiosk play http:` plays the folder named `http:` in the current folder (before: ffmpeg took
    /// `http:/a.png` for a URL and nothing played).
    func testPlayingAFolderNamedHTTPColonPlaysItsFiles() throws {
        let dir = try TempDir()
        try png(dir.file("http:/a.png"), size: "32x24")
        let r = try CLITests.run(["play", "http:", "--size", "64x48", "--duration", "0.3", "--no-loop",
                                  "--transition", "none", "--log-level", "info"], timeout: 40, directory: dir.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("showing http:/a.png"), r.stderr)
    }

    /// A playlist given without a folder: its `http://` and `rtmp://` entries (and a URL on the command line) are
    /// skipped with one warning each, nobody is contacted, and the `file:///` and plain entries play.
    func testPlaylistURLEntriesAreSkippedWithOneWarningEach() throws {
        let dir = try TempDir()
        let trap = try ConnectionTrap()
        let http = "http://127.0.0.1:\(trap.port)/x.png", rtmp = "rtmp://127.0.0.1:\(trap.port)/live"
        try png(dir.path + "/" + http, size: "24x16")   // exists locally too: it is still a URL entry
        try png(dir.file("abs.png"), size: "32x24")
        try png(dir.file("plain.png"), size: "32x24")
        let list = [http, rtmp, "file://" + dir.file("abs.png"), "plain.png"].joined(separator: "\n") + "\n"
        try list.write(toFile: dir.file("list.m3u"), atomically: true, encoding: .utf8)
        let cli = "rtmp://127.0.0.1:\(trap.port)/from-the-command-line"
        let r = try CLITests.run(["play", "list.m3u", cli, "--size", "64x48", "--duration", "0.3", "--no-loop",
                                  "--transition", "none", "--log-level", "info"], timeout: 40, directory: dir.path)
        XCTAssertEqual(trap.connections(), 0, "nobody may connect: \(r.stderr)")
        XCTAssertEqual(r.status, 0, r.stderr)
        for url in [http, rtmp, cli] {
            let found = lines(r.stderr, containing: url)
            XCTAssertEqual(found.count, 1, "one line for \(url): \(r.stderr)")
            XCTAssertTrue(found.first?.contains("skipped: a URL; kiosk plays local files here") ?? false, "\(found)")
        }
        XCTAssertTrue(r.stderr.contains("showing \(dir.file("abs.png"))"), r.stderr)
        XCTAssertTrue(r.stderr.contains("showing plain.png"), r.stderr)
    }

    /// `subfile,,start,0,end,0,,:/abs/path` is a local folder name here, not ffmpeg's subfile protocol reading a
    /// file outside the folder (before: the probe described the 48x32 picture outside).
    func testSubfileNameReadsOnlyTheLocalFile() throws {
        let dir = try TempDir()
        let outside = dir.file("outside/secret.png")
        try png(outside, size: "48x32")
        let rel = "subfile,,start,0,end,0,,:" + outside
        try png(dir.file("work/" + rel), size: "16x16")
        let (r, json) = try probe([rel], in: dir.file("work"))
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertEqual(json["width"] as? Int, 16, "the local file, not \(outside): \(r.stdout)")
    }

    // MARK: demuxers

    /// Concat and HLS playlists named `.mp4` are refused with "not a local media file" (before: concat played
    /// the picture it lists, and HLS opened an absolute segment outside the folder).
    func testConcatAndHLSUnderAMediaNameAreRefused() throws {
        let dir = try TempDir()
        try png(dir.file("other.png"), size: "32x24")
        try "ffconcat version 1.0\nfile other.png\n".write(toFile: dir.file("x.mp4"), atomically: true, encoding: .utf8)
        let segment = dir.file("outside/seg.ts")
        try FileManager.default.createDirectory(atPath: dir.file("outside"), withIntermediateDirectories: true)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10", "-t", "1", "-c:v", "mpeg2video", segment])
        let hls = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:1.0,\n\(segment)\n#EXT-X-ENDLIST\n"
        try hls.write(toFile: dir.file("y.mp4"), atomically: true, encoding: .utf8)
        for name in ["x.mp4", "y.mp4"] {
            let (r, json) = try probe([dir.file(name)])
            XCTAssertEqual(r.status, 1, "\(name): \(r.stdout)")
            XCTAssertEqual(json["error"] as? String, "not a local media file", "\(name): \(r.stdout)")
            XCTAssertNil(json["kind"], r.stdout)
        }
    }

    /// `a%d.png` is that file, never image2's pattern reading `a0.png` (before: the probe said 40x30).
    func testPatternCharactersInANameAreLiteral() throws {
        let dir = try TempDir()
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=40x30", "-frames:v", "1", dir.file("a0.png")])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=blue:s=20x10", "-frames:v", "1", dir.file("tmp.png")])
        try FileManager.default.moveItem(atPath: dir.file("tmp.png"), toPath: dir.file("a%d.png"))
        let (r, json) = try probe([dir.file("a%d.png")])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertEqual(json["width"] as? Int, 20, r.stdout)
        XCTAssertEqual(json["height"] as? Int, 10, r.stdout)
        let out = dir.file("shot.png")
        let s = try CLITests.run(["snapshot", dir.file("a%d.png"), "--output", out, "--size", "20x10"], timeout: 30)
        XCTAssertEqual(s.status, 0, s.stderr)
        let rgba = [UInt8](try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", out, "-pix_fmt", "rgba", "-f", "rawvideo", "-"]))
        XCTAssertEqual(rgba.count, 20 * 10 * 4)
        let centre = (5 * 20 + 10) * 4
        XCTAssertTrue(rgba.count > centre + 2 && rgba[centre] < 30 && rgba[centre + 2] > 220,
                      "blue (a%d.png itself), not red (a0.png): \(rgba.count > centre + 2 ? Array(rgba[centre..<centre + 3]) : [])")
    }

    /// `record --output http://127.0.0.1:PORT/x.mp4` writes a local file under the folder `http:` and contacts
    /// nobody (before: avio_open sent the video to the listener).
    func testRecordOutputNamedLikeAURLIsALocalFile() throws {
        let dir = try TempDir()
        let trap = try ConnectionTrap()
        let rel = "http://127.0.0.1:\(trap.port)/x.mp4"
        try FileManager.default.createDirectory(atPath: dir.path + "/http:/127.0.0.1:\(trap.port)", withIntermediateDirectories: true)
        try png(dir.file("a.png"), size: "32x24")
        let r = try CLITests.run(["record", "a.png", "--output", rel, "--size", "32x24", "--fps", "5", "--duration", "0.4",
                                  "--no-loop"], timeout: 40, directory: dir.path)
        XCTAssertEqual(trap.connections(), 0, "nobody may connect: \(r.stderr)")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FFmpegCLI.probe(dir.path + "/" + rel, "stream=width"), "32")
    }

    // MARK: symlinks and special files

    /// Symlinked JPEG and PNG probe with their real size and snapshot (before: "truncated or corrupt", as the
    /// link's own size was read).
    func testSymlinkedJPEGAndPNGProbeAndSnapshot() throws {
        let dir = try TempDir()
        for ext in ["jpg", "png"] {
            let real = dir.file("real.\(ext)")
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=96x64", "-frames:v", "1", real])
            try FileManager.default.createSymbolicLink(atPath: dir.file("link.\(ext)"), withDestinationPath: real)
            let (r, json) = try probe([dir.file("link.\(ext)")])
            XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
            XCTAssertEqual(json["kind"] as? String, "image", r.stdout)
            XCTAssertEqual(json["width"] as? Int, 96, r.stdout)
            let out = dir.file("shot-\(ext).png")
            let s = try CLITests.run(["snapshot", dir.file("link.\(ext)"), "--output", out, "--size", "48x32"], timeout: 30)
            XCTAssertEqual(s.status, 0, s.stderr)
            XCTAssertEqual(try FFmpegCLI.probe(out, "stream=width"), "48")
        }
    }

    /// A FIFO, directly or behind a symlink, is refused at once by `probe` and `snapshot` with one line, and
    /// skipped by `play` (before: `probe` and `snapshot` waited for a writer for ever).
    func testFIFOIsRefusedBeforeItIsOpened() throws {
        let dir = try TempDir()
        XCTAssertEqual(mkfifo(dir.file("pipe.png"), 0o600), 0, "mkfifo")
        try FileManager.default.createSymbolicLink(atPath: dir.file("link.png"), withDestinationPath: dir.file("pipe.png"))
        for name in ["pipe.png", "link.png"] {
            let (r, json) = try probe([dir.file(name)], timeout: 10)
            XCTAssertEqual(r.status, 1, r.stdout)
            XCTAssertLessThan(r.seconds, 5, "refused at once")
            XCTAssertTrue((json["error"] as? String ?? "").hasPrefix("not a regular file"), r.stdout)
            let s = try CLITests.run(["snapshot", dir.file(name), "--output", dir.file("o.png"), "--size", "32x24"], timeout: 10)
            XCTAssertNotEqual(s.status, 0)
            XCTAssertLessThan(s.seconds, 5, "refused at once")
            let named = lines(s.stderr, containing: dir.file(name))
            XCTAssertEqual(named.count, 1, s.stderr)
            XCTAssertTrue(named.first?.contains("not a regular file") ?? false, s.stderr)
        }
    }

    /// A valid JPEG over 2 MiB probes as an image of its size (before: "unsupported format", as the 1 MiB head
    /// held no end marker and ffmpeg's JPEG probe scored it low).
    func testLargeJPEGProbesAsAnImage() throws {
        let dir = try TempDir()
        let path = dir.file("big.jpg")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "nullsrc=size=2400x1800,geq=lum='random(1)*255':cb=128:cr=128",
                              "-frames:v", "1", "-q:v", "1", path])
        let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        XCTAssertGreaterThan(bytes, 2 << 20, "the test needs a JPEG over 2 MiB")
        let (r, json) = try probe([path])
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertEqual(json["kind"] as? String, "image", r.stdout)
        XCTAssertEqual(json["width"] as? Int, 2400, r.stdout)
        XCTAssertEqual(json["height"] as? Int, 1800, r.stdout)
    }
}

/// A TCP listener on 127.0.0.1 that never answers and only counts who connected (the kernel completes the
/// handshake, so a connection waits in the backlog until counted).
final class ConnectionTrap {
    /// The port it listens on.
    let port: Int
    private let fd: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, sa, &length) == 0
            }
        }
        guard fd >= 0, ok, fcntl(fd, F_SETFL, O_NONBLOCK) == 0 else {
            throw FFmpegCLI.Failure(description: "ConnectionTrap: cannot listen: \(String(cString: strerror(errno)))")
        }
        port = Int(UInt16(bigEndian: addr.sin_port))
    }

    /// Connections made so far (each is taken and closed).
    func connections() -> Int {
        var n = 0
        while true {
            let c = accept(fd, nil, nil)
            if c < 0 { return n }
            close(c)
            n += 1
        }
    }

    deinit { close(fd) }
}
