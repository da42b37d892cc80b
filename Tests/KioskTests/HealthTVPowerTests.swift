import Foundation
import KioskCore
import KioskOutput
@testable import KioskPlayer
import XCTest

/// Each screen's TV power over HDMI-CEC in the health rounds (`tv-power`, subject the screen): the text of each
/// state as the alerts read it, `unknown` with a note without CEC, and, end to end, two headless screens whose TV
/// power reports (the `tvPower` command the CEC link sends) reach the monitor's thread through each screen's board.
final class HealthTVPowerTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    private let time = WallInstant(clamping: Date(timeIntervalSince1970: 1_800_000_000))

    func testEachPowerStateIsItsTextAndNoCECIsUnknownWithANote() {
        for power in TVPower.allCases {
            var status = PlayerStatus()
            status.tvPower = power
            let r = HealthMonitor.tvPower(status, screen: "hall", at: time)
            XCTAssertEqual(r.name, "tv-power")
            XCTAssertEqual(r.subject, "hall")
            XCTAssertEqual(r.text, power.rawValue)
            XCTAssertNil(r.note)
            XCTAssertEqual(r.unit, "")
        }
        XCTAssertEqual(TVPower.allCases.map(\.rawValue), ["on", "standby", "to-on", "to-standby", "unknown"])
        let none = HealthMonitor.tvPower(PlayerStatus(), screen: "main", at: time)
        XCTAssertEqual(none.text, "unknown")
        XCTAssertEqual(none.note, "no CEC: --cec off, or no adapter")
        XCTAssertEqual(none.json.text,
                       #"{"name":"tv-power","subject":"main","value":"unknown","unit":"","time":"2027-01-15T08:00:00Z","note":"no CEC: --cec off, or no adapter"}"#)
    }

    func testTheRoundsReadEachScreensTVPowerFromItsBoard() throws {
        let dir = try TempDir()
        let red = try ColourPictures.make(dir, "red.png", "red"), green = try ColourPictures.make(dir, "green.png", "green")
        var settings = HealthMonitor.Settings()
        settings.interval = 0.2
        let monitor = HealthMonitor(settings: settings, log: Log(level: .error))
        defer { monitor.stop() }
        var config = PlayerConfig()
        config.size = PixelSize(width: 32, height: 24)
        config.slideshow.duration = 60
        config.slideshow.transitionTime = 0
        var seen: [String: [String]] = [:]  // per step: a's and b's tv-power texts as the monitor read them
        weak var freed: Player?
        do {
            let player = Player(screens: [ScreenSetup(name: "a", items: [PlaylistItem(path: red)], config: config),
                                          ScreenSetup(name: "b", items: [PlaylistItem(path: green)], config: config)],
                                clock: MonotonicClock(), log: Log(level: .error), waitForDecodes: false)
            for index in 0..<2 { try player.attach(try HeadlessOutput(size: config.size, pacing: 30), toScreen: index) }
            monitor.start(player)
            let started = Date()
            var step = 0
            player.onLoopTurn = { [unowned player] in
                // each step waits for the monitor's next rounds to see the change (a loaded machine: up to 6 s)
                let t = Date().timeIntervalSince(started)
                let texts = ["a", "b"].map { monitor.report?.reading("tv-power", subject: $0)?.text ?? "-" }
                if step == 0, monitor.report != nil {
                    step = 1
                    seen["before"] = texts
                    player.inbox.send(.tvPower(.on), toScreen: "a")
                    player.inbox.send(.tvPower(.standby), toScreen: "b")
                } else if step == 1, texts == ["on", "standby"] || t > 6 {
                    step = 2
                    seen["after"] = texts
                    player.inbox.send(.tvPower(.toOn), toScreen: "b")
                } else if step == 2, texts[1] != "standby" || t > 12 {
                    step = 3
                    seen["later"] = texts
                    player.inbox.send(.quit)
                }
            }
            _ = try player.run(length: 15)
            freed = player
        }
        XCTAssertEqual(seen["before"], ["unknown", "unknown"], "no CEC link yet: unknown")
        XCTAssertEqual(seen["after"], ["on", "standby"], "each screen its own TV's")
        XCTAssertEqual(seen["later"], ["on", "to-on"])
        XCTAssertNil(freed, "the monitor holds neither the player nor its screens")
    }
}
