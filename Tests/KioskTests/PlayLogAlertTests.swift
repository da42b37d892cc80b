import Foundation
import KioskCore
import KioskMedia
import KioskOutput
@testable import KioskPlayer
@testable import KioskPlayLog
import XCTest

/// The play log under an emergency alert and an HDMI-CEC TV in standby, on the simulated clock: the alert ends the
/// showing it covers as `interrupted` and is a row of its own; the item shows again (a new row) when it goes; the
/// TV's standby counts as the screen off, as the display's DPMS off does.
final class PlayLogAlertTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    /// a, b, c stills of 4 s, no transition, from 2026-12-24 09:00:00 UTC. At 5 s (b on since 4 s) an alert of 3 s;
    /// the slideshow is held beneath it, so b has 3 s left when it goes at 8 s. The TV reports standby at 12 s and on
    /// at 13 s (during c). Hand-computed: a 0-4 eof; b 4-5 interrupted; the alert 5-8 eof; b 8-11 eof; c 11-15 eof
    /// with 1000 ms off (3 s on screen); a 15-16 quit.
    func testAnAlertInterruptsTheShowingAndTheTVsStandbyCountsAsOff() throws {
        let dir = try TempDir()
        let (p, db, _) = try PlayLogTests.slideshow(in: dir) { _ in
            [(5, .alert(AlertRequest(text: "Fire drill:\nleave by the stairs", seconds: 3))), (12, .tvPower(.standby)), (13, .tvPower(.on))]
        }
        _ = try p.run(length: 16)
        let rows = try PlayLogTests.sqlite3(db, """
            SELECT replace(path, '\(dir.path)/', ''), kind, region, substr(start_utc, 18, 6), substr(end_utc, 18, 6), duration, reason,
              screen_on, screen_off_ms FROM showings ORDER BY id
            """)
        XCTAssertEqual(rows, [
            "a.png|image|main|00.000|04.000|4.0|eof|1|0",
            "b.png|image|main|04.000|05.000|1.0|interrupted|1|0",
            "alert: Fire drill: / leave by the stairs|alert|alert|05.000|08.000|3.0|eof|1|0",
            "b.png|image|main|08.000|11.000|3.0|eof|1|0",
            "c.png|image|main|11.000|15.000|3.0|eof|0|1000",
            "a.png|image|main|15.000|16.000|1.0|quit|1|0",
        ])
    }

    /// A layout: green (10 s) in region main, white (id `logo`, indefinite) in region side. An alert of 2 s at 3 s
    /// holds the layout's clock. Hand-computed: both regions 0-3 interrupted, the alert 3-5, both again 5-8 (quit),
    /// each with its element id and the SMIL file.
    func testAnAlertOverALayoutInterruptsEveryRegion() throws {
        let dir = try TempDir()
        let (p, db, smil) = try PlayLogTests.layout(in: dir, body: """
            <par><img xml:id="logo" src="white.png" region="side" dur="indefinite"/>
            <img xml:id="ad" src="green.png" region="main" dur="10s"/></par>
            """, commands: [(3, .alert(AlertRequest(text: "Closed early today", seconds: 2)))])
        _ = try p.run(length: 8)
        let rows = try PlayLogTests.sqlite3(db, """
            SELECT region, replace(path, '\(dir.path)/', ''), substr(start_utc, 18, 6), substr(end_utc, 18, 6), duration, reason,
              element, layout = '\(smil)' FROM showings ORDER BY start_utc, region
            """)
        XCTAssertEqual(rows, [
            "main|green.png|00.000|03.000|3.0|interrupted|ad|1",
            "side|white.png|00.000|03.000|3.0|interrupted|logo|1",
            "alert|alert: Closed early today|03.000|05.000|2.0|eof||",
            "main|green.png|05.000|08.000|3.0|quit|ad|1",
            "side|white.png|05.000|08.000|3.0|quit|logo|1",
        ])
    }
}
