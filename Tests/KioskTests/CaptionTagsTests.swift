import Foundation
import XCTest
@testable import KioskCore
@testable import KioskMedia

/// Audio and video tags read for captions, compared with ffprobe's reading of the same files.
final class CaptionTagsTests: XCTestCase {
    private static let metadata = ["-metadata", "title=Café Zürich", "-metadata", "artist=The Band", "-metadata", "album=Live",
                                   "-metadata", "date=2019", "-metadata", "track=3"]

    /// Our fields against ffprobe's format tags.
    private func assertMatchesFFprobe(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let reference = try CaptionFixtures.ffprobeTags(path)
        XCTAssertEqual(reference["title"], "Café Zürich", "ffprobe sees the tags written", file: file, line: line)
        let m = try XCTUnwrap(CaptionFixtures.read(path).metadata, file: file, line: line)
        XCTAssertEqual(m.title, reference["title"], file: file, line: line)
        XCTAssertEqual(m.artist, reference["artist"], file: file, line: line)
        XCTAssertEqual(m.album, reference["album"], file: file, line: line)
        XCTAssertEqual(m.track, reference["track"], file: file, line: line)
        XCTAssertEqual(m.date, reference["date"].flatMap { CivilDateTime(parsing: $0) }, file: file, line: line)
        XCTAssertEqual(m.date?.description, "2019", file: file, line: line)
        XCTAssertEqual(m.caption, reference["title"], file: file, line: line)
        XCTAssertEqual(m.captionSource, .tags, file: file, line: line)
        XCTAssertEqual(try CaptionFormat(parsing: "{track}. {title} - {artist} ({date})").render(m, index: 1, count: 1),
                       "3. Café Zürich - The Band (2019)", file: file, line: line)
    }

    func testMP3TagsMatchFFprobe() throws {
        let dir = try TempDir()
        let path = dir.file("song.mp3")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=0.3", "-c:a", "libmp3lame"] + Self.metadata + [path])
        try assertMatchesFFprobe(path)
    }

    func testM4ATagsMatchFFprobe() throws {
        let dir = try TempDir()
        let path = dir.file("song.m4a")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=0.3", "-c:a", "aac"] + Self.metadata + [path])
        try assertMatchesFFprobe(path)
    }

    func testMP4TagsMatchFFprobe() throws {
        let dir = try TempDir()
        let path = dir.file("clip.mp4")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=green:s=64x48:d=0.3", "-c:v", "mpeg4"] + Self.metadata + [path])
        try assertMatchesFFprobe(path)
    }

    /// Tags on a stream are read when the container has none; the container's win when both have one.
    func testStreamTagsAndTheirOrder() throws {
        let dir = try TempDir()
        let path = dir.file("clip.mkv")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=green:s=64x48:d=0.3", "-c:v", "mpeg4",
                              "-metadata:s:v:0", "title=Stream title", "-metadata:s:v:0", "artist=Stream artist",
                              "-metadata", "artist=Container artist", path])
        let streamTags = try CaptionFixtures.ffprobeTags(path, level: "stream_tags")
        XCTAssertEqual(streamTags["title"], "Stream title")
        XCTAssertNil(try CaptionFixtures.ffprobeTags(path)["title"])
        let m = try XCTUnwrap(CaptionFixtures.read(path).metadata)
        XCTAssertEqual(m.title, streamTags["title"])
        XCTAssertEqual(m.artist, "Container artist")
    }

    /// A video's `creation_time` (UTC as written) is its date when there is no `date` tag.
    func testCreationTime() throws {
        let dir = try TempDir()
        let path = dir.file("clip.mov")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=green:s=64x48:d=0.3", "-c:v", "mpeg4",
                              "-metadata", "creation_time=2024-07-14T21:05:09.000000Z", path])
        let reference = try CaptionFixtures.ffprobeTags(path)
        let m = try XCTUnwrap(CaptionFixtures.read(path).metadata)
        XCTAssertEqual(m.date, reference["creation_time"].flatMap { CivilDateTime(parsing: $0) })
        XCTAssertEqual(m.date?.description, "2024-07-14 21:05:09")
        XCTAssertNil(m.caption)
    }
}
