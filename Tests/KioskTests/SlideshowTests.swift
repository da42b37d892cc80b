import XCTest
@testable import KioskCore

/// The scheduler on a virtual clock: hours of slideshow in milliseconds.
final class SlideshowTests: XCTestCase {
    private func items(_ n: Int) -> [PlaylistItem] { (0..<n).map { PlaylistItem(path: "item\($0)") } }

    private func options(_ f: (inout SlideshowOptions) -> Void = { _ in }) -> SlideshowOptions {
        var o = SlideshowOptions()
        o.transition = .none
        f(&o)
        return o
    }

    /// Runs the slideshow at `step` from 0 to `until` and returns (time, index) at each change of slot.
    private func changes(_ show: Slideshow, until: Double, step: Double = 0.01,
                         availability: (ItemID) -> Availability = { _ in .ready(.still) }) -> [(Double, Int)] {
        var out: [(Double, Int)] = []
        var lastSeq = -1
        var i = 0
        while Double(i) * step <= until + 1e-9 {
            let t = Double(i) * step
            i += 1
            if let s = show.update(at: t, availability: availability), s.current.sequence != lastSeq {
                lastSeq = s.current.sequence
                out.append((t, s.current.id.value))
            }
        }
        return out
    }

    func testStillsChangeEveryDuration() {
        let show = Slideshow(items: items(3), options: options { $0.duration = 2 })
        let c = changes(show, until: 8)
        XCTAssertEqual(c.map(\.1), [0, 1, 2, 0, 1])
        for (i, change) in c.enumerated() { XCTAssertEqual(change.0, Double(i) * 2, accuracy: 0.011) }
    }

    func testPerItemDurationOverrides() {
        var list = items(2)
        list[0].duration = 1
        let show = Slideshow(items: list, options: options { $0.duration = 3; $0.loop = false })
        let c = changes(show, until: 10)
        XCTAssertEqual(c.map(\.1), [0, 1])
        XCTAssertEqual(c[1].0, 1, accuracy: 0.011)
        XCTAssertTrue(show.isFinished)
    }

    func testAnimationPlaysWholeLoops() {
        // loop of 1.5 s, duration 4 s -> ceil(4/1.5) = 3 loops = 4.5 s
        let anim = MediaTiming.animation(frameDurations: [0.5, 0.5, 0.5], loops: 0)
        XCTAssertEqual(anim.plays(forDuration: 4), 3)
        XCTAssertEqual(anim.slotLength(forDuration: 4), 4.5, accuracy: 1e-9)
        // a loop longer than the duration still plays once
        let long = MediaTiming.animation(frameDurations: [3, 4], loops: 0)
        XCTAssertEqual(long.slotLength(forDuration: 5), 7, accuracy: 1e-9)
        // exact multiple: no extra loop
        XCTAssertEqual(MediaTiming.animation(frameDurations: [1], loops: 0).plays(forDuration: 5), 5)

        let show = Slideshow(items: items(2), options: options { $0.duration = 4 })
        let c = changes(show, until: 9, availability: { $0 == 0 ? .ready(anim) : .ready(.still) })
        XCTAssertEqual(c.map(\.1), [0, 1, 0])
        XCTAssertEqual(c[1].0, 4.5, accuracy: 0.011)
        XCTAssertEqual(c[2].0, 8.5, accuracy: 0.011)
    }

    func testFiniteLoopCountCapsAndHoldsLastFrame() {
        // 2 plays of 1 s in a 5 s slot: plays 2 loops then holds the last frame until 5 s.
        let anim = MediaTiming.animation(frameDurations: [0.25, 0.25, 0.25, 0.25], loops: 2)
        XCTAssertEqual(anim.plays(forDuration: 5), 2)
        XCTAssertEqual(anim.slotLength(forDuration: 5), 5)
        XCTAssertEqual(anim.frameIndex(at: 0.1, slotDuration: 5), 0)
        XCTAssertEqual(anim.frameIndex(at: 0.3, slotDuration: 5), 1)
        XCTAssertEqual(anim.frameIndex(at: 1.3, slotDuration: 5), 1)
        XCTAssertEqual(anim.frameIndex(at: 2.5, slotDuration: 5), 3)
        XCTAssertEqual(anim.frameIndex(at: 4.9, slotDuration: 5), 3)
    }

    func testShuffleVisitsAllWithoutImmediateRepeats() {
        let n = 7
        let show = Slideshow(items: items(n), options: options { $0.duration = 1; $0.shuffle = true; $0.seed = 42 })
        let c = changes(show, until: Double(n * 6) - 0.5, step: 0.05).map(\.1)
        XCTAssertEqual(c.count, n * 6)
        var orders: [[Int]] = []
        for p in 0..<6 {
            let pass = Array(c[(p * n)..<((p + 1) * n)])
            XCTAssertEqual(Set(pass), Set(0..<n), "pass \(p) shows every item once")
            orders.append(pass)
        }
        for i in 1..<c.count { XCTAssertNotEqual(c[i], c[i - 1], "no immediate repeat at \(i)") }
        XCTAssertGreaterThan(Set(orders.map { $0.description }).count, 1, "a new order each pass")
        XCTAssertNotEqual(orders[0], Array(0..<n))
        // the same seed gives the same order
        let again = Slideshow(items: items(n), options: options { $0.duration = 1; $0.shuffle = true; $0.seed = 42 })
        XCTAssertEqual(changes(again, until: Double(n) - 0.5, step: 0.05).map(\.1), orders[0])
    }

    func testNextPreviousAndPause() {
        let show = Slideshow(items: items(4), options: options { $0.duration = 5 })
        let ready: (ItemID) -> Availability = { _ in .ready(.still) }
        XCTAssertEqual(show.update(at: 0, availability: ready)?.current.id.value, 0)
        show.next()
        XCTAssertEqual(show.update(at: 1, availability: ready)?.current.id.value, 1)
        // the new item got a full slot from the moment of the skip
        XCTAssertEqual(show.update(at: 5.9, availability: ready)?.current.id.value, 1)
        XCTAssertEqual(show.update(at: 6.0, availability: ready)?.current.id.value, 2)
        show.previous()
        XCTAssertEqual(show.update(at: 6.5, availability: ready)?.current.id.value, 1)
        show.previous()
        _ = show.update(at: 6.6, availability: ready)
        show.previous()
        XCTAssertEqual(show.update(at: 6.7, availability: ready)?.current.id.value, 3, "previous wraps when looping")
        show.pause(at: 7)
        XCTAssertEqual(show.update(at: 100, availability: ready)?.current.id.value, 3)
        XCTAssertTrue(show.update(at: 100, availability: ready)?.paused ?? false)
        show.resume(at: 100)
        // 0.3 s were used before the pause: 4.7 s remain
        XCTAssertEqual(show.update(at: 104.6, availability: ready)?.current.id.value, 3)
        XCTAssertEqual(show.update(at: 104.75, availability: ready)?.current.id.value, 0)
    }

    func testFailedItemsAreSkippedAndAllFailedFinishes() {
        let show = Slideshow(items: items(3), options: options { $0.duration = 1 })
        let c = changes(show, until: 4.5, availability: { $0 == 1 ? .failed : .ready(.still) })
        XCTAssertEqual(c.map(\.1), [0, 2, 0, 2, 0])
        let none = Slideshow(items: items(3), options: options())
        XCTAssertNil(none.update(at: 0, availability: { _ in .failed }))
        XCTAssertTrue(none.isFinished)
    }

    func testPendingItemHoldsCurrent() {
        let show = Slideshow(items: items(2), options: options { $0.duration = 1 })
        var ready = false
        let avail: (ItemID) -> Availability = { $0 == 1 && !ready ? .pending : .ready(.still) }
        XCTAssertEqual(show.update(at: 0, availability: avail)?.current.id.value, 0)
        XCTAssertEqual(show.upcoming, 1)
        XCTAssertEqual(show.update(at: 1.5, availability: avail)?.current.id.value, 0)
        ready = true
        XCTAssertEqual(show.update(at: 1.6, availability: avail)?.current.id.value, 1)
    }

    func testCrossfadeProgressAndOutgoingTime() {
        let show = Slideshow(items: items(2), options: { var o = SlideshowOptions(); o.duration = 2; o.transitionTime = 1; return o }())
        let ready: (ItemID) -> Availability = { _ in .ready(.still) }
        XCTAssertNil(show.update(at: 0, availability: ready)?.outgoing)
        let s = show.update(at: 2.5, availability: ready)
        XCTAssertEqual(s?.current.id.value, 1)
        XCTAssertEqual(s?.outgoing?.id.value, 0)
        XCTAssertEqual(s?.progress ?? 0, 0.5, accuracy: 1e-9)
        XCTAssertEqual(s?.outgoingTime ?? 0, 2.5, accuracy: 1e-9)
        XCTAssertNil(show.update(at: 3.01, availability: ready)?.outgoing)
    }

    func testHoursOfVirtualTimeStayExact() {
        let show = Slideshow(items: items(5), options: options { $0.duration = 3 })
        var last = -1
        var count = 0
        var t = 0.0
        while t < 36_000 {  // ten hours at 4 fps
            if let s = show.update(at: t, availability: { _ in .ready(.still) }), s.current.sequence != last {
                last = s.current.sequence
                count += 1
            }
            t += 0.25
        }
        XCTAssertEqual(count, 12_000)
    }
}

/// Ken Burns paths: seeded, repeatable, within the zoom limits, moving smoothly.
final class KenBurnsTests: XCTestCase {
    func testPathsRepeatForASeedAndDifferBetweenSlotsAndSeeds() {
        let a = KenBurns(seed: 7), b = KenBurns(seed: 7), c = KenBurns(seed: 8)
        for slot in 0..<20 {
            XCTAssertEqual(a.path(forSlot: slot).from, b.path(forSlot: slot).from)
            XCTAssertEqual(a.path(forSlot: slot).to, b.path(forSlot: slot).to)
        }
        XCTAssertNotEqual(a.path(forSlot: 0).to, a.path(forSlot: 1).to)
        XCTAssertNotEqual(a.path(forSlot: 0).to, c.path(forSlot: 0).to)
    }

    func testViewsStayWithinLimitsAndMoveSmoothly() {
        let kb = KenBurns(seed: 3, maxZoom: 1.3)
        let base = FlatView(fit: .cover)
        for slot in 0..<50 {
            var last = kb.view(forSlot: slot, progress: 0, base: base)
            XCTAssertEqual(last.fit, .cover)
            for step in 1...100 {
                let v = kb.view(forSlot: slot, progress: Double(step) / 100, base: base)
                XCTAssertGreaterThanOrEqual(v.zoom, 1)
                XCTAssertLessThanOrEqual(v.zoom, 1.3 + 1e-9)
                XCTAssertLessThan(abs(v.zoom - last.zoom), 0.01, "no jumps in zoom")
                XCTAssertLessThan(abs(v.center.x - last.center.x), 0.02, "no jumps in pan")
                last = v
            }
        }
        // the ends of the path differ: it really moves
        let p = kb.path(forSlot: 0)
        XCTAssertGreaterThan(abs(p.from.zoom - p.to.zoom) + abs(p.from.center.x - p.to.center.x), 0.05)
    }
}
