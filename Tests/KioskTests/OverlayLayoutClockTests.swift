import Foundation
import KioskCore
import XCTest

/// The clock does not cover a layout's regions unless `--clock-position` put it there (issue 37, item 6: the
/// demo's clock sat on the shop window's logo). Recorded with the real shaders (llvmpipe), raw frames compared.
final class OverlayLayoutClockTests: XCTestCase {
    static let shopWindow = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Kiosk/examples/shop-window.smil").path

    /// The luma plane of the last frame of a 480x270 y4m.
    private func lastFrame(_ path: String) throws -> [UInt8] {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let marker = Array("FRAME\n".utf8)
        var i = data.count - marker.count
        while i >= 0 && Array(data[i..<(i + marker.count)]) != marker { i -= 1 }
        guard i >= 0, data.count >= i + marker.count + 480 * 270 else { throw SocketTestError(description: "no frame in \(path)") }
        return Array(data[(i + marker.count)..<(i + marker.count + 480 * 270)])
    }

    /// The luma of the rectangle x0..<x1, y0..<y1 of a 480-wide frame.
    private func crop(_ f: [UInt8], _ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> [UInt8] {
        (y0..<y1).flatMap { y in f[(y * 480 + x0)..<(y * 480 + x1)] }
    }

    private func record(_ dir: TempDir, _ name: String, _ extra: [String], input: String = shopWindow) throws
        -> (frame: [UInt8], stderr: String) {
        let out = dir.file(name + ".y4m")
        let r = try CLITests.run(["record", input, "--output", out, "--size", "480x270", "--fps", "2", "--length", "1",
                                  "--start-time", "2026-05-04T09:41", "--log-level", "info"] + extra, timeout: 180)
        XCTAssertEqual(r.status, 0, r.stderr)
        return (try lastFrame(out), r.stderr)
    }

    func testTheClockKeepsOffTheShopWindowsLogoUnlessPlacedThere() throws {
        let dir = try TempDir()
        let bare = try record(dir, "bare", [])
        let clock = try record(dir, "clock", ["--clock", "%H:%M"])
        let placed = try record(dir, "placed", ["--clock", "%H:%M", "--clock-position", "top-right"])
        // the logo region: 1440,0 480x200 of 1920x1080, so 360,0 120x50 here
        XCTAssertEqual(crop(clock.frame, 360, 0, 480, 50), crop(bare.frame, 360, 0, 480, 50), "the logo is not covered")
        XCTAssertEqual(clock.frame, bare.frame, "every corner holds a region: no clock over the layout")
        XCTAssertTrue(clock.stderr.contains("the clock is not shown: every corner covers a region of the layout"), clock.stderr)
        XCTAssertNotEqual(crop(placed.frame, 360, 0, 480, 50), crop(bare.frame, 360, 0, 480, 50), "asked: it is there")
    }

    /// As the demo tour plays it: the layout as an item of a playlist.
    func testTheClockKeepsOffTheLogoOfALayoutInAPlaylist() throws {
        let dir = try TempDir()
        let list = dir.file("tour.m3u")
        try "#EXTM3U\n#EXTINF:12,Shop window\n\(Self.shopWindow)\n".write(toFile: list, atomically: true, encoding: .utf8)
        let bare = try record(dir, "bare", [], input: list)
        let clock = try record(dir, "clock", ["--clock", "%H:%M"], input: list)
        XCTAssertEqual(crop(clock.frame, 360, 0, 480, 50), crop(bare.frame, 360, 0, 480, 50), "the logo is not covered")
        let placed = try record(dir, "placed", ["--clock", "%H:%M", "--clock-position", "top-right"], input: list)
        XCTAssertNotEqual(crop(placed.frame, 360, 0, 480, 50), crop(bare.frame, 360, 0, 480, 50), "asked: it is there")
        XCTAssertGreaterThan(Set(crop(bare.frame, 360, 0, 480, 50)).count, 8, "the logo is on screen")
    }

    func testTheClockTakesAFreeCorner() {
        var settings = OverlaySettings()
        settings.clock = try? ClockFormat(parsing: "%H:%M")
        let state = OverlayState(settings: settings, captions: nil)
        var c = OverlayContext(canvas: PixelSize(width: 1920, height: 1080), item: nil, now: Date(timeIntervalSince1970: 0),
                               timeZone: TimeZone(identifier: "UTC") ?? .current)
        XCTAssertEqual(state.scene(at: 0, context: c).texts.first?.avoid, [], "no layout: nothing to keep off")
        c.regions = [OverlayRect(x: 0.75, y: 0, width: 0.25, height: 0.2)]
        let clock = state.scene(at: 0, context: c).texts.first
        XCTAssertEqual(clock?.avoid, c.regions)
        XCTAssertEqual(clock?.fallbacks, [.topLeft, .bottomRight, .bottomLeft])
        settings.clockPositionAsked = true
        XCTAssertEqual(OverlayState(settings: settings, captions: nil).scene(at: 0, context: c).texts.first?.avoid, [],
                       "--clock-position: where asked")
    }
}
