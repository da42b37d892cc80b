import Foundation
import KioskCore
import KioskMedia
import KioskOutput
@testable import KioskPlayer
import KioskRender
import XCTest

/// Commands through the whole player on a virtual clock into a headless canvas, read back as pixels: a command
/// takes effect in the next frame, playlist edits happen mid-transition, an empty playlist idles and starts when
/// items arrive, view commands draw what `snapshot` draws, and only frames that reached the screen count.
final class PlayerCommandTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    private let size = PixelSize(width: 64, height: 36)
    private static let red: (UInt8, UInt8, UInt8, UInt8) = (220, 30, 30, 255)
    private static let green: (UInt8, UInt8, UInt8, UInt8) = (20, 200, 40, 255)
    private static let blue: (UInt8, UInt8, UInt8, UInt8) = (30, 60, 220, 255)

    /// Three one-colour PNGs (red, green, blue) in a fresh folder.
    private func pictures() throws -> (dir: URL, paths: [String]) {
        let dir = try RenderTestSupport.temporaryDirectory()
        var paths: [String] = []
        for (name, fill) in [("red", Self.red), ("green", Self.green), ("blue", Self.blue)] {
            let path = dir.appendingPathComponent("\(name).png").path
            try PNGWriter.write(RGBAImage(size: size, fill: fill), to: path)
            paths.append(path)
        }
        return (dir, paths)
    }

    private func config(duration: Double = 10, transition: TransitionSpec = .none) -> PlayerConfig {
        var c = PlayerConfig()
        c.size = size
        c.slideshow.duration = duration
        c.slideshow.transition = transition
        c.slideshow.transitionTime = 1
        return c
    }

    /// The centre pixel of a frame.
    private func centre(_ image: RGBAImage) -> [Int] {
        RenderTestSupport.pixel(image, size.width / 2, size.height / 2).prefix(3).map(Int.init)
    }

    private func near(_ a: [Int], _ b: [Int], within d: Int = 3) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= d } }

    private func rgb(_ c: (UInt8, UInt8, UInt8, UInt8)) -> [Int] { [Int(c.0), Int(c.1), Int(c.2)] }

    /// Runs `items` for `length` seconds at 10 fps, calling `at` before each frame; returns (time, frame) pairs.
    private func play(_ items: [PlaylistItem], _ config: PlayerConfig, length: Double, idle: Bool = false,
                      events: LockedEvents? = nil,
                      at: @escaping (Player, Double) -> Void) throws -> (frames: [(Double, RGBAImage)], report: PlayReport) {
        let clock = VirtualClock()
        var frames: [(Double, RGBAImage)] = []
        let output = try VirtualTimeOutput(size: size, fps: 10, clock: clock, sink: { frames.append((clock.now, $0)) })
        let player = try Player(items: items, config: config, output: output, clock: clock, log: Log(level: .error),
                                waitForDecodes: true)
        player.keepsRunningWhenEmpty = idle
        if let events { player.observe { events.append($0) } }
        let report = try player.run(length: length, shouldStop: { at(player, clock.now); return false })
        return (frames, report)
    }

    func testACommandTakesEffectInTheNextFrame() throws {
        let (dir, paths) = try pictures()
        defer { try? FileManager.default.removeItem(at: dir) }
        var sent = false
        let run = try play(paths.map { PlaylistItem(path: $0) }, config(), length: 2) { player, t in
            if !sent, t >= 1.0 { player.inbox.send(.next); sent = true }
        }
        let before = try XCTUnwrap(run.frames.last { $0.0 < 0.95 }?.1)
        let after = try XCTUnwrap(run.frames.first { $0.0 >= 0.95 }?.1)
        XCTAssertTrue(near(centre(before), rgb(Self.red)), "\(centre(before))")
        XCTAssertTrue(near(centre(after), rgb(Self.green)), "the frame right after the command: \(centre(after))")
    }

    func testACommandFromAnotherThreadIsAnswered() throws {
        let (dir, paths) = try pictures()
        defer { try? FileManager.default.removeItem(at: dir) }
        let replies = LockedEvents()
        let done = DispatchSemaphore(value: 0)
        let sent = DispatchSemaphore(value: 0)
        var started = false
        let run = try play(paths.map { PlaylistItem(path: $0) }, config(), length: 9, events: replies) { player, t in
            guard !started, t >= 1 else { return }
            started = true
            let inbox = player.inbox
            Thread.detachNewThread {
                inbox.send(.goTo(.id(2))) { replies.reply($0) }
                inbox.send(.remove(.id(7))) { replies.reply($0); done.signal() }
                sent.signal()
            }
            _ = sent.wait(timeout: .now() + 10)   // the loop goes on once the other thread has sent
        }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(replies.replies, [.done(ids: [2]), .failed("no such item: id 7")])
        XCTAssertTrue(replies.events.contains(.itemStarted(2, path: paths[2], sequence: 1)), "\(replies.events)")
        XCTAssertTrue(replies.events.contains(.itemEnded(0, path: paths[0], reason: .skipped)))
        XCTAssertTrue(near(centre(try XCTUnwrap(run.frames.last?.1)), rgb(Self.blue)))
    }

    func testRemovingTheItemOnScreenMidCrossfadeFadesToTheNextOne() throws {
        let (dir, paths) = try pictures()
        defer { try? FileManager.default.removeItem(at: dir) }
        var sent = false
        let run = try play(paths.map { PlaylistItem(path: $0) }, config(duration: 5, transition: .crossfade), length: 8) { player, t in
            if !sent, t >= 5.5 - 1e-9 { player.inbox.send(.remove(.id(1))); sent = true }   // red → green half way
        }
        func frame(at t: Double) -> [Int] { run.frames.first { abs($0.0 - t) < 0.01 }.map { centre($0.1) } ?? [] }
        let mix = { (a: [Int], b: [Int], p: Double) in zip(a, b).map { Int((Double($0) * (1 - p) + Double($1) * p).rounded()) } }
        XCTAssertTrue(near(frame(at: 5.3), mix(rgb(Self.red), rgb(Self.green), 0.3), within: 4), "\(frame(at: 5.3))")
        // at 5.5 the green item is removed: it goes out (the red one with it), the blue one fades in over a new second
        XCTAssertTrue(near(frame(at: 5.5), rgb(Self.green), within: 4), "\(frame(at: 5.5))")
        XCTAssertTrue(near(frame(at: 6.0), mix(rgb(Self.green), rgb(Self.blue), 0.5), within: 4), "\(frame(at: 6.0))")
        XCTAssertTrue(near(frame(at: 7.0), rgb(Self.blue)), "\(frame(at: 7.0))")
    }

    func testAnEmptyPlaylistIdlesOnTheIdleImageAndPlaysWhenItemsArrive() throws {
        let (dir, paths) = try pictures()
        defer { try? FileManager.default.removeItem(at: dir) }
        var c = config()
        c.background = RGBColor(hex: "#102030") ?? .black
        let events = LockedEvents()
        var sent = false
        let bare = try play([], c, length: 3, idle: true, events: events) { player, t in
            if !sent, t >= 2 { player.inbox.send(.load([PlaylistItem(path: paths[0])], .append)); sent = true }
        }
        XCTAssertTrue(near(centre(try XCTUnwrap(bare.frames.first?.1)), [16, 32, 48]), "the background while idle")
        XCTAssertTrue(near(centre(try XCTUnwrap(bare.frames.last?.1)), rgb(Self.red)), "the item once it arrived")
        XCTAssertTrue(events.events.contains(.itemStarted(0, path: paths[0], sequence: 0)))

        c.idleImage = paths[2]
        let pictured = try play([], c, length: 1, idle: true) { _, _ in }
        XCTAssertTrue(near(centre(try XCTUnwrap(pictured.frames.last?.1)), rgb(Self.blue)), "the idle image")
    }

    func testAPlaylistEmptiedByCommandsWaitsForItems() throws {
        let (dir, paths) = try pictures()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = LockedEvents()
        var step = 0
        let run = try play([PlaylistItem(path: paths[0])], config(), length: 3, events: events) { player, t in
            if step == 0, t >= 1 { player.inbox.send(.remove(.position(0))); step = 1 }
            if step == 1, t >= 2 { player.inbox.send(.load([PlaylistItem(path: paths[1])], .replace)); step = 2 }
        }
        XCTAssertEqual(run.report.endTime, 3, accuracy: 0.11, "it did not stop when the playlist became empty")
        XCTAssertTrue(events.events.contains(.idle))
        XCTAssertTrue(events.events.contains(.itemEnded(0, path: paths[0], reason: .removed)))
        XCTAssertTrue(near(centre(try XCTUnwrap(run.frames.first { $0.0 >= 0.95 && $0.0 < 1.95 }?.1)), [0, 0, 0]), "idle: the background")
        XCTAssertTrue(near(centre(try XCTUnwrap(run.frames.last?.1)), rgb(Self.green)))
    }

    func testViewCommandsDrawWhatSnapshotDraws() throws {
        let dir = try RenderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("smooth.png").path
        try PNGWriter.write(try RenderTestSupport.smoothPicture(size: PixelSize(width: 96, height: 54), in: dir), to: path)
        var c = config(duration: 1)
        c.size = PixelSize(width: 96, height: 54)
        var sent = false
        var pausedAt2 = false
        let clock = VirtualClock()
        var frames: [(Double, RGBAImage)] = []
        let output = try VirtualTimeOutput(size: c.size, fps: 10, clock: clock, sink: { frames.append((clock.now, $0)) })
        let player = try Player(items: [PlaylistItem(path: path), PlaylistItem(path: path)], config: c, output: output,
                                clock: clock, log: Log(level: .error), waitForDecodes: true)
        _ = try player.run(length: 2.5, shouldStop: {
            if !sent, clock.now >= 0.3 {
                player.inbox.send(.view(.zoom(2.5)))
                player.inbox.send(.view(.center(x: 0.9, y: 0.5)))
                sent = true
            }
            if clock.now >= 2 { pausedAt2 = player.slideshow.pauseReasons == [.zoomed] }
            return false
        })
        let want = try PlayJob.snapshotImage(input: path, config: c, at: 0,
                                             view: FlatView(zoom: 2.5, center: UnitPoint(x: 0.8, y: 0.5)), log: Log(level: .error))
        let got = try XCTUnwrap(frames.last?.1)
        XCTAssertGreaterThan(RenderTestSupport.psnr(got, want), 40, "zoom 2.5 about x 0.9, clamped to 0.8")
        XCTAssertTrue(pausedAt2, "zoomed in by a command: the slideshow holds the item (reason: zoomed)")
        XCTAssertEqual(player.slideshow.currentID, 0)
    }

    func testOnlyFramesThatReachedTheScreenCount() throws {
        let (dir, paths) = try pictures()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clock = VirtualClock()
        let inner = try VirtualTimeOutput(size: size, fps: 10, clock: clock, sink: nil)
        let output = HalfShownOutput(inner)
        var c = config(duration: 0.5, transition: .crossfade)
        c.slideshow.transitionTime = 0.3
        let player = try Player(items: paths.map { PlaylistItem(path: $0) }, config: c, output: output, clock: clock,
                                log: Log(level: .error), waitForDecodes: true)
        let report = try player.run(length: 3)
        XCTAssertEqual(report.framesPresented, output.shown)
        XCTAssertEqual(output.shown, (output.presented + 1) / 2, "every other frame was pending")
        XCTAssertGreaterThan(output.shown, 5)
    }

    func testClipOwnersAreForgottenWithTheCache() throws {
        let dir = try TempDir()
        let clips = try (0..<3).map { try VideoPlayerTests.clip(dir, "c\($0).mp4", seconds: 0.5) }
        var c = config(duration: 5)
        c.size = PixelSize(width: 64, height: 48)
        let clock = VirtualClock()
        let output = try VirtualTimeOutput(size: c.size, fps: 10, clock: clock, sink: nil)
        let player = try Player(items: clips.map { PlaylistItem(path: $0) }, config: c, output: output, clock: clock,
                                log: Log(level: .error), waitForDecodes: true)
        var most = 0
        let report = try player.run(length: 4.6, shouldStop: {
            most = max(most, player.screen.composer?.rememberedClips ?? 0)
            return false
        })
        XCTAssertGreaterThanOrEqual(report.slotsShown, 9, "three passes of three clips")
        XCTAssertLessThanOrEqual(most, 3, "one owner per clip item, however many times the clips were decoded again")
        XCTAssertGreaterThan(most, 0)
    }

    func testAWaitEndsAtOnceOnAWakeupOrAWatchedDescriptor() throws {
        let output = try HeadlessOutput(size: size, pacing: nil)
        let clock = MonotonicClock()
        let signal = output.wakeupSignal
        let start = clock.now
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { signal.raise() }
        output.wait(until: clock.now + 20, on: clock)
        XCTAssertLessThan(clock.now - start, 10, "the wakeup ended a 20 s wait")

        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        output.watch(fds[0])
        let writer = fds[1]
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { var b: UInt8 = 1; _ = write(writer, &b, 1) }
        let again = clock.now
        output.wait(until: clock.now + 20, on: clock)
        XCTAssertLessThan(clock.now - again, 10, "a readable descriptor ended a 20 s wait")

        let inbox = CommandInbox()
        let wakeup = output.wakeupSignal
        inbox.wake { wakeup.raise() }
        var b: UInt8 = 0
        _ = read(fds[0], &b, 1)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { inbox.send(.next) }
        let third = clock.now
        output.wait(until: clock.now + 20, on: clock)
        XCTAssertLessThan(clock.now - third, 10, "a command sent from another thread ended a 20 s wait")
        XCTAssertEqual(inbox.drain().map(\.command), [.next])
    }
    /// A loop producer with fixed commands at fixed player times (what a schedule is to the loop).
    final class TimedProducer: LoopProducer {
        var plan: [(Double, [PlayerCommand])]
        init(_ plan: [(Double, [PlayerCommand])]) { self.plan = plan }
        func turn(at t: Double) -> [PlayerCommand] {
            guard let first = plan.first, t >= first.0 - 1e-9 else { return [] }
            plan.removeFirst()
            return first.1
        }
        var deadline: Double? { plan.first?.0 }
    }

    /// Screen off from a producer at 1 s, on at 2.5 s: a recording gets black frames exactly over that span,
    /// the picture before and after, and nothing is decoded meanwhile.
    func testScreenOffFromAProducerRecordsBlackAndWakesAtItsDeadline() throws {
        let (dir, paths) = try pictures()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clock = VirtualClock()
        var frames: [(Double, RGBAImage)] = []
        let output = try VirtualTimeOutput(size: size, fps: 10, clock: clock, sink: { frames.append((clock.now, $0)) })
        let player = try Player(items: [PlaylistItem(path: paths[0])], config: config(), output: output, clock: clock,
                                log: Log(level: .error), waitForDecodes: true)
        player.producers = [TimedProducer([(1.0, [.screen(on: false)]), (2.5, [.screen(on: true)])])]
        _ = try player.run(length: 4)
        let black = frames.filter { centre($0.1) == [0, 0, 0] }.map(\.0)
        XCTAssertFalse(black.isEmpty, "no black frame")
        XCTAssertEqual(black.first ?? -1, 1.0, accuracy: 1e-6, "off at 1 s exactly")
        XCTAssertEqual(black.last ?? -1, 2.4, accuracy: 1e-6, "the frame at 2.5 s is the picture again")
        for (t, f) in frames where t < 0.95 || t > 2.45 { XCTAssertTrue(near(centre(f), rgb(Self.red)), "at \(t): \(centre(f))") }
        XCTAssertEqual(black.count, frames.filter { $0.0 >= 0.95 && $0.0 <= 2.45 }.count, "every frame in the span is black: \(black)")
    }
}

/// An output that reports every other frame as still pending (a flip that did not complete).
private final class HalfShownOutput: Output {
    let inner: Output
    var presented = 0
    var shown = 0
    init(_ inner: Output) { self.inner = inner }
    var name: String { "half-shown" }
    var context: GLContext { inner.context }
    var size: PixelSize { inner.size }
    var rotation: Rotation { .none }
    var target: RenderTarget { inner.target }
    var needsEveryFrame: Bool { true }
    var wakeupSignal: WakeupSignal { inner.wakeupSignal }
    func present() throws -> PresentResult {
        presented += 1
        let r = try inner.present()
        if presented % 2 == 0 { return .pending }
        shown += 1
        return r
    }
    func wait(until deadline: Double?, on clock: Clock) { inner.wait(until: deadline, on: clock) }
    func watch(_ descriptor: Int32) {}
}

/// Events and replies collected across threads.
final class LockedEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var e: [PlayerEvent] = []
    private var r: [CommandReply] = []
    func append(_ event: PlayerEvent) { lock.lock(); e.append(event); lock.unlock() }
    func reply(_ reply: CommandReply) { lock.lock(); r.append(reply); lock.unlock() }
    var events: [PlayerEvent] { lock.lock(); defer { lock.unlock() }; return e }
    var replies: [CommandReply] { lock.lock(); defer { lock.unlock() }; return r }

}
