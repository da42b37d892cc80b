import XCTest
@testable import KioskCore

/// The wall-clock timeline, the wall's geometry and the sync options: pure maths, checked at seeded random times.
final class WallTimelineTests: XCTestCase {
    private let epoch = 1_700_000_000.0

    /// At any wall time, the position lies inside its slot, and slot numbers and starts agree with `slot(_:)`.
    func testPositionIsInsideItsSlotAtRandomTimes() throws {
        var g = SeededGenerator(seed: 16)
        for shuffle in [false, true] {
            let lengths = (0..<7).map { _ in 0.2 + g.unit() * 9 }
            let timeline = try WallTimeline(epoch: epoch, lengths: lengths, shuffle: shuffle, seed: 3)
            for _ in 0..<2000 {
                let wall = epoch + (g.unit() - 0.3) * 200 * timeline.passLength  // before and after the epoch
                let p = timeline.position(at: wall)
                XCTAssertLessThanOrEqual(p.start, wall + 1e-6)
                XCTAssertLessThan(wall, p.start + p.length + 1e-6)
                XCTAssertEqual(p.offset, wall - p.start, accuracy: 1e-6)
                let s = timeline.slot(p.slot)
                XCTAssertEqual(s.item, p.item)
                XCTAssertEqual(s.start, p.start, accuracy: 1e-5)
                XCTAssertEqual(p.slot, p.pass * lengths.count + p.place)
                // The next slot begins where this one ends.
                XCTAssertEqual(timeline.slot(p.slot + 1).start, p.start + p.length, accuracy: 1e-5)
            }
        }
    }

    /// Without shuffle, passes play the playlist's order from the epoch.
    func testInOrderFromTheEpoch() throws {
        let timeline = try WallTimeline(epoch: epoch, lengths: [2, 3, 5], shuffle: false, seed: 1)
        XCTAssertEqual(timeline.passLength, 10)
        XCTAssertEqual(timeline.position(at: epoch).item, 0)
        XCTAssertEqual(timeline.position(at: epoch + 2.5).item, 1)
        XCTAssertEqual(timeline.position(at: epoch + 2.5).offset, 0.5, accuracy: 1e-6)
        XCTAssertEqual(timeline.position(at: epoch + 7).item, 2)
        XCTAssertEqual(timeline.position(at: epoch + 10).slot, 3)
        XCTAssertEqual(timeline.position(at: epoch - 1).item, 2)  // the pass before the epoch
        XCTAssertEqual(timeline.position(at: epoch - 1).slot, -1)
    }

    /// With shuffle, each pass's order is a permutation drawn from the seed and the pass number: the same for the
    /// same seed, different between passes and seeds, and never repeating an item across a pass's seam.
    func testShuffleIsPerPassAndSeeded() throws {
        let lengths = Array(repeating: 1.0, count: 6)
        let a = try WallTimeline(epoch: epoch, lengths: lengths, shuffle: true, seed: 7)
        let b = try WallTimeline(epoch: epoch + 0, lengths: lengths, shuffle: true, seed: 7)
        let other = try WallTimeline(epoch: epoch, lengths: lengths, shuffle: true, seed: 8)
        XCTAssertEqual(a.order(ofPass: 0), b.order(ofPass: 0))
        XCTAssertEqual(a.order(ofPass: 1), b.order(ofPass: 1))
        XCTAssertNotEqual(a.order(ofPass: 0), a.order(ofPass: 1))
        XCTAssertNotEqual(a.order(ofPass: 0), other.order(ofPass: 0))
        var distinct = Set<[Int]>()
        for pass in -50..<200 {
            let o = a.order(ofPass: pass)
            XCTAssertEqual(o.sorted(), Array(0..<6))
            XCTAssertNotEqual(o.first, a.order(ofPass: pass - 1).last, "pass \(pass) repeats the item before it")
            distinct.insert(o)
        }
        XCTAssertGreaterThan(distinct.count, 100)
        // Two items: one fixed order, so no item shows twice in a row.
        let two = try WallTimeline(epoch: epoch, lengths: [1, 1], shuffle: true, seed: 5)
        for pass in 0..<20 { XCTAssertEqual(two.order(ofPass: pass), two.order(ofPass: 0)) }
    }

    /// Bad lengths and an empty playlist are refused with one line.
    func testBadTimelines() {
        XCTAssertThrowsError(try WallTimeline(epoch: epoch, lengths: [], shuffle: false, seed: 1)) {
            XCTAssertEqual($0 as? WallTimelineError, .noItems)
        }
        XCTAssertThrowsError(try WallTimeline(epoch: epoch, lengths: [1, 0], shuffle: false, seed: 1)) {
            XCTAssertEqual($0 as? WallTimelineError, .badLength(index: 1, length: 0))
        }
        XCTAssertThrowsError(try WallTimeline(epoch: epoch, lengths: [.infinity], shuffle: false, seed: 1))
        // shorter than a slot can be (an #EXTINF:1e-12 would make pass numbers overflow), or a pass of centuries
        XCTAssertThrowsError(try WallTimeline(epoch: epoch, lengths: [1, 1e-12], shuffle: false, seed: 1)) {
            XCTAssertEqual($0 as? WallTimelineError, .badLength(index: 1, length: 1e-12))
        }
        XCTAssertThrowsError(try WallTimeline(epoch: epoch, lengths: [1e308, 1e308], shuffle: false, seed: 1))
        XCTAssertNoThrow(try WallTimeline(epoch: epoch, lengths: [WallTimeline.shortestLength], shuffle: false, seed: 1))
    }

    /// A 2×2 wall of 1920×1080 screens with 60-pixel bezels: each viewport lands on its screen with the wall
    /// scaled to the screen, and the viewport's corner on the screen's corner.
    func testWallPlacement() throws {
        let wall = PixelSize(width: 3900, height: 2220)
        let right = try WallLayout(wall: wall, viewport: PixelRect(x: 1980, y: 0, width: 1920, height: 1080))
        XCTAssertFalse(right.holdsOrigin)
        XCTAssertEqual(right.placement(on: PixelSize(width: 1920, height: 1080)),
                       WallPlacement(canvas: wall, offsetX: -1980, offsetY: 0))
        // A 4K screen showing the same viewport: the wall scaled 2×.
        XCTAssertEqual(right.placement(on: PixelSize(width: 3840, height: 2160)),
                       WallPlacement(canvas: PixelSize(width: 7800, height: 4440), offsetX: -3960, offsetY: 0))
        let origin = try WallLayout(wall: wall, viewport: PixelRect(x: 0, y: 0, width: 1920, height: 1080))
        XCTAssertTrue(origin.holdsOrigin)
        XCTAssertEqual(WallPlacement(canvas: wall, offsetX: -1980, offsetY: -1140).onScreen(nil),
                       PixelRect(x: -1980, y: -1140, width: 3900, height: 2220))
    }

    /// Viewports outside the wall, empty or unreadable are usage errors naming `--viewport`.
    func testBadViewports() {
        let wall = PixelSize(width: 1000, height: 500)
        for rect in [PixelRect(x: 600, y: 0, width: 500, height: 500), PixelRect(x: 0, y: 1, width: 1000, height: 500),
                     PixelRect(x: 0, y: 0, width: 0, height: 10),
                     // numbers that would overflow an addition (a hostile kiosk.conf) are refused, not a crash
                     PixelRect(x: Int.max, y: 0, width: 1, height: 1), PixelRect(x: 1, y: 0, width: Int.max, height: 1)] {
            XCTAssertThrowsError(try WallLayout(wall: wall, viewport: rect)) {
                XCTAssertTrue(($0 as? UsageError)?.message.hasPrefix("--viewport: ") ?? false, "\($0)")
            }
        }
        for text in ["1,2,3", "a,b,c,d", "-1,0,10,10", "0,0,10,-10", "0,0,10,10,1", ""] {
            XCTAssertThrowsError(try WallLayout.parseViewport(text), text) {
                XCTAssertTrue(($0 as? UsageError)?.message.hasPrefix("--viewport: ") ?? false, "\($0)")
            }
        }
        XCTAssertEqual(try WallLayout.parseViewport("10, 20,30,40"), PixelRect(x: 10, y: 20, width: 30, height: 40))
    }

    /// The flags go in pairs, and `--sync-audio` picks who plays sound.
    func testSyncSettingsFromOptions() throws {
        func settings(_ args: [String]) throws -> SyncSettings {
            try CommandSpecs.syncSettings(try ParsedOptions.parse(args, specs: CommandSpecs.play, command: "play"))
        }
        XCTAssertEqual(try settings([]), SyncSettings())
        XCTAssertTrue(try settings([]).playsSound)
        let leader = try settings(["--sync-epoch", "1700000000", "--wall", "200x100", "--viewport", "0,0,100,100"])
        XCTAssertEqual(leader.epoch, 1_700_000_000)
        XCTAssertTrue(leader.playsSound)
        XCTAssertFalse(try settings(["--wall", "200x100", "--viewport", "100,0,100,100"]).playsSound)
        XCTAssertTrue(try settings(["--wall", "200x100", "--viewport", "100,0,100,100", "--sync-audio", "all"]).playsSound)
        XCTAssertFalse(try settings(["--sync-epoch", "0", "--sync-audio", "none"]).playsSound)
        let errors: [([String], String)] = [
            (["--viewport", "0,0,10,10"], "--viewport needs --wall"),
            (["--wall", "20x10"], "--wall needs --viewport"),
            (["--sync-audio", "all"], "--sync-audio goes with"),
            (["--sync-epoch", "5", "--untimed"], "--sync-epoch follows the wall clock"),
            (["--wall", "20x10", "--viewport", "15,0,10,10"], "--viewport: 15,0,10,10 is not inside the 20x10 wall"),
        ]
        for (args, message) in errors {
            XCTAssertThrowsError(try settings(args), "\(args)") {
                XCTAssertTrue("\($0)".hasPrefix(message), "\(args): \($0)")
            }
        }
    }

    /// The test hook's skew: a fixed one, or a step after some seconds.
    func testRealtimeSkew() {
        XCTAssertEqual(RealtimeSkew(parsing: "2.5"), RealtimeSkew(before: 2.5, stepAfter: nil, after: 2.5))
        let step = RealtimeSkew(parsing: "5,3,0")
        XCTAssertEqual(step?.seconds(after: 2.9), 5)
        XCTAssertEqual(step?.seconds(after: 3), 0)
        XCTAssertNil(RealtimeSkew(parsing: "x"))
        XCTAssertNil(RealtimeSkew(parsing: "1,2"))
        XCTAssertNil(RealtimeSkew(parsing: "1,-2,3"))
    }

    /// The slideshow following the timeline: slots numbered from the epoch, started and ended once each, a
    /// transition over the start of a slot when the one before it showed here, none for a late start.
    func testSlideshowFollowsTheTimeline() throws {
        var o = SlideshowOptions()
        o.transition = .crossfade
        o.transitionTime = 0.5
        let show = Slideshow(items: (0..<3).map { PlaylistItem(path: "item\($0)") }, options: o)
        let timeline = try WallTimeline(epoch: epoch, lengths: [2, 2, 2], shuffle: false, seed: 1)
        let ids = show.playlist.ids
        let ready: (ItemID) -> Availability = { _ in .ready(.still) }
        let late = try XCTUnwrap(show.follow(timeline, ids: ids, wall: epoch + 7.2, availability: ready))
        XCTAssertEqual(late.current.sequence, 3)
        XCTAssertEqual(late.current.id, ids[0])
        XCTAssertEqual(late.currentTime, 1.2, accuracy: 1e-6)
        XCTAssertNil(late.outgoing)
        XCTAssertEqual(show.upcoming, ids[1])
        let change = try XCTUnwrap(show.follow(timeline, ids: ids, wall: epoch + 8.25, availability: ready))
        XCTAssertEqual(change.current.sequence, 4)
        XCTAssertEqual(change.outgoing?.sequence, 3)
        XCTAssertEqual(change.progress, 0.5, accuracy: 1e-6)
        show.next()  // commands have no say
        let later = try XCTUnwrap(show.follow(timeline, ids: ids, wall: epoch + 9, availability: ready))
        XCTAssertEqual(later.current.sequence, 4)
        XCTAssertNil(later.outgoing)
        XCTAssertNil(show.follow(timeline, ids: ids, wall: epoch + 10.1, availability: { _ in .pending }))
        XCTAssertEqual(show.upcoming, ids[2])  // the item due is decoded first
        let events = show.takeEvents()
        XCTAssertEqual(events.filter { if case .itemStarted = $0 { return true } else { return false } }.count, 2)
        XCTAssertEqual(events.filter { if case .itemEnded = $0 { return true } else { return false } }.count, 1)
    }
}
