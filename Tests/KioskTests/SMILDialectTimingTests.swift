import Foundation
import KioskCore
import KioskMedia
import XCTest

/// The timing the signage dialects rely on, checked on timelines worked out by hand: `end` by syncbase and event
/// values (`intro.endEvent`, `x.activateEvent`, `accesskey`), A-SMIL's `__prefetchEnd.endEvent`, daily wallclock
/// windows (`begin` and `end` repeating `P1D`) in a `par` and an `excl` across the spring change to summer time
/// (Europe/Berlin: UTC+1, UTC+2 from 2026-03-29 01:00Z), A-SMIL's day-of-the-week dates, and signageOS's named
/// triggers. Stills last 5 s unless `dur` says otherwise.
final class SMILDialectTimingTests: XCTestCase {
    private let berlin = TimeZone(identifier: "Europe/Berlin") ?? .current

    private func document(_ body: String, head: String = "", file: String = "d.smil") throws -> SMILDocument {
        let text = """
            <smil><head>\(head)<layout><region regionName="main"/><region regionName="side"/></layout></head>
            <body>\(body)</body></smil>
            """
        return try SMILReader.read(try MarkupReader.parse(Array(text.utf8), file: file), file: file)
    }

    private func timeline(_ doc: SMILDocument, start: Date? = nil, days: Double = 2, fired: [SMILFiredEvent] = []) -> SMILTimeline {
        let anchor = start.map { SMILTimeline.WallAnchor(start: $0, zone: berlin, horizon: days * 86_400) }
        return SMILTimeline(document: doc, stillDuration: 5, anchor: anchor, fired: fired) { _ in .still }
    }

    /// Local time in Berlin.
    private func berlinTime(_ year: Int, _ month: Int, _ day: Int, _ hour: Int) throws -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        return try XCTUnwrap(calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour)))
    }

    private let hour = 3600.0

    func testADailyWindowInAParPlaysEachDayAcrossTheChangeToSummerTime() throws {
        // open 09:00-17:00 every day (a region of its own: in a par the medium begun last shows, so a window over
        // a default in one region belongs in an excl, as the next test has it); the layout starts Friday 2026-03-27
        // at 08:00 (CET). Sunday the 29th is 23 hours long: its 09:00 (CEST) is 48 h after the start, not 49
        let doc = try document("""
            <par><img src="ticker" region="side" begin="0s" dur="indefinite"/>
            <par begin="wallclock(R/2026-01-01T09:00/P1D)" end="wallclock(R/2026-01-01T17:00/P1D)">
            <img src="open" region="main" dur="indefinite"/></par></par>
            """)
        let early = timeline(doc, start: try berlinTime(2026, 3, 27, 8), days: 4)
        XCTAssertEqual(early.wallclockProblems, [])
        XCTAssertEqual(LayoutSpans.of(early, "main", until: 90 * hour), [
            "1:00:00-9:00:00 open", "25:00:00-33:00:00 open", "48:00:00-56:00:00 open", "72:00:00-80:00:00 open",
        ])
        // started inside the window (10:00): open at once (an hour into it), until 17:00
        let late = timeline(doc, start: try berlinTime(2026, 3, 27, 10))
        XCTAssertEqual(LayoutSpans.of(late, "main", until: 40 * hour), ["0:00:00-7:00:00 open", "23:00:00-31:00:00 open"])
        XCTAssertEqual(late.byRegion(at: 0)["main"]?.offset ?? 0, hour, accuracy: 1e-6)
    }

    func testDailyWindowsInAnExclAndAnEndThatFollowsOne() throws {
        // mornings 07-11 and days 11-19 take turns in an excl; the strip greets until the morning's window ends
        // (end="morning.endEvent"), and `s` skips the morning (its end list holds accesskey(s))
        let doc = try document("""
            <par><excl>
            <seq id="morning" begin="wallclock(R/2026-01-05T07:00/P1D)" end="wallclock(R/2026-01-05T11:00/P1D); accesskey(s)"
              repeatCount="indefinite"><img src="morning" region="main" dur="10s"/></seq>
            <par begin="wallclock(R/2026-01-05T11:00/P1D)" end="wallclock(R/2026-01-05T19:00/P1D)">
              <img src="day" region="main" dur="indefinite"/></par>
            </excl>
            <img src="hello" region="side" begin="0s" end="morning.endEvent"/></par>
            """)
        let start = try berlinTime(2026, 1, 5, 6)
        let tl = timeline(doc, start: start)
        XCTAssertEqual(LayoutSpans.of(tl, "main", until: 40 * hour), [
            "1:00:00-5:00:00 morning", "5:00:00-13:00:00 day", "25:00:00-29:00:00 morning", "29:00:00-37:00:00 day",
        ])
        XCTAssertEqual(LayoutSpans.of(tl, "side", until: 40 * hour), ["0:00:00-5:00:00 hello"])
        // s at 08:00 (2 h in) ends the morning there, and the greeting with it
        let skipped = timeline(doc, start: start, fired: [SMILFiredEvent(.accessKey("s"), at: 2 * hour)])
        XCTAssertEqual(LayoutSpans.of(skipped, "main", until: 14 * hour), ["1:00:00-2:00:00 morning", "5:00:00-13:00:00 day"])
        XCTAssertEqual(LayoutSpans.of(skipped, "side", until: 14 * hour), ["0:00:00-2:00:00 hello"])
    }

    func testEndsByEndEventsActivateEventsAndKeys() throws {
        // intro is 4 + 3 s; the strip ends with it, the badge 2 s after it; the welcome stays until it is tapped
        let doc = try document("""
            <par><seq id="intro" fill="remove"><img src="a" region="main" dur="4s"/><img src="b" region="main" dur="3s"/></seq>
            <img src="strip" region="side" end="intro.endEvent"/>
            <img id="welcome" src="welcome" region="main" begin="intro.end" end="welcome.activateEvent; accesskey(q)"/></par>
            """)
        let quiet = timeline(doc)
        XCTAssertEqual(LayoutSpans.of(quiet, "side", until: 20), ["0:00:00-0:00:07 strip"])
        XCTAssertEqual(LayoutSpans.of(quiet, "main", until: 20), ["0:00:00-0:00:04 a", "0:00:04-0:00:07 b", "0:00:07-0:00:20 welcome"])
        let tapped = timeline(doc, fired: [SMILFiredEvent(.activate("welcome"), at: 12.5)])
        XCTAssertEqual(LayoutSpans.of(tapped, "main", until: 20), ["0:00:00-0:00:04 a", "0:00:04-0:00:07 b", "0:00:07-0:00:12.5 welcome"])
        let keyed = timeline(doc, fired: [SMILFiredEvent(.accessKey("q"), at: 9)])
        XCTAssertEqual(LayoutSpans.of(keyed, "main", until: 20), ["0:00:00-0:00:04 a", "0:00:04-0:00:07 b", "0:00:07-0:00:09 welcome"])
        XCTAssertEqual(quiet.byRegion(at: 8.9)["main"]?.media.src, "welcome")
        // an end 2 s after another element's end
        let badge = try document("""
            <par><seq id="intro"><img src="a" region="main" dur="4s"/><img src="b" region="main" dur="3s"/></seq>
            <img src="badge" region="side" begin="0s" end="intro.end+2s"/></par>
            """)
        XCTAssertEqual(badge.mediaInDocumentOrder.last?.timing.eventEnds, [SMILEventBegin(.end("intro"), offset: 2)])
        XCTAssertEqual(LayoutSpans.of(timeline(badge), "side", until: 20), ["0:00:00-0:00:09 badge"])
    }

    func testThePrefetchEndIsOverWhenTheLayoutBegins() throws {
        // A-SMIL's pattern: the waiting loop ends at __prefetchEnd.endEvent, the content begins there; kiosk plays
        // an index once all of it is cached, so the waiting loop never shows and the content begins at once (the
        // element with that id, if any, is not waited for)
        let doc = try document("""
            <par><seq end="__prefetchEnd.endEvent"><seq repeatCount="indefinite"><img src="waiting" region="main"/></seq></seq>
            <seq><prefetch src="a"/><prefetch src="b" mediaSize="1000"/><seq id="__prefetchEnd" dur="1s"/></seq>
            <seq begin="__prefetchEnd.endEvent" repeatCount="indefinite"><img src="a" region="main" dur="3s"/>
            <img src="b" region="main" dur="3s"/></seq>
            <img src="late" region="side" begin="__prefetchEnd.endEvent+2s" dur="1s"/></par>
            """)
        XCTAssertEqual(doc.warnings, [], "prefetch and __prefetchEnd are read")
        let tl = timeline(doc)
        XCTAssertEqual(LayoutSpans.of(tl, "main", until: 9), ["0:00:00-0:00:03 a", "0:00:03-0:00:06 b", "0:00:06-0:00:09 a"])
        XCTAssertEqual(LayoutSpans.of(tl, "side", until: 9), ["0:00:02-0:00:03 late"])
        // without an element of that id (signageOS files name it all the same)
        let bare = try document(#"<par><seq end="__prefetchEnd.endEvent"><img src="waiting" dur="indefinite"/></seq><img src="a" dur="2s"/></par>"#)
        XCTAssertEqual(LayoutSpans.of(timeline(bare), "main", until: 3), ["0:00:00-0:00:02 a"])
    }

    func testADayOfTheWeekInAWallclockDate() throws {
        func date(_ text: String) -> CivilDate? {
            guard case .success(let v)? = SMILWallclock.parse(text) else {
                XCTFail("\(text) not read")
                return nil
            }
            return v.date
        }
        // 2010-01-01 was a Friday: the first Monday on or after it is the 4th, the last Sunday on or before it the 27th
        XCTAssertEqual(date("wallclock(2010-01-01+w1T09:00)"), CivilDate(year: 2010, month: 1, day: 4))
        XCTAssertEqual(date("wallclock(2010-01-01-w7T00:00)"), CivilDate(year: 2009, month: 12, day: 27))
        XCTAssertEqual(date("wallclock(2010-01-01+w5)"), CivilDate(year: 2010, month: 1, day: 1), "the day itself counts")
        for bad in ["wallclock(2010-01-01+w8T09:00)", "wallclock(2010-01-01+w0)", "wallclock(2010-01-01+x1T09:00)"] {
            guard case .failure? = SMILWallclock.parse(bad) else { return XCTFail("\(bad) read") }
        }
        // Mondays at 12:00 for half an hour, from Monday 2026-01-05 06:00: 6 h and 174 h in
        let doc = try document(#"<par><img src="lunch" begin="wallclock(R/2026-01-01+w1T12:00/P1W)" dur="30min"/></par>"#)
        let tl = timeline(doc, start: try berlinTime(2026, 1, 5, 6), days: 8)
        XCTAssertEqual(LayoutSpans.of(tl, "main", until: 190 * hour), ["6:00:00-6:30:00 lunch", "174:00:00-174:30:00 lunch"])
    }

    func testNamedTriggersBeginWhatNamesThem() throws {
        let head = """
            <sensors><sensor type="rfid" id="rfid1" driver="nexmosphere"><option name="address">004</option></sensor></sensors>
            <triggers>
            <trigger id="trigger-key" condition="or"><condition origin="keyboard" data="7" action="keyUp"/></trigger>
            <trigger id="trigger-code" condition="or"><condition origin="keyboard" data="246" action="keyUp"/></trigger>
            <trigger id="trigger-touch" condition="or"><condition origin="mouse" action="click"/></trigger>
            <trigger id="trigger-tag" condition="or"><condition origin="rfid1" data="3" action="picked"/></trigger>
            </triggers>
            """
        let doc = try document("""
            <par><img src="loop" region="main" begin="0s" dur="indefinite"/>
            <seq begin="trigger-key"><img src="key" region="main" dur="4s"/></seq>
            <seq begin="trigger-code"><img src="code" region="main" dur="4s"/></seq>
            <seq begin="trigger-touch" end="trigger-key"><img src="touch" region="main" dur="4s"/></seq>
            <seq begin="trigger-tag"><img src="tag" region="main" dur="4s"/></seq>
            <seq begin="trigger-nobody"><img src="never" region="main" dur="4s"/></seq></par>
            """, head: head)
        XCTAssertEqual(doc.warnings, [
            "d.smil:6: trigger trigger-tag: origin=\"rfid1\" (a <sensor>) is not heard by kiosk; notify(trigger-tag) fires it",
            "d.smil:13: begin=\"trigger-nobody\" names no <trigger> in <head>: nothing begins it by that name",
        ])
        XCTAssertEqual(doc.body.id, "__screen", "a tap on any medium activates the body")
        XCTAssertEqual(Set(doc.outsideTriggers), [.accessKey("7"), .accessKey("2"), .accessKey("4"), .accessKey("6"),
                                                  .activate("__screen"), .notify("trigger-key"), .notify("trigger-code"),
                                                  .notify("trigger-touch"), .notify("trigger-tag")])
        let fired = [
            SMILFiredEvent(.accessKey("7"), at: 10), SMILFiredEvent(.accessKey("7"), at: 12),  // begins it again
            SMILFiredEvent(.accessKey("2"), at: 20), SMILFiredEvent(.accessKey("4"), at: 20.5),
            SMILFiredEvent(.accessKey("4"), at: 21), SMILFiredEvent(.accessKey("6"), at: 21.5),  // 2 4 4 6: not 246
            SMILFiredEvent(.accessKey("2"), at: 30), SMILFiredEvent(.accessKey("4"), at: 30.5), SMILFiredEvent(.accessKey("6"), at: 31),
            SMILFiredEvent(.activate("__screen"), at: 40), SMILFiredEvent(.accessKey("7"), at: 42),  // the key ends the touch's
            SMILFiredEvent(.notify("trigger-tag"), at: 50),
        ]
        let tl = timeline(doc, fired: fired)
        XCTAssertEqual(LayoutSpans.of(tl, "main", until: 60), [
            "0:00:00-0:00:10 loop", "0:00:10-0:00:16 key", "0:00:16-0:00:31 loop", "0:00:31-0:00:35 code",
            "0:00:35-0:00:40 loop", "0:00:40-0:00:42 touch", "0:00:42-0:00:46 key", "0:00:46-0:00:50 loop",
            "0:00:50-0:00:54 tag", "0:00:54-0:01:00 loop",
        ])
        // a trigger name that is no trigger's, written without signageOS's `trigger` prefix, is still an error
        XCTAssertThrowsError(try document(#"<par><img src="a" begin="soon"/></par>"#)) {
            XCTAssertEqual("\($0)", "d.smil:2: begin=\"soon\" is not a clock value or a wallclock() time")
        }
    }

    func testWhatTheDialectsWriteThatKioskCannotHonourIsWarnedAbout() throws {
        // signageOS's testing files put an excl's children in a priorityClass with no begin: SMIL's default there
        // is indefinite, so nothing in it plays by itself, which is said once
        let head = """
            <triggers><trigger id="trigger-both" condition="and"><condition origin="keyboard" data="a-b"/>
            <condition origin="widget" data="open"/></trigger><trigger><condition origin="mouse"/></trigger></triggers>
            """
        let doc = try document("""
            <par><img src="c" begin="trigger-both" dur="2s"/></par>
            <excl><priorityClass lower="never" peer="stop"><par repeatCount="indefinite"><img src="a" dur="2s"/></par>
            <seq><img src="b" dur="2s"/></seq></priorityClass></excl>
            """, head: head)
        XCTAssertEqual(doc.warnings, [
            "d.smil:1: trigger trigger-both: condition=\"and\" is read as or (any condition fires it)",
            "d.smil:1: trigger trigger-both: keyboard data=\"a-b\" is not letters and digits; notify(trigger-both) fires it",
            "d.smil:2: trigger trigger-both: origin=\"widget\" (a widget) is not heard by kiosk; notify(trigger-both) fires it",
            "d.smil:2: <trigger> without an id is not read",
            "d.smil:4: attribute peer of <priorityClass> is not read",
            "d.smil:4: <par> in an <excl> has no begin: it waits for an event (SMIL's default there), so it does not play by itself (1 more in the file)",
        ])
        XCTAssertEqual(doc.outsideTriggers, [.notify("trigger-both")], "only the notify is left to fire it")
        XCTAssertNil(doc.body.id, "no mouse trigger is named: the body keeps no id")
        XCTAssertEqual(LayoutSpans.of(timeline(doc, fired: [SMILFiredEvent(.notify("trigger-both"), at: 3)]), "main", until: 9),
                       ["0:00:03-0:00:05 c"])
    }
}
