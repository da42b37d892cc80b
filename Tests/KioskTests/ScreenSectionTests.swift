import KioskCore
import XCTest

/// `[screen NAME]` sections of a config file (issue 40): read as the global lines are, each screen's options the
/// global ones with its section's on top, and every line that cannot stand there one `FILE:LINE: reason`.
final class ScreenSectionTests: XCTestCase {
    /// The screens of a config text given as `--config k.conf` after `args`.
    private func plans(_ text: String, _ args: [String] = []) throws -> [ScreenPlan] {
        let expanded = try ConfigFile.expandScreens(args + ["--config", "k.conf"], read: { $0 == "k.conf" ? text : nil })
        return try ScreenPlans.resolve(arguments: expanded.args, origins: expanded.origins, sections: expanded.sections)
    }

    /// Every problem `text` has, as check-config finds them: the lines read, then the screens resolved.
    private func problems(_ text: String) -> [String] {
        var unread: [UsageError] = []
        let document = ConfigFile.document(from: text, file: "k.conf", problems: &unread)
        let args = document.global.map(\.argument), origins: [String?] = document.global.map(\.origin)
        return (unread + ScreenPlans.check(arguments: args, origins: origins, sections: document.sections).problems).map(\.message)
    }

    private let twoScreens = """
    duration = 5
    shuffle = true
    clock = %H:%M
    caption = {title}
    screen = lobby:HDMI-A-1:/srv/lobby
    screen = wall:DP-1+DP-2:

    [screen lobby]
    duration = 8
    shuffle = false
    rotate = 90
    [screen wall]
    path = /srv/wall
    clock = off
    caption = {filename}
    loop = false
    """

    func testASectionOverridesAndInheritsTheGlobalOptions() throws {
        let plans = try plans(twoScreens, ["--fit", "cover"])
        XCTAssertEqual(plans.map(\.name), ["lobby", "wall"])
        let lobby = plans[0], wall = plans[1]
        XCTAssertEqual(lobby.config.slideshow.duration, 8, "the section wins")
        XCTAssertEqual(wall.config.slideshow.duration, 5, "the global line stands")
        XCTAssertFalse(lobby.config.slideshow.shuffle, "shuffle = false unsets the global flag")
        XCTAssertTrue(wall.config.slideshow.shuffle)
        XCTAssertEqual(lobby.options.string("rotate"), "90")
        XCTAssertNil(wall.options.string("rotate"))
        XCTAssertEqual(lobby.config.fit, .cover, "the command line's options reach every screen")
        XCTAssertEqual(wall.config.fit, .cover)
        XCTAssertEqual(lobby.options.string("clock"), "%H:%M")
        XCTAssertNil(wall.options.string("clock"), "clock = off: the wall has none")
        XCTAssertEqual(wall.options.all("caption"), ["{filename}"])
        XCTAssertEqual(lobby.options.all("caption"), ["{title}"])
        XCTAssertFalse(wall.config.slideshow.loop, "loop = false: no loop")
        XCTAssertTrue(lobby.config.slideshow.loop)
        XCTAssertEqual(wall.sources, ["/srv/wall"])
        XCTAssertEqual(lobby.changes.map(\.text), ["rotate = 90 (global off)", "duration = 8 (global 5)", "shuffle = off (global on)"])
        XCTAssertEqual(lobby.changes.map(\.origin), ["k.conf:11", "k.conf:9", "k.conf:10"])
        XCTAssertEqual(wall.changes.map(\.name), ["no-loop", "caption", "clock"])
        XCTAssertEqual(lobby.origin, "k.conf:5")
        XCTAssertEqual(lobby.section, "k.conf:8")
        XCTAssertEqual(lobby.label, "k.conf:5: --screen lobby")
    }

    func testTheSectionWinsOverTheCommandLineAndLoopPairs() throws {
        let text = "screen = a:HDMI-A-1:/srv/a\nscreen = b:HDMI-A-2:/srv/b\n[screen a]\nloop = true\nduration = 2\n"
        let plans = try plans(text, ["--no-loop", "--duration", "9"])
        XCTAssertTrue(plans[0].config.slideshow.loop, "loop = true drops the global --no-loop (no contradiction)")
        XCTAssertEqual(plans[0].config.slideshow.duration, 2)
        XCTAssertFalse(plans[1].config.slideshow.loop)
        XCTAssertEqual(plans[1].config.slideshow.duration, 9)
    }

    func testProcessOnlyOptionsAreRefusedAtTheirLine() {
        let text = "screen = a:HDMI-A-1:/srv/a\n[screen a]\nduration = 3\noutput = headless\ninput-ipc-server = auto\n"
            + "drm-connector = HDMI-A-2\nscreen = b:DP-1:x\nmqtt = tcp://broker:1883\ndecode-threads = 2\n"
        let found = problems(text)
        XCTAssertEqual(found, [
            "k.conf:4: 'output' applies to the whole player, not to one screen (move it above the first [screen] section)",
            "k.conf:5: 'input-ipc-server' applies to the whole player, not to one screen (move it above the first [screen] section)",
            "k.conf:6: 'drm-connector' does not go in a [screen] section: a screen's connectors are in its --screen line",
            "k.conf:7: 'screen' applies to the whole player, not to one screen (move it above the first [screen] section)",
            "k.conf:8: 'mqtt' applies to the whole player, not to one screen (move it above the first [screen] section)",
            "k.conf:9: 'decode-threads' applies to the whole player, not to one screen (move it above the first [screen] section)",
        ])
        XCTAssertThrowsError(try plans(text)) { e in XCTAssertTrue("\(e)".hasPrefix("k.conf:4: 'output' applies"), "\(e)") }
    }

    func testBadValuesAndUnknownNamesInASectionAreLocated() {
        let found = problems("screen = a:HDMI-A-1:/srv/a\n[screen a]\nduration = -1\nbogus = 2\nvolume = loud\nwall = 3840x1080\n")
        guard found.count == 4 else { return XCTFail("\(found)") }
        XCTAssertTrue(found[0].hasPrefix("k.conf:3: --duration: -1 is out of range"), "\(found)")
        XCTAssertTrue(found[1].hasPrefix("k.conf:4: play: unknown option '--bogus'"), "\(found)")
        XCTAssertTrue(found[2].hasPrefix("k.conf:5: --volume: 'loud'"), "\(found)")
        XCTAssertTrue(found[3].hasPrefix("k.conf:6: --wall needs --viewport"), "the resolved config's error, at the section's line: \(found)")
    }

    func testASectionNoScreenNamesAndOtherHeadersAreRefused() throws {
        XCTAssertEqual(problems("screen = a:HDMI-A-1:/srv/a\n[screen b]\nduration = 3\n"),
                       ["k.conf:2: [screen b]: no --screen or 'screen =' line names screen 'b'"])
        XCTAssertEqual(problems("duration = 3\n[screen b]\n"), ["k.conf:2: [screen b]: no --screen or 'screen =' line names screen 'b'"],
                       "a section without any screen")
        XCTAssertEqual(problems("[general]\nduration = 3\n"),
                       ["k.conf:1: expected 'name = value', got '[general]' (the only section is [screen NAME])"])
        XCTAssertEqual(problems("screen = a:HDMI-A-1:/srv/a\n[screen a]\n[screen a]\n"),
                       ["k.conf:3: a second [screen a] section (the first is at k.conf:2)"])
        let bad = problems("screen = a:HDMI-A-1:/srv/a\n[screen A]\noutput = headless\n[screen]\n")
        guard bad.count == 3 else { return XCTFail("\(bad)") }
        XCTAssertTrue(bad[0].hasPrefix("k.conf:2: '[screen A]': a screen NAME is"), "\(bad)")
        XCTAssertTrue(bad[1].hasPrefix("k.conf:3: 'output' applies to the whole player"), "a bad header's lines are still section lines: \(bad)")
        XCTAssertTrue(bad[2].hasPrefix("k.conf:4: '[screen]': a screen NAME is"), "\(bad)")
        // outside play and check-config a section is one line, not silently dropped
        XCTAssertThrowsError(try ConfigFile.expandLocated(["--config", "k.conf"], read: { _ in "duration = 2\n[screen a]\n" })) { e in
            XCTAssertEqual("\(e)", "k.conf:2: [screen a] sections are read by kiosk play, record, snapshot and check-config only")
        }
    }

    func testCRLFFilesAndCommentsReadTheSame() throws {
        let crlf = twoScreens.replacingOccurrences(of: "\n", with: "\r\n").replacingOccurrences(of: "[screen wall]", with: "[screen wall]  # the wall")
        let a = try plans(twoScreens), b = try plans(crlf)
        XCTAssertEqual(a.map(\.arguments), b.map(\.arguments))
        XCTAssertEqual(b.map(\.section), ["k.conf:8", "k.conf:12"])
        XCTAssertEqual(b[1].sources, ["/srv/wall"], "no carriage return left on a path")
    }

    func testEveryPerScreenNameIsAPlayOption() {
        let play = Set(CommandSpecs.play.map(\.name))
        for name in ScreenOptions.perScreen { XCTAssertTrue(play.contains(name), "'\(name)' is not an option of kiosk play") }
        XCTAssertEqual(Set(ScreenOptions.perScreen).count, ScreenOptions.perScreen.count, "each name once")
        for processOnly in ["output", "drm-device", "drm-connector", "screen", "decode-timeout", "max-pixels", "media-root",
                            "input-ipc-server", "mqtt", "http", "state-dir", "play-log", "seat", "video-convert", "content-bundle"] {
            XCTAssertFalse(ScreenOptions.isPerScreen(processOnly), processOnly)
        }
    }
}
