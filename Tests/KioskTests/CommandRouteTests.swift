import Foundation
import KioskCore
import KioskMedia
import KioskOutput
@testable import KioskPlayer
import KioskRender
import XCTest

/// Every `PlayerCommand` has one owner (`PlayerCommand.route`), and a playing player runs each through that owner:
/// no command falls through to a reply saying nobody runs it.
final class CommandRouteTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    /// One command of each case, with the owner it must have (`quit` last: it ends the run).
    private func everyCommand(screenshot: String) -> [(PlayerCommand, String)] {
        [(.next, "playlist"), (.previous, "playlist"), (.goTo(.position(0)), "playlist"), (.pause(.user), "playlist"),
         (.resume(.user), "playlist"), (.togglePause(.remote), "playlist"), (.restartTimer, "playlist"),
         (.load([PlaylistItem(path: "/nonexistent/x.png")], .append), "playlist"), (.remove(.position(2)), "playlist"),
         (.removeMany([.position(2)]), "playlist"), (.move(.position(0), to: 1), "playlist"), (.shuffle(false), "playlist"),
         (.loop(true), "playlist"), (.imageDuration(2), "playlist"), (.transition(.crossfade, seconds: 0.5), "playlist"),
         (.region(nil, .next), "layout"), (.trigger(.notify("x")), "layout"), (.volume(.set(50)), "sound"),
         (.seek(0.1, relative: false), "seek"), (.view(.zoom(1.5)), "view"), (.view(.reset), "view"),
         (.effect(nil), "effect"), (.toggleEffect, "effect"), (.effectSplit(0.5), "effect"),
         (.overlay(.toggleInfo), "overlays"), (.showText("hello", seconds: 1, level: 1), "overlays"), (.showProgress, "overlays"),
         (.key(code: 57), "key"), (.grid(.open), "grid"), (.grid(.close), "grid"), (.alert(AlertRequest(text: "fire")), "alert"),
         (.alert(.clear), "alert"), (.screen(on: true), "display"), (.tvPower(.on), "display"),
         (.screenshot(path: screenshot), "display"), (.checkContent, "content"), (.loadContent(url: "http://127.0.0.1:9/i.smil"), "content"),
         (.clear(keepCurrent: true), "playlist"), (.stopPlayback, "playlist"), (.quit, "quit")]
    }

    private static func owner(_ route: CommandRoute) -> String {
        switch route {
        case .playlist: "playlist"
        case .layout: "layout"
        case .sound: "sound"
        case .seek: "seek"
        case .view: "view"
        case .effect: "effect"
        case .overlays: "overlays"
        case .key: "key"
        case .grid: "grid"
        case .alert: "alert"
        case .display: "display"
        case .content: "content"
        case .quit: "quit"
        }
    }

    func testEachCommandHasItsOwner() {
        for (command, owner) in everyCommand(screenshot: "/tmp/x.png") {
            XCTAssertEqual(Self.owner(command.route), owner, "\(command)")
        }
        XCTAssertEqual(PlayerCommand.effectSplit(0.25).route, .effect(.split(0.25)), "the owner gets what it needs of the command")
        XCTAssertEqual(PlayerCommand.screen(on: false).route, .display(.power(on: false)))
        XCTAssertEqual(PlayerCommand.loadContent(url: "https://a/b").route, .content(.load(url: "https://a/b")))
    }

    /// A playing player answers every command through its owner, on its own thread: the playlist's edits change
    /// the playlist, the overlays' text is on screen, a screenshot is written, `quit` ends the run; those that
    /// cannot run here say why in their owner's words (no layout plays, no content from a server).
    func testAPlayingPlayerRunsEveryCommandThroughItsOwner() throws {
        let dir = try RenderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let size = PixelSize(width: 64, height: 36)
        var paths: [String] = []
        for (n, fill) in [(20, 200, 40, 255), (200, 20, 40, 255), (40, 20, 200, 255)].enumerated() as EnumeratedSequence<[(UInt8, UInt8, UInt8, UInt8)]> {
            let path = dir.appendingPathComponent("\(n).png").path
            try PNGWriter.write(RGBAImage(size: size, fill: fill), to: path)
            paths.append(path)
        }
        var config = PlayerConfig()
        config.size = size
        config.slideshow.duration = 1
        config.slideshow.transition = .none
        let clock = VirtualClock()
        let output = try VirtualTimeOutput(size: size, fps: 10, clock: clock, sink: { _ in })
        let player = try Player(items: paths.map { PlaylistItem(path: $0) }, config: config, output: output, clock: clock,
                                log: Log(level: .error), waitForDecodes: true)
        let shot = dir.appendingPathComponent("shot.png").path
        var pending = everyCommand(screenshot: shot)
        var replies: [(PlayerCommand, CommandReply)] = []
        _ = try player.run(length: 30, shouldStop: {
            guard clock.now >= 0.5, let (command, _) = pending.first else { return false }
            pending.removeFirst()
            replies.append((command, player.execute(command, at: clock.now)))
            return false
        })
        XCTAssertTrue(pending.isEmpty, "quit ended the run after every command")
        XCTAssertEqual(replies.last?.0, .quit)
        XCTAssertLessThan(clock.now, 30, "quit ended the run")
        for (command, reply) in replies {
            guard case .failed(let why) = reply else { continue }
            switch command {
            case .trigger: XCTAssertTrue(why.hasPrefix("no layout is playing"), why)
            case .checkContent, .loadContent: XCTAssertTrue(why.contains("content"), "\(command): \(why)")
            case .remove, .removeMany: XCTAssertTrue(why.hasPrefix("no such item"), why)  // removed once already
            default: XCTFail("\(command) failed: \(why)")
            }
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: shot), "the display's screenshot was written")
        XCTAssertEqual(player.slideshow.playlist.count, 1, "clear kept the item on screen only")
    }
}
