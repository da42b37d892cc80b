import Foundation
import KioskCore
@testable import KioskWeb
import XCTest

/// The live view's camera: one screenshot at a time, shared by every viewer, and a player that does not answer
/// holds the server's threads for at most the answer time, not that time once per caller.
final class WebCameraTests: XCTestCase {
    /// A player's inbox that counts screenshots asked for and answers them (the JPEG's bytes written to the path
    /// after `delay`), or never answers them.
    final class FakePlayer: CommandSink, @unchecked Sendable {
        private let lock = NSLock()
        private var asked = 0
        let answers: Bool
        let delay: Double
        init(answers: Bool, delay: Double = 0.2) {
            self.answers = answers
            self.delay = delay
        }
        var screenshots: Int { lock.lock(); defer { lock.unlock() }; return asked }
        func send(_ command: PlayerCommand, reply: (@Sendable (CommandReply) -> Void)?) {
            guard case .screenshot(let path) = command else { return }
            lock.lock()
            asked += 1
            lock.unlock()
            guard answers else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                _ = FileManager.default.createFile(atPath: path, contents: Data([0xFF, 0xD8, 0xFF, 0xD9]))
                reply?(.done())
            }
        }
    }

    /// Runs `picture()` on `count` threads at once (as the server's threads call it): each one's result and the
    /// seconds they all took.
    func pictures(_ camera: WebCamera, count: Int) -> (results: [Result<[UInt8], WebRefusal>], seconds: Double) {
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var all: [Result<[UInt8], WebRefusal>] = []
        }
        let results = Results()
        let started = Date()
        let done = DispatchGroup()
        for _ in 0..<count {
            done.enter()
            Thread {
                let r: Result<[UInt8], WebRefusal>
                do throws(WebRefusal) { r = .success(try camera.picture()) } catch { r = .failure(error) }
                results.lock.lock()
                results.all.append(r)
                results.lock.unlock()
                done.leave()
            }.start()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        return (results.all, Date().timeIntervalSince(started))
    }

    func testViewersShareOneScreenshot() {
        let player = FakePlayer(answers: true)
        let camera = WebCamera(sink: player)
        let (results, _) = pictures(camera, count: 8)
        XCTAssertEqual(results.compactMap { try? $0.get() }, Array(repeating: [0xFF, 0xD8, 0xFF, 0xD9], count: 8))
        XCTAssertEqual(player.screenshots, 1, "one screenshot for the eight")
        XCTAssertEqual(try camera.picture(), [0xFF, 0xD8, 0xFF, 0xD9])
        XCTAssertEqual(player.screenshots, 1, "a picture under a second old is shown again")
    }

    func testAPlayerThatDoesNotAnswerHoldsEachCallerOnlyOnce() {
        let player = FakePlayer(answers: false)
        let camera = WebCamera(sink: player, answerSeconds: 1, retrySeconds: 3)
        let (results, seconds) = pictures(camera, count: 8)
        XCTAssertEqual(results.count, 8)
        for r in results {
            guard case .failure(let why) = r else { return XCTFail("a picture from a player that never answered") }
            XCTAssertEqual(why.description, "the player did not answer within 1 s")
        }
        XCTAssertLessThan(seconds, 2.5, "all eight waited for the same screenshot (one after another would be 8 s)")
        XCTAssertEqual(player.screenshots, 1)
        let started = Date()
        XCTAssertThrowsError(try camera.picture())
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.5, "once late, refused at once")
        XCTAssertEqual(player.screenshots, 1)
        Thread.sleep(forTimeInterval: 2.2)
        XCTAssertThrowsError(try camera.picture())
        XCTAssertEqual(player.screenshots, 2, "asked again after the retry time")
    }
}
