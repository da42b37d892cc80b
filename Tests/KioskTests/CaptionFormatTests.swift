import Foundation
import XCTest
@testable import KioskCore

/// The caption format (fields, dates, escapes, the empty-field rule, parse errors), the date-time parser and
/// the caption options: pure KioskCore, no files.
final class CaptionFormatTests: XCTestCase {
    /// Metadata with every field set, dated Thursday 2026-12-24 08:30:05.
    private func full() throws -> ItemMetadata {
        var m = ItemMetadata(path: "/media/Holiday 2026/beach.day.jpg")
        m.offerCaption("On the beach", from: .sidecar)
        m.title = "Beach"
        m.artist = "Ann"
        m.album = "Summer"
        m.track = "3/12"
        m.date = try XCTUnwrap(CivilDateTime(year: 2026, month: 12, day: 24, hour: 8, minute: 30, second: 5))
        return m
    }

    private func render(_ format: String, _ m: ItemMetadata, index: Int = 3, count: Int = 10) throws -> String? {
        try CaptionFormat(parsing: format).render(m, index: index, count: count)
    }

    func testEveryFieldRenders() throws {
        let m = try full()
        XCTAssertEqual(try render("{caption}|{title}|{artist}|{album}|{track}|{date}|{filename}|{folder}|{index}|{count}", m),
                       "On the beach|Beach|Ann|Summer|3/12|2026-12-24|beach.day|Holiday 2026|3|10")
        XCTAssertEqual(CaptionFormat.standard.render(m, index: 1, count: 1), "On the beach")
        XCTAssertEqual(try CaptionFormat(parsing: "{caption}"), CaptionFormat.standard)
        XCTAssertEqual(try CaptionFormat(parsing: "{date:%Y} {title}").fields, [.date, .title])
    }

    func testDateConversions() throws {
        let m = try full()
        XCTAssertEqual(try render("{date:%d %B %Y}", m), "24 December 2026")
        XCTAssertEqual(try render("{date:%A %a %b %e %y %H:%M:%S %%}", m), "Thursday Thu Dec 24 26 08:30:05 %")
        var early = m
        early.date = CivilDateTime(year: 2027, month: 1, day: 5, hour: 23, minute: 7, second: 0)
        XCTAssertEqual(try render("{date:%e.%m.%Y %H:%M}", early), "5.01.2027 23:07", "the caption is trimmed")
        XCTAssertEqual(try render("[{date:%e}]", early), "[ 5]")
        // {date} without a format writes as much as the date gives.
        early.date = CivilDateTime(parsing: "2019")
        XCTAssertEqual(try render("{date}", early), "2019")
        early.date = CivilDateTime(parsing: "2019-05")
        XCTAssertEqual(try render("{date}", early), "2019-05")
        early.date = CivilDateTime(parsing: "2019-05-03T10:20:30Z")
        XCTAssertEqual(try render("{date}", early), "2019-05-03")
        XCTAssertEqual(try render("{date:}", early), "2019-05-03")
    }

    /// Names and weekdays against Foundation's own English calendar, over many days and years.
    func testDateNamesMatchFoundation() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEEE EEE dd d MMMM MMM yyyy yy"
        let format = try CaptionDateFormat(parsing: "%A %a %d %e %B %b %Y %y")
        for dayNumber in stride(from: -800, to: 30_000, by: 37) {
            let day = CivilDate(dayNumber: dayNumber)
            let value = try XCTUnwrap(CivilDateTime(year: day.year, month: day.month, day: day.day))
            let expected = formatter.string(from: Date(timeIntervalSince1970: Double(dayNumber) * 86_400))
            XCTAssertEqual(format.format(value).replacingOccurrences(of: "  ", with: " "), expected, "day \(day)")
        }
    }

    func testBracesEscape() throws {
        let m = try full()
        XCTAssertEqual(try render("{{caption}} {caption}", m), "{caption} On the beach")
        XCTAssertEqual(try render("a {{ b }} c", m), "a { b } c")
        XCTAssertEqual(try render("{{{title}}}", m), "{Beach}")
    }

    func testEmptyFieldsDropTheirSeparators() throws {
        let m = try full()
        func with(_ change: (inout ItemMetadata) -> Void) -> ItemMetadata { var c = m; change(&c); return c }
        let noTitle = with { $0.title = nil }, noArtist = with { $0.artist = nil }, noAlbum = with { $0.album = nil }
        let cases: [(String, ItemMetadata, String?)] = [
            ("{title} · {artist}", m, "Beach · Ann"),
            ("{title} · {artist}", noTitle, "Ann"),
            ("{title} · {artist}", noArtist, "Beach"),
            ("{title} · {artist}", with { $0.title = nil; $0.artist = nil }, nil),
            ("{title} - {artist}, {album}", noArtist, "Beach, Summer"),
            ("{title} - {artist}, {album}", noTitle, "Ann, Summer"),
            ("{title} - {artist}, {album}", noAlbum, "Beach - Ann"),
            ("{title} / {artist} / {album}", with { $0.artist = nil; $0.album = nil }, "Beach"),
            ("{title}{artist}", noTitle, "Ann"),
            ("{title} {artist}", noTitle, "Ann"),
            ("Photo: {artist}", noArtist, nil),
            ("Photo: {artist}", m, "Photo: Ann"),
            ("{index}/{count} {artist}", noArtist, "3/10"),
            ("{title} by {artist}", noArtist, "Beach by"),  // text that is not a separator stays
            ("Welcome", m, "Welcome"),
            ("   {title}   ", m, "Beach"),
            ("", m, nil),
            ("  ", m, nil),
        ]
        for (format, metadata, expected) in cases {
            XCTAssertEqual(try render(format, metadata), expected, "format '\(format)'")
        }
    }

    func testParseErrorsNameTheFieldAndColumn() {
        func error(_ text: String) -> CaptionFormatError? {
            do { _ = try CaptionFormat(parsing: text); return nil } catch { return error }
        }
        XCTAssertEqual(error("ab {foo} c")?.column, 5)
        XCTAssertTrue(error("ab {foo} c")?.description.contains("unknown field {foo}") == true)
        XCTAssertTrue(error("{Caption}")?.reason.contains("{Caption}") == true, "names are exact")
        XCTAssertEqual(error("abc {caption")?.column, 5)
        XCTAssertTrue(error("abc {caption")?.reason.contains("not closed") == true)
        XCTAssertEqual(error("{ca{ption}")?.column, 1)
        XCTAssertEqual(error("a } b")?.column, 3)
        XCTAssertTrue(error("a } b")?.reason.contains("lone '}'") == true)
        XCTAssertTrue(error("{title:%Y}")?.reason.contains("{title} takes no format") == true)
        XCTAssertEqual(error("{date:%d %Q}")?.column, 10)
        XCTAssertTrue(error("{date:%d %Q}")?.reason.contains("'%Q'") == true)
        XCTAssertTrue(error("{date:%Y%}")?.reason.contains("lone '%'") == true)
        XCTAssertTrue(error("{date:%Y}}")?.reason.contains("lone '}'") == true)
        XCTAssertNil(error("{date:%Y}}}"), "'}}' after a field is a brace")
        // Random formats never crash the parser.
        var rng = SeededGenerator(seed: 13)
        let alphabet = Array("{}%:datecpiontlYBmx ·-,")
        for _ in 0..<3000 {
            let text = String((0..<Int.random(in: 0...16, using: &rng)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] })
            if let f = try? CaptionFormat(parsing: text) { _ = f.render(ItemMetadata(path: "/a/b.jpg"), index: 1, count: 2) }
        }
    }

    func testDateTimeParsing() throws {
        let exif = try XCTUnwrap(CivilDateTime(parsing: "2026:12:24 08:30:00"))
        XCTAssertEqual(exif.description, "2026-12-24 08:30:00")
        XCTAssertEqual(exif.precision, .second)
        XCTAssertEqual(CivilDateTime(parsing: "2019-05-03T10:20:30.000000Z")?.description, "2019-05-03 10:20:30")
        XCTAssertEqual(CivilDateTime(parsing: "2019-05-03T10:20:30+02:00")?.description, "2019-05-03 10:20:30")
        XCTAssertEqual(CivilDateTime(parsing: "2019-05-03T10:20-0500")?.description, "2019-05-03 10:20")
        XCTAssertEqual(CivilDateTime(parsing: "2019-05-03")?.precision, .day)
        XCTAssertEqual(CivilDateTime(parsing: " 2019 ")?.precision, .year)
        XCTAssertEqual(CivilDateTime(parsing: "2019-05")?.precision, .month)
        for bad in ["", "    :  :     ", "0000:00:00 00:00:00", "2026-02-29", "2026-13-01", "20190503", "2019-5-3",
                    "2019-05-03T25:00", "2019-05-03 10:20:30 junk", "abc", "２０１９"] {
            XCTAssertNil(CivilDateTime(parsing: bad), "'\(bad)'")
        }
        XCTAssertEqual(CivilDateTime(iptcDate: "20261224", time: "083000+0100")?.description, "2026-12-24 08:30:00")
        XCTAssertEqual(CivilDateTime(iptcDate: "20261224", time: String?.none)?.description, "2026-12-24")
        XCTAssertNil(CivilDateTime(iptcDate: "2026122", time: String?.none))
    }

    func testPathFieldsAndSourceOrder() {
        let m = ItemMetadata(path: "/media/Holiday 2026/photo.final.jpg")
        XCTAssertEqual(m.filename, "photo.final")
        XCTAssertEqual(m.folder, "Holiday 2026")
        XCTAssertEqual(ItemMetadata(path: "photo.jpg").folder, "")
        XCTAssertEqual(ItemMetadata(path: "/x/.hidden").filename, ".hidden")
        XCTAssertEqual(ItemMetadata(path: "/a/b/noext").filename, "noext")
        // The earlier source wins whichever is offered first.
        var a = ItemMetadata(path: "/a.jpg")
        a.offerCaption("exif", from: .exif)
        a.offerCaption("xmp", from: .xmp)
        a.offerCaption("tags", from: .tags)
        XCTAssertEqual(a.caption, "xmp")
        XCTAssertEqual(a.captionSource, .xmp)
        a.offerCaption("   ", from: .sidecar)
        XCTAssertEqual(a.caption, "xmp", "blank text is no caption")
        a.offerCaption("", from: .playlist)
        XCTAssertNil(a.caption, "the playlist's empty caption= says none")
        XCTAssertEqual(a.captionSource, .playlist)
        a.offerCaption("title", from: .playlistTitle)
        XCTAssertNil(a.caption)
        XCTAssertEqual(ItemMetadata.clean("  a\r\nb\rc\u{1B}[31m\u{0}d  "), "a\nb\nc [31m d")
        XCTAssertEqual(ItemMetadata.clean(String(repeating: "x", count: 5000)).count, ItemMetadata.maxFieldLength)
    }

    func testCaptionOptions() throws {
        func settings(_ args: [String]) throws -> CaptionSettings? {
            try CommandSpecs.config(from: ParsedOptions.parse(args, specs: CommandSpecs.play, command: "play")).captions
        }
        func usage(_ args: [String]) -> String {
            do { _ = try settings(args); return "" } catch { return "\(error)" }
        }
        XCTAssertNil(try settings([]))
        XCTAssertEqual(try settings(["--captions"]), CaptionSettings())
        let s = try XCTUnwrap(try settings(["--caption", "{title} · {date:%Y}", "--caption-position", "top", "--caption-time", "4"]))
        XCTAssertEqual(s.format.source, "{title} · {date:%Y}")
        XCTAssertEqual(s.position, .top)
        XCTAssertEqual(s.seconds, 4)
        let bad = usage(["--caption", "{title} {foo}"])
        XCTAssertTrue(bad.hasPrefix("--caption: ") && bad.contains("{foo}") && bad.contains("column 10"), bad)
        XCTAssertFalse(bad.contains("\n"))
        XCTAssertTrue(usage(["--caption-position", "top"]).hasPrefix("--caption-position needs --captions"))
        XCTAssertTrue(usage(["--captions", "--caption-position", "middle"]).contains("--caption-position"))
        XCTAssertTrue(usage(["--captions", "--caption-time", "0"]).contains("--caption-time"))
        XCTAssertTrue(usage(["--caption", ""]).contains("--caption"))
        XCTAssertNotNil(try CommandSpecs.config(from: ParsedOptions.parse(["--caption", "{index}"], specs: CommandSpecs.record,
                                                                            command: "record")).captions)
    }
}
