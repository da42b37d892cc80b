import Foundation
import KioskCore
@testable import KioskPlayer
import XCTest

/// The decode cache: background decodes, the time bound, eviction.
final class DecodeCacheTests: XCTestCase {
    func testStuckDecodeIsAbandonedAfterTheBoundAndTheSlideshowGoesOn() {
        let items = [PlaylistItem(path: "stuck.jpg"), PlaylistItem(path: "fine.png")]
        let lines = LockedLines()
        let release = DispatchSemaphore(value: 0)
        let picture = DecodedItem(info: MediaInfo(path: "fine.png", kind: .image, width: 2, height: 2, frames: 1,
                                                  duration: nil, loops: 1, orientation: 1),
                                  picture: .still(RGBAImage(size: PixelSize(width: 2, height: 2), fill: (1, 2, 3, 255))))
        let cache = DecodeCache(items: items, timeout: 0.3, log: Log(level: .warn, sink: { lines.append($0) })) { item in
            let path = item.path
            if path == "stuck.jpg" { release.wait() }  // never returns until the test ends
            return picture
        }
        let start = Date()
        cache.wait(for: 0)
        let waited = Date().timeIntervalSince(start)
        XCTAssertEqual(cache.availability(0), .failed)
        XCTAssertGreaterThanOrEqual(waited, 0.29)
        // The decode never returns, so only the 0.3 s bound can end the wait: 10x it still tells the two apart,
        // and a loaded machine's stall of a second or two does not fail it.
        XCTAssertLessThan(waited, 3)
        XCTAssertEqual(lines.all.filter { $0.contains("stuck.jpg") && $0.contains("longer than") }.count, 1, "\(lines.all)")

        var opts = SlideshowOptions()
        opts.transition = .none
        let show = Slideshow(items: items, options: opts)
        cache.wait(for: 1)
        XCTAssertEqual(show.update(at: 0, availability: cache.availability)?.current.id.value, 1)
        release.signal()
    }

    func testFailuresAreRememberedAndPicturesEvicted() {
        let items = (0..<4).map { PlaylistItem(path: "f\($0)") }
        let calls = LockedLines()
        let cache = DecodeCache(items: items, timeout: 5, log: Log(level: .error, sink: { _ in })) { item in
            let path = item.path
            calls.append(path)
            if path == "f1" { throw MediaError(path: path, reason: "corrupt") }
            return DecodedItem(info: MediaInfo(path: path, kind: .image, width: 1, height: 1, frames: 1, duration: nil, loops: 1, orientation: 1),
                               picture: .still(RGBAImage(size: PixelSize(width: 1, height: 1), fill: (0, 0, 0, 255))))
        }
        for i in 0..<4 { cache.wait(for: ItemID(i)) }
        XCTAssertEqual(cache.decodedIndices, [0, 2, 3])
        cache.evict(keeping: [2])
        XCTAssertEqual(cache.decodedIndices, [2])
        cache.wait(for: 1)
        XCTAssertEqual(cache.availability(1), .failed)
        XCTAssertEqual(calls.all.filter { $0 == "f1" }.count, 1, "a bad file is not decoded again")
    }

    func testRemovingAnItemCancelsItsDecodeAndDropsTheLateResult() throws {
        let playlist = LivePlaylist([PlaylistItem(path: "shown"), PlaylistItem(path: "slow")])
        let release = DispatchSemaphore(value: 0)
        let freed = DispatchSemaphore(value: 0)
        let cache = DecodeCache(playlist: playlist, timeout: 30, log: Log(level: .error, sink: { _ in })) { item in
            if item.path == "slow" {
                release.wait()
                // Freed only once the cache has let go of the late result: a kept one would stay alive.
                return DecodedItem(info: MediaInfo(path: item.path, kind: .video, width: 2, height: 2, frames: 10, duration: 1,
                                                   loops: 1, orientation: 1),
                                   picture: .clip(SignallingClip(teardown: 0, freed: freed)))
            }
            return DecodedItem(info: MediaInfo(path: item.path, kind: .image, width: 1, height: 1, frames: 1, duration: nil, loops: 1, orientation: 1),
                               picture: .still(RGBAImage(size: PixelSize(width: 1, height: 1), fill: (0, 0, 0, 255))))
        }
        cache.wait(for: 0)
        cache.request(1)
        XCTAssertEqual(cache.availability(1), .pending)
        _ = playlist.remove(1)
        cache.evict(keeping: [0])
        XCTAssertEqual(cache.availability(1), .failed, "a removed item is never shown")
        release.signal()
        // Instead of sleeping for the decode thread's finish: the late result is freed once finish dropped it.
        XCTAssertEqual(freed.wait(timeout: .now() + 20), .success, "the late result of a cancelled decode is dropped")
        XCTAssertEqual(cache.decodedIndices, [0], "the late result of a cancelled decode is dropped")
    }

    /// A clip that signals `freed` when it is freed, after a teardown of `teardown` seconds (a decoder thread's
    /// join can take a while).
    private final class SignallingClip: ClipSource, @unchecked Sendable {
        let teardown: Double
        let freed: DispatchSemaphore
        init(teardown: Double, freed: DispatchSemaphore) {
            self.teardown = teardown
            self.freed = freed
        }
        deinit {
            if teardown > 0 { Thread.sleep(forTimeInterval: teardown) }  // the slow teardown being simulated
            freed.signal()
        }
        var displaySize: PixelSize { PixelSize(width: 2, height: 2) }
        var startTime: Double { 0 }
        var slotLength: Double { 1 }
        func frame(at t: Double) -> VideoFrame? { nil }
        func nextFrame(timeout: Double) -> VideoFrame? { nil }
        func peekFrame(timeout: Double) -> VideoFrame? { nil }
        func seek(to seconds: Double) {}
        var isFinished: Bool { true }
        var failure: MediaError? { nil }
    }

    func testEvictionTearsClipsDownOffTheCallersThread() throws {
        let stopped = DispatchSemaphore(value: 0)
        let cache = DecodeCache(items: [PlaylistItem(path: "clip.mp4")], timeout: 5, log: Log(level: .error, sink: { _ in })) { item in
            DecodedItem(info: MediaInfo(path: item.path, kind: .video, width: 2, height: 2, frames: 10, duration: 1, loops: 1, orientation: 1),
                        picture: .clip(SignallingClip(teardown: 4, freed: stopped)))
        }
        cache.wait(for: 0)
        XCTAssertEqual(cache.decodedIndices, [0])
        let start = Date()
        cache.evict(keeping: [])
        let took = Date().timeIntervalSince(start)
        // A 4 s teardown against a 2 s bound: a loaded machine's stall does not reach the one, a teardown on the
        // caller's thread cannot pass the other.
        XCTAssertLessThan(took, 2, "evict returned before the clip's 4 s teardown (it runs on the reaper)")
        XCTAssertEqual(stopped.wait(timeout: .now() + 10), .success, "the reaper tore the clip down")
    }
}

