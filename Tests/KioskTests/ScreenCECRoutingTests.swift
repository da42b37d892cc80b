import Foundation
@testable import KioskCEC
import KioskCore
import KioskOutput
@testable import KioskPlayer
import XCTest

/// Each screen's TV (issue 40), wired as `kiosk play` wires it (`CECLink`): a controller per screen, on a stand-in
/// TV each, that hears only its screen's power (`Player.observe(screen:)`) and sends its TV's keys and power reports
/// to its screen (`Player.commandSink(forScreen:)`). Screen b going off sends b's TV to standby and not a's; b's
/// TV's remote moves b's slideshow and not a's; each screen's `cec-power` is its own TV's; and the observers hold
/// neither the player nor a screen (the player is freed after the run).
final class ScreenCECRoutingTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    func testEachScreensTVFollowsItsScreenAndItsRemoteDrivesIt() throws {
        let dir = try TempDir()
        let red = try ColourPictures.make(dir, "red.png", "red"), green = try ColourPictures.make(dir, "green.png", "green")
        let blue = try ColourPictures.make(dir, "blue.png", "blue")
        let tvA = StandInTV(power: .on), tvB = StandInTV(power: .on)
        var settings = CECSettings()
        settings.pollInterval = 1
        settings.settle = 0.1
        weak var freed: Player?
        var shown: [String: [String]] = [:]
        var power: [String: TVPower?] = [:]
        var controllers: [CECController] = []
        do {
            var config = PlayerConfig()
            config.size = PixelSize(width: 32, height: 24)
            config.slideshow.duration = 60
            config.slideshow.transitionTime = 0
            let player = Player(screens: [ScreenSetup(name: "a", items: [PlaylistItem(path: red)], config: config),
                                          ScreenSetup(name: "b", items: [PlaylistItem(path: green), PlaylistItem(path: blue)], config: config)],
                                clock: MonotonicClock(), log: Log(level: .error), waitForDecodes: false)
            for index in 0..<2 { try player.attach(try HeadlessOutput(size: config.size, pacing: 30), toScreen: index) }
            for name in player.screenNames {
                player.observe(screen: name) { event in
                    if case .itemStarted(_, let path, _) = event { shown[name, default: []].append((path as NSString).lastPathComponent) }
                }
            }
            for (name, tv) in [("a", tvA), ("b", tvB)] {
                let c = CECController(bus: tv, settings: settings, sink: player.commandSink(forScreen: name), log: Log(level: .error))
                XCTAssertTrue(player.observe(screen: name) { event in if case .screenPower(let on) = event { c.screen(on: on) } })
                c.start(screenOn: player.isScreenOn(screen: name) ?? true)
                controllers.append(c)
            }
            XCTAssertFalse(player.observe(screen: "hall") { _ in }, "no such screen")
            XCTAssertNil(player.isScreenOn(screen: "hall"))
            XCTAssertNil(player.drmConnector(screen: "a"), "a headless canvas has no DRM connector")
            let started = Date()
            var steps = 0
            player.onLoopTurn = { [unowned player] in
                let t = Date().timeIntervalSince(started)
                if steps == 0, t > 0.5 { steps = 1; tvB.says([0x04, 0x44, 0x04]) }  // right, from b's TV
                if steps == 1, t > 1.5 { steps = 2; player.inbox.send(.screen(on: false), toScreen: "b") }
                if steps == 2, t > 3 {
                    steps = 3
                    for name in ["a", "b"] { power[name] = player.board(forScreen: name)?.status.tvPower }
                }
            }
            _ = try player.run(length: 3.5)
            freed = player
        }
        for c in controllers { c.stop() }
        XCTAssertEqual(shown["b"], ["green.png", "blue.png"], "b's TV's right key moved b")
        XCTAssertEqual(shown["a"], ["red.png"], "and not a")
        XCTAssertTrue(tvB.sent.contains { $0.bytes == [0x40, 0x36] }, "<Standby> to b's TV: \(tvB.sent)")
        XCTAssertFalse(tvA.sent.contains { $0.opcode == 0x36 }, "a's TV stays on: \(tvA.sent)")
        XCTAssertEqual(tvA.power, .on)
        XCTAssertEqual(power["b"], .some(.standby), "b's cec-power is its TV's")
        XCTAssertEqual(power["a"], .some(.on), "a's is its own")
        controllers.removeAll()
        XCTAssertNil(freed, "nothing a controller or an observer holds keeps the player")
    }
}
