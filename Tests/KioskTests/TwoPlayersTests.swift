import Foundation
import KioskCore
import KioskMedia
import KioskOutput
@testable import KioskPlayer
import KioskRender
import XCTest

/// Two players in one process at once, each on its own thread with its own headless output and GL context on the
/// one EGL display they share (as screens of one box will be), paced in real time so that they overlap: each draws
/// only its own picture, and the one that ends first (its context and output gone) leaves the other drawing.
final class TwoPlayersTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    /// A player of `picture` for `length` seconds on a thread of its own; the frames' centre pixels.
    private final class Run: @unchecked Sendable {
        private let lock = NSLock()
        private var centres: [[UInt8]] = []
        private(set) var failure: String?
        let done = DispatchSemaphore(value: 0)

        init(picture: String, size: PixelSize, length: Double) {
            Thread { [self] in
                defer { done.signal() }
                do {
                    var config = PlayerConfig()
                    config.size = size
                    config.slideshow.duration = 10
                    let clock = VirtualClock()
                    let output = try VirtualTimeOutput(size: size, fps: 20, clock: clock, realTime: true) { [self] frame in
                        let at = (frame.size.height / 2 * frame.size.width + frame.size.width / 2) * 4
                        lock.lock()
                        centres.append(Array(frame.pixels[at..<at + 3]))
                        lock.unlock()
                    }
                    let player = try Player(items: [PlaylistItem(path: picture)], config: config, output: output, clock: clock,
                                            log: Log(level: .error), waitForDecodes: true)
                    _ = try player.run(length: length)
                } catch {
                    lock.lock()
                    failure = "\(error)"
                    lock.unlock()
                }
            }.start()
        }

        var frames: [[UInt8]] {
            lock.lock()
            defer { lock.unlock() }
            return centres
        }
    }

    func testEachDrawsItsOwnAndTheLastOutlivesTheFirst() throws {
        let dir = try RenderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let size = PixelSize(width: 64, height: 36)
        let red = dir.appendingPathComponent("red.png").path, blue = dir.appendingPathComponent("blue.png").path
        try PNGWriter.write(RGBAImage(size: size, fill: (255, 0, 0, 255)), to: red)
        try PNGWriter.write(RGBAImage(size: size, fill: (0, 0, 255, 255)), to: blue)
        let short = Run(picture: red, size: size, length: 0.5)
        let long = Run(picture: blue, size: size, length: 4)
        XCTAssertEqual(short.done.wait(timeout: .now() + 60), .success)
        XCTAssertFalse(long.frames.isEmpty && long.failure == nil && long.done.wait(timeout: .now()) == .success,
                       "the long one was still playing when the short one ended")
        XCTAssertEqual(long.done.wait(timeout: .now() + 60), .success)
        XCTAssertNil(short.failure)
        XCTAssertNil(long.failure, "the player still running when the other ended went on drawing")
        XCTAssertGreaterThanOrEqual(short.frames.count, 5)
        XCTAssertGreaterThanOrEqual(long.frames.count, 60, "4 s at 20 fps")
        XCTAssertTrue(short.frames.allSatisfy { $0 == [255, 0, 0] }, "only its red: \(Set(short.frames))")
        XCTAssertTrue(long.frames.allSatisfy { $0 == [0, 0, 255] }, "only its blue: \(Set(long.frames))")
    }
}
