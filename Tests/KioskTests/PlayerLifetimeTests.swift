import Foundation
import KioskCore
import KioskOutput
@testable import KioskPlayer
import XCTest

/// The whole player loop (slideshow, decode cache, composer, renderer, headless output) over 10,000 slides on a
/// virtual clock: textures and decoded pictures are released as slides go, so memory stays flat.
final class PlayerLifetimeTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    func testAnUnreadableStatmFailsInsteadOfMeasuringNothing() throws {
        XCTAssertThrowsError(try PlayerSoak.residentMiB(statm: "/proc/self/no-such-statm")) {
            guard case .unreadableStatm(let path, _) = $0 as? SoakError else { return XCTFail("\($0)") }
            XCTAssertEqual(path, "/proc/self/no-such-statm")
        }
        let dir = try TempDir()
        for (name, text) in [("empty", ""), ("one-field", "1234\n"), ("words", "size resident shared\n"), ("zero", "100 0 0 0 0 0 0\n")] {
            let path = dir.file(name)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            XCTAssertThrowsError(try PlayerSoak.residentMiB(statm: path), name)
        }
    }

    /// The soak's resident size is this process's: it agrees with VmRSS in /proc/self/status, read independently.
    func testResidentSizeIsThisProcesssVmRSS() throws {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }, "no VmRSS in /proc/self/status")
        let kiB = try XCTUnwrap(line.split(separator: " ").dropFirst().first.flatMap { Double($0) }, "VmRSS: \(line)")
        let mib = try PlayerSoak.residentMiB()
        XCTAssertEqual(mib, kiB / 1024, accuracy: max(2, kiB / 1024 * 0.02), "statm \(mib) MiB, VmRSS \(kiB / 1024) MiB")
    }

    func testTenThousandSlidesDoNotLeak() throws {
        let count = 10_000
        var config = PlayerConfig()
        config.size = PixelSize(width: 64, height: 36)
        config.slideshow.duration = 1
        config.slideshow.transitionTime = 0.5  // crossfades: two textures alive at once
        config.slideshow.loop = false
        let items = (0..<count).map { PlaylistItem(path: "slide\($0)") }
        let decode: DecodeCache.Decode = { item in
            let path = item.path
            let n = Int(path.dropFirst(5)) ?? 0
            // sizes vary so textures are re-created, not just reused
            let size = PixelSize(width: 40 + n % 7, height: 30 + n % 5)
            return DecodedItem(info: MediaInfo(path: path, kind: .image, width: size.width, height: size.height, frames: 1,
                                               duration: nil, loops: 1, orientation: 1),
                               picture: .still(RGBAImage(size: size, fill: (UInt8(n % 256), 80, 160, 255))))
        }
        let clock = VirtualClock()
        let output = try VirtualTimeOutput(size: config.size, fps: 4, clock: clock, sink: nil)
        let player = try Player(items: items, config: config, output: output, clock: clock, log: Log(level: .error),
                                waitForDecodes: true, decode: decode)
        var rssAfterWarmup: Double?
        let report = try player.run(length: nil, shouldStop: {
            if rssAfterWarmup == nil, clock.now >= 1000 { rssAfterWarmup = try? PlayerSoak.residentMiB() }
            return false
        })
        XCTAssertEqual(report.slotsShown, count)
        XCTAssertEqual(report.endTime, Double(count), accuracy: 0.3)
        let warm = try XCTUnwrap(rssAfterWarmup, "resident memory after 1,000 slides could not be read")
        let growth = try withExtendedLifetime(player) { try PlayerSoak.residentMiB() - warm }  // the player still alive
        XCTAssertLessThan(growth, 24, "resident memory grew \(growth) MiB over 9,000 slides")
    }
}
