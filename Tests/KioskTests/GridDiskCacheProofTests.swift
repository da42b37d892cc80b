import Foundation
import KioskCore
import XCTest

/// The grid's second open is served from the thumbnail disk cache, seen from outside kiosk and not from its own
/// "tiles ready … from disk" line: before the second open every tile's source but the slideshow's own item is
/// replaced by the same JPEG headers over garbage scan data, of the same size and modification time (what the
/// cache key holds), and the grid must
/// still show the pictures the first open decoded from the real files.
final class GridDiskCacheProofTests: XCTestCase {
    /// Distinct items, each a copy of one small JPEG (so every tile shows the same picture).
    private static let count = 12

    func testTheSecondOpenShowsTheCachedPicturesOfGarbageSources() throws {
        let dir = try TempDir()
        let source = dir.file("source.jpg")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=480x360,gblur=sigma=2", "-frames:v", "1", "-q:v", "3", source])
        let media = dir.file("media")
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
        let items = (0..<Self.count).map { media + "/" + String(format: "p%05d.jpg", $0) }
        for item in items {  // each with the source's mtime, which the garbage below gets back
            try FileManager.default.copyItem(atPath: source, toPath: item)
            _ = try FFmpegCLI.run("/usr/bin/touch", ["-r", source, item])
        }
        let cache = dir.file("thumbs"), sock = dir.file("ipc.sock")
        let first = try gridScreenshot(media: media, cache: cache, socket: sock, shot: dir.file("first.png"), waitForEntries: 6)
        // Garbage of the same size, with the same mtime to the nanosecond (touch -r); item 0 stays, the slideshow shows it.
        // The JPEG's headers stay (kiosk still recognises and probes the file); its scan data after the SOS
        // marker becomes bytes with no marker in them, so a fresh decode draws a different picture.
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        let scan = try XCTUnwrap((0..<(original.count - 1)).first { original[$0] == 0xFF && original[$0 + 1] == 0xDA }, "no SOS in \(source)") + 16
        let garbage = Array(original[..<scan]) + (scan..<(original.count - 2)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 13) & 0x7F }
            + [0xFF, 0xD9]
        for item in items.dropFirst() {
            try Data(garbage).write(to: URL(fileURLWithPath: item))
            _ = try FFmpegCLI.run("/usr/bin/touch", ["-r", source, item])
            XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: item)), try Data(contentsOf: URL(fileURLWithPath: source)))
        }
        let second = try gridScreenshot(media: media, cache: cache, socket: sock, shot: dir.file("second.png"), waitForEntries: 0)
        XCTAssertEqual(first.count, second.count)
        // Cache entries are JPEG (measured 44.9 dB against the first open's fresh decode; a fresh decode of the
        // garbage scores 8 dB).
        XCTAssertGreaterThan(ImageCompare.psnrRGB(first, second), 40, "the grid over garbage sources is the grid of the real pictures")
        // The control: without the cache the garbage shows, so the comparison above can fail.
        let uncached = try gridScreenshot(media: media, cache: dir.file("empty-thumbs"), socket: sock, shot: dir.file("third.png"),
                                          waitForEntries: 0)
        XCTAssertLessThan(ImageCompare.psnrRGB(first, uncached), 30, "garbage decoded afresh differs from the real pictures")
    }

    /// Starts kiosk on `media` with the disk cache in `cache`, opens the grid, waits until it has drawn (and, on a
    /// first open, until `waitForEntries` entries are on disk), and returns its screenshot as RGBA.
    private func gridScreenshot(media: String, cache: String, socket: String, shot: String, waitForEntries: Int) throws -> [UInt8] {
        let p = try LiveProcess(["play", "--output", "headless", "--size", "640x360", "--duration", "60", "--transition", "none",
                                 "--no-watch", "--no-state", "--input-ipc-server", socket, "--log-level", "info",
                                 "--thumb-cache-dir", cache, media])
        defer {
            p.send(SIGTERM)
            XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
        }
        XCTAssertTrue(p.waitFor("ipc: listening on \(socket)", timeout: 30), p.stderr)
        let c = try IPCConnection(path: socket)
        XCTAssertEqual(try c.request(#"["set_property","kiosk-view","grid"]"#)["error"], .string("success"))
        XCTAssertTrue(p.waitFor("tiles ready", timeout: 30), p.stderr)
        var entries = 0
        for _ in 0..<200 where entries < waitForEntries {
            entries = ((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).filter { $0.hasSuffix(".thumb") }.count
            usleep(100_000)
        }
        XCTAssertGreaterThanOrEqual(entries, waitForEntries, "entries in \(cache)")
        // every visible tile drawn: the grid has settled once two screenshots half a second apart are the same
        // (no fixed wait, which a loaded machine can outlast)
        var last: [UInt8]?
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            XCTAssertEqual(try c.request(#"["screenshot-to-file","\#(shot)"]"#)["error"], .string("success"))
            let rgba = [UInt8](try FFmpegCLI.run("/usr/bin/ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-i", shot,
                                                                    "-pix_fmt", "rgba", "-f", "rawvideo", "-"]))
            if rgba == last { return rgba }
            last = rgba
            usleep(500_000)
        }
        XCTFail("the grid never settled: two screenshots in a row always differed (\(shot))")
        return last ?? []
    }
}
