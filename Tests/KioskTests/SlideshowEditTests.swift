import XCTest
@testable import KioskCore

/// The live playlist and the slideshow's commands on a virtual clock: edits while playing (also of the item on
/// screen and during a transition), pause reasons held by separate producers, and the events observers hear.
final class SlideshowEditTests: XCTestCase {
    private let ready: (ItemID) -> Availability = { _ in .ready(.still) }

    private func show(_ n: Int, transition: TransitionSpec = .crossfade, shuffle: Bool = false) -> Slideshow {
        var o = SlideshowOptions()
        o.duration = 5
        o.transition = transition
        o.transitionTime = 1
        o.shuffle = shuffle
        o.seed = 7
        return Slideshow(items: (0..<n).map { PlaylistItem(path: "item\($0)") }, options: o)
    }

    private func run(_ s: Slideshow, _ c: PlayerCommand, at t: Double) {
        XCTAssertEqual(s.apply(c, at: t)?.isDone, true, "\(c)")
    }

    /// The ids shown (one per slot) when stepping from `from` to `to`.
    private func shown(_ s: Slideshow, from: Double, to: Double, step: Double = 0.05) -> [Int] {
        var out: [Int] = []
        var last = -1
        var t = from
        while t <= to + 1e-9 {
            if let scene = s.update(at: t, availability: ready), scene.current.sequence != last {
                last = scene.current.sequence
                out.append(scene.current.id.value)
            }
            t += step
        }
        return out
    }

    func testRemovingTheCurrentItemMidTransitionMovesOnAtOnceWithTheTransition() {
        let s = show(4)
        _ = s.update(at: 0, availability: ready)
        let mid = s.update(at: 5.5, availability: ready)   // 0 → 1 crossfading
        XCTAssertEqual(mid?.current.id, 1)
        XCTAssertEqual(mid?.outgoing?.id, 0)
        run(s, .remove(.id(1)), at: 5.6)
        let after = s.update(at: 5.6, availability: ready)
        XCTAssertEqual(after?.current.id, 2, "the item after the removed one comes at once")
        XCTAssertEqual(after?.outgoing?.id, 1, "the removed item goes out with the transition")
        XCTAssertEqual(after?.progress ?? 1, 0, accuracy: 1e-9)
        XCTAssertEqual(s.playlist.ids, [0, 2, 3])
        let events = s.takeEvents()
        XCTAssertTrue(events.contains(.itemEnded(1, path: "item1", reason: .removed)), "\(events)")
        XCTAssertTrue(events.contains(.playlistChanged(count: 3)))
        XCTAssertEqual(shown(s, from: 5.65, to: 21), [2, 3, 0, 2])
    }

    func testRemovingTheUpcomingItemAndInsertingAppendingAndMovingWhilePlaying() {
        let s = show(4, transition: .none)
        _ = s.update(at: 0, availability: ready)
        XCTAssertEqual(s.upcoming, 1)
        run(s, .remove(.position(1)), at: 1)
        XCTAssertEqual(s.upcoming, 2, "the removed upcoming item is no longer wanted")
        run(s, .load([PlaylistItem(path: "next")], .insertNext), at: 1)
        XCTAssertEqual(s.upcoming, 4, "an inserted item plays next")
        run(s, .load([PlaylistItem(path: "last")], .append), at: 1)
        run(s, .move(.id(3), to: 0), at: 1)
        XCTAssertEqual(s.playlist.ids, [3, 0, 4, 2, 5])
        XCTAssertEqual(shown(s, from: 1, to: 26), [0, 4, 2, 5, 3, 0])
        XCTAssertEqual(s.apply(.remove(.id(99)), at: 2), .failed("no such item: id 99"))
        XCTAssertEqual(s.apply(.goTo(.position(17)), at: 2), .failed("no such item: position 17"))
    }

    func testReplaceGoesToTheNewItemsAndAnEmptyPlaylistIdlesUntilItemsArrive() {
        let s = show(2)
        _ = s.update(at: 0, availability: ready)
        XCTAssertEqual(s.apply(.load([PlaylistItem(path: "a"), PlaylistItem(path: "b")], .replace), at: 1), .done(ids: [2, 3]))
        let scene = s.update(at: 1, availability: ready)
        XCTAssertEqual(scene?.current.id, 2)
        XCTAssertEqual(scene?.outgoing?.id, 0, "the replaced item goes out with the transition")
        _ = s.takeEvents()
        run(s, .remove(.id(2)), at: 2)
        run(s, .remove(.id(3)), at: 2)
        XCTAssertNil(s.update(at: 2, availability: ready))
        XCTAssertTrue(s.isIdle)
        XCTAssertTrue(s.takeEvents().contains(.idle))
        XCTAssertNil(s.update(at: 10, availability: ready), "idle: nothing to show")
        run(s, .load([PlaylistItem(path: "c")], .append), at: 11)
        XCTAssertFalse(s.isIdle)
        XCTAssertEqual(s.update(at: 11, availability: ready)?.current.id, 4, "starts as soon as items arrive")
        XCTAssertTrue(s.takeEvents().contains(.itemStarted(4, path: "c", sequence: 2)))
    }

    func testGoToByIdAndPosition() {
        let s = show(5, transition: .none)
        _ = s.update(at: 0, availability: ready)
        run(s, .goTo(.id(3)), at: 1)
        XCTAssertEqual(s.update(at: 1, availability: ready)?.current.id, 3)
        run(s, .goTo(.position(1)), at: 2)
        XCTAssertEqual(s.update(at: 2, availability: ready)?.current.id, 1)
        XCTAssertEqual(s.update(at: 7.05, availability: ready)?.current.id, 2, "the slideshow goes on from there")
    }

    func testShuffledPassTakesInNewItemsWithoutRepeats() {
        let s = show(6, transition: .none, shuffle: true)
        _ = s.update(at: 0, availability: ready)
        run(s, .load([PlaylistItem(path: "new")], .append), at: 1)
        let seen = shown(s, from: 1, to: 5 * 14 - 0.5)
        XCTAssertEqual(Set(seen.prefix(7)), Set(0...6), "the pass with the new item shows each item once: \(seen)")
        for i in 1..<seen.count { XCTAssertNotEqual(seen[i], seen[i - 1]) }
    }

    func testEventsSayWhyItemsEnded() {
        let s = show(3, transition: .none)
        _ = s.update(at: 0, availability: ready)
        _ = s.update(at: 5, availability: ready)   // eof
        s.next()
        _ = s.update(at: 6, availability: ready)   // skipped
        s.endCurrent(.error)
        _ = s.update(at: 7, availability: ready)   // error
        let ends = s.takeEvents().compactMap { e -> EndReason? in if case .itemEnded(_, _, let r) = e { return r } else { return nil } }
        XCTAssertEqual(ends, [.eof, .skipped, .error])
    }

    /// One frame as the player runs it: input's step, the slideshow's update, the composer's view hook.
    private func frame(_ s: Slideshow, _ input: Interaction, at t: Double) {
        let geo = LayerGeometry(picture: PixelSize(width: 640, height: 480), canvas: PixelSize(width: 640, height: 480), spherical: false)
        s.run(input.step(at: t), at: t)
        if let scene = s.update(at: t, availability: ready) {
            _ = input.views(sequence: scene.current.sequence, current: true, geometry: geo, flat: FlatView(), sphere: SphereView())
        }
    }

    func testARemotePauseSurvivesZoomingInAndOut() {
        let s = show(3, transition: .none)
        let input = Interaction(canvas: PixelSize(width: 640, height: 480), settings: InteractionSettings())
        let frame = { (t: Double) in self.frame(s, input, at: t) }
        frame(0)
        run(s, .pause(.remote), at: 1)
        s.run(input.handle(.key(code: 0x1a2, pressed: true, time: 2)), at: 2)   // zoom in
        for t in stride(from: 2.0, through: 3, by: 0.1) { frame(t) }
        XCTAssertEqual(s.pauseReasons, [.remote, .zoomed])
        s.run(input.handle(.key(code: 0x1a3, pressed: true, time: 3)), at: 3)   // zoom out
        for t in stride(from: 3.0, through: 20, by: 0.1) { frame(t) }
        XCTAssertEqual(s.pauseReasons, [.remote], "zooming out removes only its own reason")
        XCTAssertEqual(s.currentID, 0, "still paused by the remote")
        run(s, .resume(.remote), at: 20)
        frame(20)
        XCTAssertFalse(s.isPaused)
        for t in stride(from: 20.0, through: 24.8, by: 0.1) { frame(t) }
        XCTAssertEqual(s.currentID, 0, "the zoom keys restarted the item's timer: its slot ends 5 s after resuming")
        for t in stride(from: 24.9, through: 25.3, by: 0.1) { frame(t) }
        XCTAssertEqual(s.currentID, 1)
    }

    func testZoomingOutDoesNotUndoAUsersPause() {
        let s = show(3, transition: .none)
        let input = Interaction(canvas: PixelSize(width: 640, height: 480), settings: InteractionSettings())
        let frame = { (t: Double) in self.frame(s, input, at: t) }
        frame(0)
        s.run(input.handle(.key(code: 57, pressed: true, time: 1)), at: 1)   // space: the user pauses
        frame(1.1)
        s.run(input.handle(.key(code: 0x1a2, pressed: true, time: 2)), at: 2)  // zoom in
        for t in stride(from: 2.0, through: 3, by: 0.1) { frame(t) }
        s.run(input.handle(.key(code: 0x1a3, pressed: true, time: 3)), at: 3)  // zoom out
        for t in stride(from: 3.0, through: 30, by: 0.1) { frame(t) }
        XCTAssertFalse(input.isZoomed)
        XCTAssertEqual(s.pauseReasons, [.user])
        XCTAssertEqual(s.currentID, 0)
    }

    func testAFingerOnTheScreenHoldsTheItem() {
        let s = show(2, transition: .none)
        let input = Interaction(canvas: PixelSize(width: 640, height: 480), settings: InteractionSettings())
        let frame = { (t: Double) in self.frame(s, input, at: t) }
        frame(0)
        s.run(input.handle(.touch(.down, slot: 0, at: CanvasPoint(x: 100, y: 100), time: 4)), at: 4)
        for t in stride(from: 4.0, through: 9, by: 0.1) { frame(t) }
        XCTAssertEqual(s.pauseReasons, [.interaction])
        XCTAssertEqual(s.currentID, 0, "a finger held down keeps the item")
        s.run(input.handle(.touch(.up, slot: 0, at: CanvasPoint(x: 100, y: 100), time: 9)), at: 9)
        for t in stride(from: 9.0, through: 9.8, by: 0.1) { frame(t) }
        XCTAssertEqual(s.currentID, 0, "the slot's last second runs after the lift")
        for t in stride(from: 9.9, through: 10.5, by: 0.1) { frame(t) }
        XCTAssertEqual(s.currentID, 1, "the slot ran on once the finger lifted")
    }

    func testSeekMovesTheSlotsTimeAndItsEnd() {
        var o = SlideshowOptions()
        o.transition = .none
        let anim = MediaTiming.animation(frameDurations: [1, 1, 1, 1, 1, 1], loops: 1)
        let s = Slideshow(items: [PlaylistItem(path: "anim.gif"), PlaylistItem(path: "still.png")], options: o)
        let avail: (ItemID) -> Availability = { $0 == 0 ? .ready(anim) : .ready(.still) }
        XCTAssertEqual(s.update(at: 0, availability: avail)?.currentTime, 0)
        XCTAssertEqual(s.seek(to: 4, at: 1), 4)
        XCTAssertEqual(s.update(at: 1.5, availability: avail)?.currentTime ?? 0, 4.5, accuracy: 1e-9)
        XCTAssertEqual(s.update(at: 2.9, availability: avail)?.current.id, 0)
        XCTAssertEqual(s.update(at: 3.0, availability: avail)?.current.id, 1, "the 6 s slot ends 2 s after seeking to 4 s")
        XCTAssertEqual(s.seek(to: 1, at: 3.5), 1, "a still's timer moves too")
        XCTAssertEqual(s.update(at: 7.4, availability: avail)?.current.id, 1)
        XCTAssertEqual(s.update(at: 7.5, availability: avail)?.current.id, 0, "its 5 s slot ends 4 s after seeking to 1 s")
    }

    func testLivePlaylistIdsAreStable() {
        let p = LivePlaylist([PlaylistItem(path: "a"), PlaylistItem(path: "b")])
        let edit = p.insert([PlaylistItem(path: "c")], at: 1)
        XCTAssertEqual(edit.added, [2])
        XCTAssertEqual(p.ids, [0, 2, 1])
        XCTAssertEqual(p.item(1)?.path, "b")
        XCTAssertTrue(p.move(0, to: 2))
        XCTAssertEqual(p.ids, [2, 1, 0])
        XCTAssertEqual(p.remove(2)?.removed.first?.position, 0)
        XCTAssertNil(p.remove(2))
        XCTAssertEqual(p.replace(with: [PlaylistItem(path: "d")]).added, [3], "ids are never reused")
    }
}
