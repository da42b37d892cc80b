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
        XCTAssertLessThan(waited, 2)
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
        let returned = DispatchSemaphore(value: 0)
        let cache = DecodeCache(playlist: playlist, timeout: 30, log: Log(level: .error, sink: { _ in })) { item in
            if item.path == "slow" { release.wait() }
            defer { if item.path == "slow" { returned.signal() } }
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
        XCTAssertEqual(returned.wait(timeout: .now() + 10), .success)
        Thread.sleep(forTimeInterval: 0.2)  // the decode thread's finish runs right after the closure returns
        XCTAssertEqual(cache.decodedIndices, [0], "the late result of a cancelled decode is dropped")
    }

    /// A clip whose teardown takes a while, as a decoder thread's join can.
    private final class SlowToStopClip: ClipSource, @unchecked Sendable {
        let stopped: DispatchSemaphore
        init(stopped: DispatchSemaphore) { self.stopped = stopped }
        deinit {
            Thread.sleep(forTimeInterval: 4)
            stopped.signal()
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
                        picture: .clip(SlowToStopClip(stopped: stopped)))
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

