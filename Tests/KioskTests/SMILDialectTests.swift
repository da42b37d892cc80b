import Foundation
import KioskCore
import KioskMedia
import XCTest

/// SMIL files shaped as the signage CMSs write them for other players, loaded with `SMILFile.load` over media made
/// with ffmpeg: a signageOS index fetched from a server (prefetch, `__prefetchEnd`, head triggers and sensors,
/// sub-regions, `expr`, widgets, `cacheControl` params, URLs with query strings, named colours), and an A-SMIL
/// schedule (daily wallclock windows in an excl, an end on another element's end, a weekly day-of-the-week slot).
/// Each plays, in the order its timeline says, with a warning naming FILE:LINE for what kiosk does not honour.
final class SMILDialectTests: XCTestCase {
    private let berlin = TimeZone(identifier: "Europe/Berlin") ?? .current

    /// A 4 s clip (10 fps) at `path`.
    private func clip(_ path: String) throws {
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc=d=4:s=64x48:r=10", "-pix_fmt", "yuv420p", "-c:v", "libx264",
                              "-preset", "ultrafast", path])
    }

    static let signageOSIndex = """
        <?xml version="1.0" encoding="UTF-8"?>
        <smil>
          <head>
            <meta http-equiv="Refresh" content="60" onlySmilUpdate="false"/>
            <sensors>
              <sensor type="rfid" id="antenna1" driver="nexmosphere"><option name="address">004</option></sensor>
            </sensors>
            <triggers>
              <trigger id="trigger-help" condition="or"><condition origin="keyboard" data="7" action="keyUp"/></trigger>
              <trigger id="trigger-tag" condition="or"><condition origin="antenna1" data="12" action="picked"/></trigger>
            </triggers>
            <layout>
              <root-layout width="1920" height="1080" backgroundColor="#18182c"/>
              <region regionName="main" left="0" top="0" width="1280" height="1080" z-index="1" backgroundColor="Black"/>
              <region regionName="side" left="1280" top="0" width="640" height="1080" z-index="1" backgroundColor="DarkSlateGray"/>
              <region regionName="trigger-region" left="0" top="0" width="1280" height="1080" z-index="2">
                <region regionName="trigger-sub-region1" left="0" top="0" width="100%" height="100%"/>
              </region>
            </layout>
          </head>
          <body>
            <par>
              <seq end="__prefetchEnd.endEvent">
                <seq repeatCount="indefinite"><video src="media/loader.mp4" region="main"/></seq>
              </seq>
              <seq>
                <prefetch src="media/clip.mp4"/>
                <prefetch src="https://cdn.example.com/stills/red.png?v=3"/>
                <seq id="__prefetchEnd" dur="1s"/>
              </seq>
              <par begin="__prefetchEnd.endEvent" repeatCount="indefinite">
                <seq repeatCount="indefinite">
                  <video src="media/clip.mp4" region="main" soundLevel="0%"><param name="cacheControl" value="onlyIfCached"/></video>
                  <img src="https://cdn.example.com/stills/red.png?v=3" region="main" dur="3" fit="fill" expr="adapi-weekday()&lt;=5"/>
                </seq>
                <seq repeatCount="indefinite">
                  <img src="media/blue.png" region="side" dur="5s"><param name="cacheControl" value="auto"/></img>
                  <ref src="widgets/weather.wgt" type="application/widget" region="side" dur="10s"/>
                </seq>
              </par>
              <seq begin="trigger-help"><img src="//cdn.example.com/stills/green.png" region="trigger-region" dur="4s"/></seq>
              <seq begin="trigger-tag"><img src="media/blue.png" region="trigger-region" dur="4s"/></seq>
            </par>
          </body>
        </smil>
        """

    func testASignageOSIndexPlaysFromTheContentCache() throws {
        let dir = try TempDir()
        try FileManager.default.createDirectory(atPath: dir.file("cache"), withIntermediateDirectories: true)
        let url = "https://cms.example.com/screens/lobby/index.smil"
        // the cache holds each medium under a name of its own (the fetcher's), not the URL's
        try clip(dir.file("cache/1f3a.mp4"))
        try clip(dir.file("cache/88c2.mp4"))
        let red = try ColourPictures.make(dir, "cache/0b7e.png", "red")
        let blue = try ColourPictures.make(dir, "cache/c4d1.png", "blue")
        let green = try ColourPictures.make(dir, "cache/9a60.png", "green")
        let map = ContentMap(indexURL: url, files: [
            "https://cms.example.com/screens/lobby/media/loader.mp4": dir.file("cache/88c2.mp4"),
            "https://cms.example.com/screens/lobby/media/clip.mp4": dir.file("cache/1f3a.mp4"),
            "https://cdn.example.com/stills/red.png?v=3": red,
            "https://cms.example.com/screens/lobby/media/blue.png": blue,
            "https://cdn.example.com/stills/green.png": green,
        ])
        let index = dir.file("cache/index.smil")
        try Self.signageOSIndex.write(toFile: index, atomically: true, encoding: .utf8)
        let file = try SMILFile.load(index, content: map)
        XCTAssertEqual(file.problems, [])
        XCTAssertEqual(file.document.file, url, "lines name the index by its URL")
        XCTAssertEqual(file.document.warnings, [
            "\(url):10: trigger trigger-tag: origin=\"antenna1\" (a <sensor>) is not heard by kiosk; notify(trigger-tag) fires it",
            "\(url):17: a <region> inside a <region> is not read: media play in the outer region",
            "\(url):33: param cacheControl is not read (1 more in the file)",
            "\(url):34: attribute expr of <img> is not evaluated: the element plays as if it were true",
            "\(url):38: widgets/weather.wgt: widgets (application/widget, .wgt) are not played",
        ])
        XCTAssertEqual(file.document.rootLayout.backgroundColor, LayoutColor(red: 0x18 / 255.0, green: 0x18 / 255.0, blue: 0x2c / 255.0))
        XCTAssertEqual(file.document.regions.first { $0.name == "side" }?.backgroundColor,
                       LayoutColor(red: 0x2F / 255.0, green: 0x4F / 255.0, blue: 0x4F / 255.0))
        let media = file.document.mediaInDocumentOrder
        XCTAssertEqual(media.map(\.src), ["media/loader.mp4", "media/clip.mp4", "https://cdn.example.com/stills/red.png?v=3",
                                          "media/blue.png", "//cdn.example.com/stills/green.png", "media/blue.png"])
        XCTAssertEqual(media.map { file.paths[$0.index] }, [dir.file("cache/88c2.mp4"), dir.file("cache/1f3a.mp4"), red, blue, green, blue])
        guard case .timed(let length)? = file.lengths[media[1].index] else { return XCTFail("the clip was not probed") }
        XCTAssertEqual(length, 4, accuracy: 0.05)
        // the waiting loop never shows (everything is cached before the index plays); the clip (4 s) and the red
        // still (3 s) take turns in main, blue stays in side; key 7 at 20 s shows green over main for 4 s, and
        // the antenna's trigger, reached by notify(trigger-tag), blue at 30 s
        let tl = file.timeline(stillDuration: 5, fired: [SMILFiredEvent(.accessKey("7"), at: 20),
                                                         SMILFiredEvent(.notify("trigger-tag"), at: 30)])
        XCTAssertEqual(LayoutSpans.of(tl, "main", until: 14), [
            "0:00:00-0:00:04 media/clip.mp4", "0:00:04-0:00:07 https://cdn.example.com/stills/red.png?v=3",
            "0:00:07-0:00:11 media/clip.mp4", "0:00:11-0:00:14 https://cdn.example.com/stills/red.png?v=3",
        ])
        XCTAssertEqual(LayoutSpans.of(tl, "side", until: 60), ["0:00:00-0:01:00 media/blue.png"])
        XCTAssertEqual(LayoutSpans.of(tl, "trigger-region", until: 60),
                       ["0:00:20-0:00:24 //cdn.example.com/stills/green.png", "0:00:30-0:00:34 media/blue.png"])
        XCTAssertEqual(Set(file.document.outsideTriggers), [.accessKey("7"), .notify("trigger-help"), .notify("trigger-tag")])
    }

    static let aSMILSchedule = """
        <smil xmlns="http://www.w3.org/2001/SMIL20/Language">
        <head>
          <meta http-equiv="Refresh" content="600"/>
          <layout>
            <root-layout width="1280" height="720" backgroundColor="white"/>
            <region regionName="zone" left="0" top="0" width="100%" height="85%" backgroundColor="rgb(20, 20, 20)"/>
            <region regionName="strip" left="0" top="85%" width="100%" height="15%" backgroundColor="#0008"/>
          </layout>
          <metadata>
            <x-server xmlns="http://schemas.adfotain.org/adapi-1.0">
              <subscriptionList><subscription><type>EventPlayback</type><action>http://cms.example.com/report</action>
              <method>put</method></subscription></subscriptionList>
            </x-server>
          </metadata>
        </head>
        <body>
          <par>
            <seq end="__prefetchEnd.endEvent">
              <seq repeatCount="indefinite"><img src="waiting.png" region="zone" dur="2s"/></seq>
            </seq>
            <seq>
              <prefetch src="morning.png"/>
              <prefetch src="day.mp4"/>
              <seq id="__prefetchEnd" dur="1s"/>
            </seq>
            <excl begin="__prefetchEnd.endEvent">
              <priorityClass peers="stop">
                <seq id="morning" begin="wallclock(R/2026-01-01T07:00/P1D)" end="wallclock(R/2026-01-01T11:00/P1D)" repeatCount="indefinite">
                  <img src="morning.png" region="zone" dur="10s"/>
                </seq>
                <par begin="wallclock(R/2026-01-01T11:00/P1D)" end="wallclock(R/2026-01-01T19:00/P1D)">
                  <seq repeatCount="indefinite"><video src="day.mp4" region="zone"/><img src="offer.png" region="zone" dur="5s"/></seq>
                </par>
              </priorityClass>
            </excl>
            <img src="hello.png" region="strip" begin="__prefetchEnd.endEvent" end="morning.endEvent"/>
            <img src="lunch.png" region="strip" begin="wallclock(R/2026-01-01+w1T12:00/P1W)" dur="30min"/>
          </par>
        </body>
        </smil>
        """

    func testAnASMILScheduleReadsCleanAndKeepsItsWindows() throws {
        let dir = try TempDir()
        for (name, colour) in [("waiting.png", "gray"), ("morning.png", "yellow"), ("offer.png", "red"), ("hello.png", "white"),
                               ("lunch.png", "green")] {
            _ = try ColourPictures.make(dir, name, colour)
        }
        try clip(dir.file("day.mp4"))
        let path = dir.file("schedule.smil")
        try Self.aSMILSchedule.write(toFile: path, atomically: true, encoding: .utf8)
        let file = try SMILFile.load(path)
        XCTAssertEqual(file.problems, [])
        XCTAssertEqual(file.document.warnings, [], "everything in it is read")
        XCTAssertEqual(file.document.regions.last?.backgroundColor, LayoutColor(red: 0, green: 0, blue: 0, alpha: 0x88 / 255.0))
        // Monday 2026-01-05 at 06:00 in Berlin: mornings 07-11 (1-5 h in), days 11-19 (5-13 h), the greeting until
        // the morning ends, lunch on Mondays at 12:00 for half an hour
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        let start = try XCTUnwrap(calendar.date(from: DateComponents(year: 2026, month: 1, day: 5, hour: 6)))
        let tl = file.timeline(stillDuration: 5, anchor: SMILTimeline.WallAnchor(start: start, zone: berlin))
        XCTAssertEqual(tl.wallclockProblems, [])
        let hour = 3600.0
        func zone(_ t: Double) -> String? { tl.byRegion(at: t)["zone"]?.media.src }
        XCTAssertNil(zone(0), "nothing before 07:00, and never the waiting loop")
        XCTAssertEqual(zone(1 * hour + 1), "morning.png")
        XCTAssertEqual(zone(5 * hour + 1), "day.mp4")
        XCTAssertEqual(zone(5 * hour + 5), "offer.png")
        XCTAssertEqual(zone(13 * hour - 1), "offer.png", "the window's 3200th 9 s pass ends at 19:00, in its offer")
        XCTAssertNil(zone(13 * hour + 1))
        XCTAssertEqual(zone(25 * hour + 1), "morning.png", "the next day's morning")
        XCTAssertEqual(LayoutSpans.of(tl, "strip", until: 30 * hour), ["0:00:00-5:00:00 hello.png", "6:00:00-6:30:00 lunch.png"])
        // check-config lists the windows' next begins
        let r = try CLITests.run(["check-config", path, "--timezone", "Europe/Berlin", "--start-time", "2026-01-05T06:00"], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("\(path): ok"), r.stdout)
        XCTAssertTrue(r.stdout.contains("2026-01-05 07:00"), r.stdout)
        XCTAssertFalse(r.stderr.contains("warning"), r.stderr)
    }

    func testASignageOSIndexReadLocallyNamesItsURLsWithTheirLine() throws {
        // the same index as a local file: its URL media are not local files (one line each, naming how to fetch
        // them), its relative media play from next to it
        let dir = try TempDir()
        try FileManager.default.createDirectory(atPath: dir.file("media"), withIntermediateDirectories: true)
        try clip(dir.file("media/clip.mp4"))
        try clip(dir.file("media/loader.mp4"))
        _ = try ColourPictures.make(dir, "media/blue.png", "blue")
        let path = dir.file("lobby.smil")
        try Self.signageOSIndex.write(toFile: path, atomically: true, encoding: .utf8)
        let file = try SMILFile.load(path)
        let fetch = "not a local file (kiosk plays only local files; `kiosk play URL` fetches remote content)"
        XCTAssertEqual(file.problems, ["\(path):34: src \"https://cdn.example.com/stills/red.png?v=3\": \(fetch)",
                                       "\(path):41: src \"//cdn.example.com/stills/green.png\": \(fetch)"])
        let r = try CLITests.run(["check-config", path], timeout: 60)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("kiosk: \(path):34: src \"https://cdn.example.com/stills/red.png?v=3\": \(fetch)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("kiosk: warning: \(path):34: attribute expr of <img> is not evaluated"), r.stderr)
    }
}
