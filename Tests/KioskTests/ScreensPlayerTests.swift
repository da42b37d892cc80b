import Foundation
import KioskCore
import KioskMedia
import KioskOutput
@testable import KioskPlayer
import KioskRender
import XCTest

/// One player driving two screens in one loop, each with its own headless output (its own canvas size, GL context
/// and FBO), playlist, options and clock-driven slots: each shows what `kiosk snapshot` makes of its own item at its
/// own size; a screen of short slots moves on while the other holds its long one; a command naming no screen goes to
/// the first, and the second plays on unpaused; one loop serves both (every turn both screens take theirs).
final class ScreensPlayerTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    func testTwoScreensEachShowTheirOwnInOneLoop() throws {
        let dir = try TempDir()
        // photo-like pictures made by ffmpeg (gradients with detail), one per screen, and a second for screen b
        var pictures: [String] = []
        for (name, source) in [("a.png", "testsrc2=size=320x180"), ("b1.png", "mandelbrot=size=240x240"),
                               ("b2.png", "smptehdbars=size=240x240")] {
            let path = dir.file(name)
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", source, "-frames:v", "1", path])
            pictures.append(path)
        }
        var a = PlayerConfig()
        a.size = PixelSize(width: 96, height: 54)
        a.slideshow.duration = 30
        var b = PlayerConfig()
        b.size = PixelSize(width: 64, height: 64)
        b.slideshow.duration = 0.4
        b.slideshow.transitionTime = 0
        b.background = RGBColor(red: 0.2, green: 0, blue: 0)
        let player = Player(screens: [ScreenSetup(name: "a", items: [PlaylistItem(path: pictures[0])], config: a),
                                      ScreenSetup(name: "lobby", items: [PlaylistItem(path: pictures[1]), PlaylistItem(path: pictures[2])],
                                                  config: b)],
                            clock: MonotonicClock(), log: Log(level: .error), waitForDecodes: false)
        let outputA = try HeadlessOutput(size: a.size, pacing: 30)
        try player.attach(outputA, toScreen: 0)
        let outputB = try HeadlessOutput(size: b.size, pacing: 30)
        try player.attach(outputB, toScreen: 1)
        XCTAssertEqual(player.screenNames, ["a", "lobby"])
        var shown: [String: [String]] = [:]
        for screen in player.screens {
            let name = screen.name  // not the screen itself: its own observer holding it would keep it (and its GL objects) alive
            screen.events.observe { event in
                if case .itemStarted(_, let path, _) = event { shown[name, default: []].append((path as NSString).lastPathComponent) }
            }
        }
        var turns = 0
        var lastB: RGBAImage?
        var beforePause: RGBAImage?
        var paused: (a: Set<PauseReason>, b: Set<PauseReason>)?
        player.onLoopTurn = { turns += 1 }
        _ = try player.run(length: 2.3, shouldStop: {
            if beforePause == nil, player.screen.clock.now > 0.8 { beforePause = try? outputA.readPixels() }
            if paused == nil, player.screen.clock.now > 1 {
                player.execute(.pause(.user), at: player.screen.clock.now)
                paused = (player.screens[0].show.pauseReasons, player.screens[1].show.pauseReasons)
            }
            // screen b's item at the end: read while it shows (its frame on the FBO is the last one drawn)
            if player.screen.clock.now > 2.1, lastB == nil { lastB = try? outputB.readPixels() }
            return false
        })
        XCTAssertEqual(shown["a"], ["a.png"], "screen a holds its 30 s slot")
        let bShown = try XCTUnwrap(shown["lobby"])
        XCTAssertGreaterThanOrEqual(bShown.count, 4, "0.4 s slots for 2.3 s, pause or not: \(bShown)")
        XCTAssertEqual(Array(bShown.prefix(2)), ["b1.png", "b2.png"])
        XCTAssertEqual(paused?.a, [.user], "a command naming no screen goes to the first")
        XCTAssertEqual(paused?.b, [], "the other screen plays on")
        XCTAssertGreaterThanOrEqual(turns, 20, "one loop, paced at 30 fps, served both for 2.3 s")
        // each screen's FBO against the snapshot of its own item with its own options (a real, independent path:
        // PlayJob.snapshotImage decodes and draws the one picture on its own context)
        let wantA = try PlayJob.snapshotImage(input: pictures[0], config: a, at: 0, view: FlatView(), log: Log(level: .error))
        XCTAssertEqual(wantA.size, a.size)
        // (before the pause: a paused screen shows the pause sign over it)
        XCTAssertGreaterThan(RenderTestSupport.psnr(try XCTUnwrap(beforePause), wantA), 40, "screen a shows its own picture at 96x54")
        let gotB = try XCTUnwrap(lastB)
        XCTAssertEqual(gotB.size, b.size)
        let candidates = try [pictures[1], pictures[2]].map {
            try PlayJob.snapshotImage(input: $0, config: b, at: 0, view: FlatView(), log: Log(level: .error))
        }
        let best = candidates.map { RenderTestSupport.psnr(gotB, $0) }.max() ?? 0
        XCTAssertGreaterThan(best, 40, "screen lobby shows one of its own pictures at 64x64")
        let aOnB = try PlayJob.snapshotImage(input: pictures[0], config: b, at: 0, view: FlatView(), log: Log(level: .error))
        XCTAssertLessThan(RenderTestSupport.psnr(gotB, aOnB), 25, "not screen a's picture")
    }

    /// Sound with several screens: the first screen is heard on the player's device; a screen on the same device is
    /// silent (two clips would fight for it); a screen whose section names a device of its own is heard there.
    /// ALSA's `null` PCM (alsa-lib's own plugin, no card needed) stands in for the devices.
    func testEachScreenIsHeardOnItsOwnDeviceOrIsSilent() throws {
        let dir = try TempDir()
        let clip = dir.file("clip.mp4")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x36:rate=10", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                              "-t", "3", "-c:v", "libx264", "-c:a", "aac", "-shortest", clip])
        var config = PlayerConfig()
        config.size = PixelSize(width: 64, height: 36)
        config.audio.device = "null"
        var own = config
        own.audio.device = "plug:null"
        let player = Player(screens: [ScreenSetup(name: "a", items: [PlaylistItem(path: clip)], config: config),
                                      ScreenSetup(name: "b", items: [PlaylistItem(path: clip)], config: config),
                                      ScreenSetup(name: "c", items: [PlaylistItem(path: clip)], config: own)],
                            clock: MonotonicClock(), log: Log(level: .error), waitForDecodes: false)
        var shared: GLContext?
        for i in 0..<3 {
            let output = try HeadlessOutput(size: config.size, pacing: 30, sharing: shared)
            shared = output.context
            try player.attach(output, toScreen: i)
        }
        XCTAssertTrue(player.screens[0].sound === player.services.sound, "the first screen: the player's device")
        XCTAssertFalse(player.screens[1].sound === player.screens[0].sound, "never one sound for two screens")
        var heard: [Bool]?
        _ = try player.run(length: 1.5, shouldStop: {
            if heard == nil, player.screen.clock.now > 1 {
                heard = player.screens.map { s in s.show.currentSlot.map { s.sound.isPlaying($0.sequence) } ?? false }
            }
            return false
        })
        XCTAssertEqual(heard, [true, false, true], "a heard on the player's device, b silent beside it, c on its own")
        XCTAssertEqual(player.screens.map(\.hearsSound), [true, false, true])
    }

    /// One decode per medium (issue 40): a still on two screens decoded the same way is decoded once and handed to
    /// the other; a screen of another size decodes its own; a clip is each screen's own.
    func testAStillOnTwoScreensIsDecodedOnce() throws {
        let dir = try TempDir()
        let still = dir.file("still.png"), clip = dir.file("clip.mp4")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x180", "-frames:v", "1", still])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x36:rate=10", "-t", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p", clip])
        var config = PlayerConfig()
        config.size = PixelSize(width: 64, height: 36)
        config.slideshow.duration = 30
        var other = config
        other.size = PixelSize(width: 48, height: 48)
        final class Count: @unchecked Sendable {
            let lock = NSLock()
            var byPath: [String: Int] = [:]
            func add(_ path: String) { lock.lock(); byPath[(path as NSString).lastPathComponent, default: 0] += 1; lock.unlock() }
        }
        let count = Count()
        let real = Player.decoder(for: config)
        let player = Player(screens: [ScreenSetup(name: "a", items: [PlaylistItem(path: still), PlaylistItem(path: clip)], config: config),
                                      ScreenSetup(name: "b", items: [PlaylistItem(path: still), PlaylistItem(path: clip)], config: config),
                                      ScreenSetup(name: "c", items: [PlaylistItem(path: still)], config: other)],
                            clock: VirtualClock(), log: Log(level: .error), waitForDecodes: true,
                            decode: { item in count.add(item.path); return try real(item) })
        var shared: GLContext?
        for (i, size) in [config.size, config.size, other.size].enumerated() {
            let output = try HeadlessOutput(size: size, pacing: nil, sharing: shared)
            shared = output.context
            try player.attach(output, toScreen: i)
        }
        for s in player.screens {
            for entry in s.show.playlist.entries {
                s.cache.request(entry.id)
                s.cache.wait(for: entry.id)
            }
        }
        count.lock.lock()
        let byPath = count.byPath
        count.lock.unlock()
        XCTAssertEqual(byPath["still.png"], 2, "screens a and b share one decode; c, at another size, has its own")
        XCTAssertEqual(byPath["clip.mp4"], 2, "a clip is each screen's own")
        for s in player.screens {
            for entry in s.show.playlist.entries { XCTAssertNotNil(s.cache.item(entry.id), "\(s.name) has \(entry.item.path)") }
        }
    }

    /// Input acts on its own screen: a key pressed on screen b's device steps b's playlist, not a's (the commands
    /// input makes are addressed to the screen that read them).
    func testAScreensInputStepsThatScreenAlone() throws {
        let dir = try TempDir()
        var pictures: [String] = []
        for colour in ["red", "green", "blue"] {
            let path = dir.file("\(colour).png")
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=\(colour):s=32x18", "-frames:v", "1", path])
            pictures.append(path)
        }
        var config = PlayerConfig()
        config.size = PixelSize(width: 32, height: 18)
        config.slideshow.duration = 30
        config.slideshow.transitionTime = 0
        let clock = VirtualClock()
        let items = pictures.map { PlaylistItem(path: $0) }
        let player = Player(screens: [ScreenSetup(name: "a", items: items, config: config), ScreenSetup(name: "b", items: items, config: config)],
                            clock: clock, log: Log(level: .error), waitForDecodes: true)
        try player.attach(try VirtualTimeOutput(size: config.size, fps: 10, clock: clock, sink: nil), toScreen: 0)
        try player.attach(try HeadlessOutput(size: config.size, pacing: nil), toScreen: 1)
        let right = KeyCode.byName["KEY_RIGHT"] ?? -1
        let source = ScriptedDeviceSource(clock: clock, events: [.key(code: right, pressed: true, time: 0.5), .key(code: right, pressed: false, time: 0.52)])
        player.screens[1].interaction = InteractionController(source: source, settings: InteractionSettings(), canvas: config.size,
                                                              rotation: .none, log: Log(level: .error))
        _ = try player.run(length: 1.5)
        XCTAssertEqual(player.screens[0].show.currentID?.value, 0, "a did not move")
        XCTAssertEqual(player.screens[1].show.currentID?.value, 1, "b's key stepped b")
    }
}
