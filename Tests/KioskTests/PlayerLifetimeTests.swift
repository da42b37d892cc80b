import Foundation
import KioskCore
import KioskOutput
@testable import KioskPlayer
import XCTest

/// The whole player loop (slideshow, decode cache, composer, renderer, headless output) over 10,000 slides on a
/// virtual clock: textures and decoded pictures are released as slides go, so memory stays flat.
final class PlayerLifetimeTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    /// Resident memory from /proc/self/statm; throws when it can't be read, so the leak check can't pass on -1 - -1.
    private func residentMiB(statm: String = "/proc/self/statm") throws -> Double {
        let s = try String(contentsOfFile: statm, encoding: .utf8)
        let pages = try XCTUnwrap(s.split(separator: " ").dropFirst().first.flatMap { Double($0) }, "statm: \(s)")
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }

    func testAnUnreadableStatmFailsInsteadOfMeasuringNothing() {
        XCTAssertThrowsError(try residentMiB(statm: "/proc/self/no-such-statm"))
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
            if rssAfterWarmup == nil, clock.now >= 1000 { rssAfterWarmup = try? self.residentMiB() }
            return false
        })
        XCTAssertEqual(report.slotsShown, count)
        XCTAssertEqual(report.endTime, Double(count), accuracy: 0.3)
        let warm = try XCTUnwrap(rssAfterWarmup, "resident memory after 1,000 slides could not be read")
        let growth = try residentMiB() - warm
        XCTAssertLessThan(growth, 24, "resident memory grew \(growth) MiB over 9,000 slides")
    }
}
