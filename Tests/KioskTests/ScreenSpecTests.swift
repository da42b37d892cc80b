import KioskCore
import XCTest

/// `--screen NAME:CONNECTORS:SOURCE` (issue 40) as `ScreenPlans` reads it from a `kiosk play` command line: the
/// spec's three parts, the connector kinds, and each way a command line can be wrong, as one line.
final class ScreenSpecTests: XCTestCase {
    /// The plans of a command line with no config file.
    private func plans(_ args: [String]) throws -> [ScreenPlan] {
        try ScreenPlans.resolve(arguments: args, origins: args.map { _ in nil }, sections: [])
    }

    /// The one line a bad command line gives ("" when it resolved).
    private func problem(_ args: [String]) -> String {
        do {
            _ = try plans(args)
            return ""
        } catch {
            return "\(error)"
        }
    }

    func testTheSourceKeepsItsColons() throws {
        let spec = try ScreenSpec.parse("a:HDMI-A-1:http://cms:8080/x.smil?at=10:00")
        XCTAssertEqual(spec.name, "a")
        XCTAssertEqual(spec.connectors, .single("HDMI-A-1"))
        XCTAssertEqual(spec.source, "http://cms:8080/x.smil?at=10:00")
        let plan = try XCTUnwrap(try plans(["--screen", "a:HDMI-A-1:http://cms/x.smil"]).first)
        XCTAssertEqual(plan.sources, ["http://cms/x.smil"])
        XCTAssertEqual(plan.options.positional, ["http://cms/x.smil"], "the source is the screen's play path")
        XCTAssertNil(try ScreenSpec.parse("a:HDMI-A-1:").source, "an empty SOURCE is none")
    }

    func testANameKeepsTheRule() throws {
        for good in ["a", "0", "lobby_2", "menu-board", String(repeating: "x", count: 32)] {
            XCTAssertEqual(try ScreenSpec.parse("\(good):HDMI-A-1:x").name, good)
        }
        for bad in ["", "A", "Lobby", "-a", "_a", "a b", "a.b", "ä", String(repeating: "x", count: 33)] {
            XCTAssertThrowsError(try ScreenSpec.parse("\(bad):HDMI-A-1:x"), bad) { e in
                XCTAssertTrue("\(e)".contains("a screen NAME is 1 to 32 of a-z, 0-9, _ and -"), "\(bad): \(e)")
            }
        }
        XCTAssertTrue(problem(["--screen", "a-HDMI-A-1"]).contains("expected NAME:CONNECTORS:SOURCE"))
        XCTAssertTrue(problem(["--screen", "a:HDMI-A-1"]).contains("expected NAME:CONNECTORS:SOURCE"))
    }

    func testASpanAndAMirror() throws {
        XCTAssertEqual(try ScreenSpec.parse("w:DP-1+DP-2+HDMI-A-1:x").connectors, .span(["DP-1", "DP-2", "HDMI-A-1"], bezel: 0))
        XCTAssertEqual(try ScreenSpec.parse("m:DP-1,DP-2:x").connectors, .mirror(["DP-1", "DP-2"]))
        let both = try plans(["--screen", "w:DP-1+DP-2:a.png", "--screen", "m:HDMI-A-1,HDMI-A-2:b.png", "--bezel", "24"])
        XCTAssertEqual(both.map(\.connectors), [.span(["DP-1", "DP-2"], bezel: 24), .mirror(["HDMI-A-1", "HDMI-A-2"])],
                       "--bezel goes to the span only")
        XCTAssertEqual(both.map(\.connectors.description), ["span DP-1+DP-2, bezel 24 px", "mirror HDMI-A-1,HDMI-A-2"])
    }

    func testMixingEmptyAndTwiceNamedConnectorsAreRefused() {
        XCTAssertEqual(problem(["--screen", "a:DP-1+DP-2,DP-3:x"]),
                       "--screen a: 'DP-1+DP-2,DP-3' mixes + (a span) and , (a mirror): a screen is one or the other")
        XCTAssertTrue(problem(["--screen", "a:DP-1+:x"]).hasPrefix("--screen a: an empty connector name"))
        XCTAssertTrue(problem(["--screen", "a::x"]).hasPrefix("--screen a: no connector"))
        XCTAssertEqual(problem(["--screen", "a:DP-1,DP-1:x"]), "--screen a: connector DP-1 is named twice")
        XCTAssertEqual(problem(["--screen", "a:DP-1:x", "--screen", "b:DP-2+DP-1:y"]), "--screen b: connector DP-1 is screen a's already")
        XCTAssertEqual(problem(["--screen", "a:DP-1:x", "--screen", "a:DP-2:y"]), "--screen a: a second screen named a")
    }

    func testAnEmptySourceNeedsSectionPaths() throws {
        XCTAssertEqual(problem(["--screen", "a:HDMI-A-1:"]),
                       "--screen a: no SOURCE, and no 'path =' lines in a [screen a] section (nor a schedule): nothing to play")
        let section = try XCTUnwrap(try ConfigFile.document(from: "[screen a]\npath = /srv/one\npath = /srv/two\n", file: "k.conf")
            .sections.first)
        let plan = try XCTUnwrap(try ScreenPlans.resolve(arguments: ["--screen", "a:HDMI-A-1:"], origins: [nil, nil],
                                                         sections: [section]).first)
        XCTAssertEqual(plan.sources, ["/srv/one", "/srv/two"])
        XCTAssertEqual(plan.options.positional, ["/srv/one", "/srv/two"])
        XCTAssertEqual(plan.section, "k.conf:1")
        // a SOURCE and section paths both: which one plays is not guessed
        XCTAssertThrowsError(try ScreenPlans.resolve(arguments: ["--screen", "a:HDMI-A-1:/srv/x"], origins: [nil, nil],
                                                     sections: [section])) { e in
            XCTAssertTrue("\(e)".hasPrefix("k.conf:2: --screen a gives SOURCE '/srv/x' and its section path lines too"), "\(e)")
        }
    }

    func testBezelRules() throws {
        XCTAssertEqual(problem(["--screen", "a:HDMI-A-1:x", "--bezel", "10"]),
                       "--bezel: no screen is a span (A+B); it is a span's gap between panels")
        XCTAssertEqual(problem(["--bezel", "10"]), "--bezel goes with --screen NAME:A+B:SOURCE (a span)")
        XCTAssertTrue(problem(["--screen", "w:DP-1+DP-2:x", "--bezel", "-1"]).contains("--bezel"), "a negative bezel")
        XCTAssertEqual(try plans(["--screen", "w:DP-1+DP-2:x"]).first?.connectors, .span(["DP-1", "DP-2"], bezel: 0))
        let conf = "[screen a]\nbezel = 8\n[screen w]\nbezel = 40\n"
        let sections = try ConfigFile.document(from: conf, file: "k.conf").sections
        let args = ["--screen", "a:HDMI-A-1:x", "--screen", "w:DP-1+DP-2:y"]
        XCTAssertThrowsError(try ScreenPlans.resolve(arguments: args, origins: args.map { _ in nil }, sections: sections)) { e in
            XCTAssertEqual("\(e)", "k.conf:2: --screen a: bezel is for a span (A+B); a is single HDMI-A-1")
        }
        let spanOnly = try ScreenPlans.resolve(arguments: ["--screen", "w:DP-1+DP-2:y", "--bezel", "12"], origins: [nil, nil, nil, nil],
                                               sections: Array(sections.dropFirst()))
        XCTAssertEqual(spanOnly.first?.connectors, .span(["DP-1", "DP-2"], bezel: 40), "the section's bezel wins over --bezel")
    }

    func testScreenAndDrmConnectorOrPathsDoNotGoTogether() {
        XCTAssertEqual(problem(["--screen", "a:HDMI-A-1:x", "--drm-connector", "HDMI-A-1"]),
                       "--drm-connector and --screen do not go together: use one or the other")
        XCTAssertTrue(problem(["--screen", "a:HDMI-A-1:x", "extra.png"]).hasPrefix("'extra.png' plays on no screen"))
        XCTAssertEqual(problem(["--drm-connector", "HDMI-A-1", "a.png"]), "", "without --screen, play as today")
        XCTAssertTrue((try? plans(["a.png"]))?.isEmpty == true, "no --screen: no plans")
    }

    func testOneScreensArgumentsAreTheGlobalOnesAndItsSource() throws {
        let plan = try XCTUnwrap(try plans(["--duration", "3", "--screen", "a:HDMI-A-1:/srv/a", "--no-loop", "--output", "headless"]).first)
        XCTAssertEqual(plan.config.slideshow.duration, 3)
        XCTAssertFalse(plan.config.slideshow.loop)
        XCTAssertEqual(plan.options.string("output"), "headless", "process options ride along for play to read")
        XCTAssertFalse(plan.arguments.contains("--screen"))
        XCTAssertEqual(plan.arguments.suffix(2), ["--", "/srv/a"])
        XCTAssertEqual(plan.changes, [], "no section: nothing of its own")
        XCTAssertEqual(plan.label, "--screen a")
    }
}
