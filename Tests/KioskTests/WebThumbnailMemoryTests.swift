import Foundation
import KioskCore
import XCTest

/// Thumbnails of huge pictures asked for at once: the page makes them one at a time, and each PNG is read a row at
/// a time into its scaled size (StreamedPNGDecoder), never decoded whole, so kiosk's peak memory hardly grows.
final class WebThumbnailMemoryTests: WebServerTestCase {
    /// Four 8000×8000 PNGs (64 MP, as --max-pixels allows; made by ffmpeg) asked for as thumbnails by four clients at
    /// once: all four are made, and the process's peak RSS (VmHWM) grows by less than 32 MiB (measured: 0; the
    /// output and a band of 16 rows are about 1 MiB). Decoded whole through ffmpeg (probe and decode), one at a time,
    /// it grew by 175 MiB (one is 8000×8000×3 bytes, 183 MiB, as ffmpeg's PNG decoder holds it); four at once by
    /// about 600 MiB.
    func testFourHugePNGThumbnailsAtOnceAreMadeOneAtATime() throws {
        let colours = ["red", "green", "blue", "yellow"]
        for c in colours {
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=\(c):size=8000x8000", "-frames:v", "1", dir.file("\(c).png")])
        }
        for c in colours { try FileManager.default.moveItem(atPath: dir.file("\(c).png"), toPath: media + "/huge-\(c).png") }
        // the slideshow plays another folder, so that only the thumbnails decode the huge pictures
        try FileManager.default.createDirectory(atPath: dir.file("show"), withIntermediateDirectories: true)
        _ = try ColourPictures.make(dir, "show/b.png", "blue")
        let p = try start(play: dir.file("show"))
        _ = try logIn()
        XCTAssertEqual(try curl([base + "/thumb/a.png"]).status, 200, "a small thumbnail first: the code is loaded")
        let before = peak(p)
        let clients = try colours.map { c in
            // one waiting past 3 s for the others gets 503 with Retry-After, and asks again (as the media page does)
            try LiveProcess(["-s", "-b", dir.file("cookies"), "-o", dir.file("thumb-\(c).jpg"), "-w", "%{http_code}", "--max-time", "120",
                             "--retry", "10", "--retry-delay", "2", base + "/thumb/huge-\(c).png"], executable: "/usr/bin/curl")
        }
        let codes = clients.map { client -> String in
            _ = client.finish(timeout: 150)
            return client.stdout
        }
        let after = peak(p)
        XCTAssertEqual(codes, ["200", "200", "200", "200"], p.stderr)
        for c in colours {
            let probe = try FFmpegCLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", dir.file("thumb-\(c).jpg")])
            XCTAssertEqual(String(decoding: probe, as: UTF8.self), "360,360\n", c)
        }
        print("web thumbnails: VmHWM \(before) -> \(after) MiB for four 8000x8000 PNGs at once")
        XCTAssertLessThan(after - before, 32, "peak RSS \(before) -> \(after) MiB: no picture held whole")
        XCTAssertTrue(p.isRunning, p.stderr)
    }

    /// The process's peak resident memory (VmHWM) in MiB.
    func peak(_ p: LiveProcess) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(p.pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? -1024) / 1024
    }
}
