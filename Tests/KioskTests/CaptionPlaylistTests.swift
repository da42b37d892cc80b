import Foundation
import XCTest
@testable import KioskCore
@testable import KioskMedia

/// `#EXTKIOSK:caption=` and `#EXTINF` titles, and the order in which an item's caption sources win, with real
/// files: metadata written by exiftool, sidecars, tags written by ffmpeg.
final class CaptionPlaylistTests: XCTestCase {
    private let quiet = Log(level: .error, sink: { _ in })

    func testKioskCaptionTakesTheRestOfTheLine() throws {
        let text = """
        #EXTKIOSK:yaw=30,caption=Lunch, by the lake = good
        a.jpg
        b.jpg
        #EXTKIOSK:days=sat,sun,caption=Weekend
        c.jpg
        #EXTKIOSK:caption=
        d.jpg
        #EXTINF:-1,Just a title, with a comma
        #EXTKIOSK:caption=  "Quoted" stays  
        e.jpg
        #EXTKIOSK:caption=Only a caption
        f.jpg
        """
        let items = M3U.entries(in: text, base: "/m", source: "p.m3u", log: quiet)
        XCTAssertEqual(items.map(\.caption), ["Lunch, by the lake = good", nil, "Weekend", "", "\"Quoted\" stays", "Only a caption"])
        XCTAssertEqual(items[0].override?.yaw, 30)
        XCTAssertNotNil(items[2].window)
        XCTAssertEqual(items[4].title, "Just a title, with a comma")
        XCTAssertNil(items[5].override, "a caption alone sets no projection override")
        XCTAssertEqual(M3U.splitCaption(payload: "yaw=30,xcaption=1").caption, nil)
        XCTAssertEqual(M3U.splitCaption(payload: " caption = a,b").caption, "a,b")
        XCTAssertEqual(M3U.splitCaption(payload: "fov=90 , caption=x").rest, "fov=90")
    }

    func testLoaderCarriesTheCaption() throws {
        let dir = try TempDir()
        let photo = try CaptionFixtures.jpeg(dir)
        try CaptionFixtures.write("#EXTM3U\n#EXTKIOSK:caption=From the list, really\nphoto.jpg\n", to: dir.file("list.m3u"))
        let items = PlaylistLoader(log: quiet).load([dir.file("list.m3u")])
        XCTAssertEqual(items.map(\.path), [photo])
        XCTAssertEqual(items.first?.caption, "From the list, really")
        let (m, _) = CaptionFixtures.read(try XCTUnwrap(items.first))
        XCTAssertEqual(m?.caption, "From the list, really")
        XCTAssertEqual(m?.captionSource, .playlist)
    }

    /// Each source alone gives the caption.
    func testEachSourceAlone() throws {
        let dir = try TempDir()
        func picture(_ name: String, _ exif: [String]) throws -> String {
            let path = try CaptionFixtures.jpeg(dir, name)
            if !exif.isEmpty { try CaptionFixtures.exiftool(path, exif) }
            return path
        }
        let plain = try picture("plain.jpg", [])
        XCTAssertNil(CaptionFixtures.read(plain).metadata?.caption)
        XCTAssertEqual(CaptionFixtures.read(PlaylistItem(path: plain, caption: "list")).metadata?.captionSource, .playlist)
        XCTAssertEqual(CaptionFixtures.read(PlaylistItem(path: plain, title: "title")).metadata?.captionSource, .playlistTitle)
        let side = try picture("side.jpg", [])
        try CaptionFixtures.write("  side text\n", to: dir.file("side.txt"))
        XCTAssertEqual(CaptionFixtures.read(side).metadata?.caption, "side text")
        for (tag, source) in [("-XMP-dc:Description=alone", CaptionSource.xmp), ("-IPTC:Caption-Abstract=alone", .iptc),
                              ("-EXIF:ImageDescription=alone", .exif)] {
            let m = CaptionFixtures.read(try picture("\(source).jpg", [tag])).metadata
            XCTAssertEqual(m?.caption, "alone", tag)
            XCTAssertEqual(m?.captionSource, source, tag)
        }
        let png = try CaptionFixtures.png(dir)
        try CaptionFixtures.exiftool(png, ["-PNG:Description=png text"])
        XCTAssertEqual(CaptionFixtures.read(png).metadata?.captionSource, .pngText)
        XCTAssertEqual(CaptionFixtures.read(png).metadata?.caption, "png text")
        let song = dir.file("song.mp3")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=0.3", "-metadata", "title=Song title", song])
        XCTAssertEqual(CaptionFixtures.read(song).metadata?.captionSource, .tags)
        XCTAssertEqual(CaptionFixtures.read(song).metadata?.caption, "Song title")
    }

    /// All sources at once, then taken away one by one: each time the next in the order wins.
    func testFirstSourceWins() throws {
        let dir = try TempDir()
        let photo = try CaptionFixtures.jpeg(dir)
        try CaptionFixtures.exiftool(photo, ["-XMP-dc:Description=from XMP", "-IPTC:Caption-Abstract=from IPTC",
                                             "-EXIF:ImageDescription=from EXIF"])
        try CaptionFixtures.write("from photo.jpg.txt", to: dir.file("photo.jpg.txt"))
        try CaptionFixtures.write("from photo.txt", to: dir.file("photo.txt"))
        func winner(_ item: PlaylistItem) -> String? { CaptionFixtures.read(item).metadata?.caption }
        XCTAssertEqual(winner(PlaylistItem(path: photo, title: "from EXTINF", caption: "from EXTKIOSK")), "from EXTKIOSK")
        XCTAssertEqual(winner(PlaylistItem(path: photo, title: "from EXTINF")), "from EXTINF")
        XCTAssertNil(winner(PlaylistItem(path: photo, title: "from EXTINF", caption: "")), "caption= says none")
        XCTAssertEqual(winner(PlaylistItem(path: photo)), "from photo.jpg.txt")
        try FileManager.default.removeItem(atPath: dir.file("photo.jpg.txt"))
        XCTAssertEqual(winner(PlaylistItem(path: photo)), "from photo.txt")
        try FileManager.default.removeItem(atPath: dir.file("photo.txt"))
        XCTAssertEqual(winner(PlaylistItem(path: photo)), "from XMP")
        try CaptionFixtures.exiftool(photo, ["-XMP:all="])
        XCTAssertEqual(winner(PlaylistItem(path: photo)), "from IPTC")
        try CaptionFixtures.exiftool(photo, ["-IPTC:all="])
        XCTAssertEqual(winner(PlaylistItem(path: photo)), "from EXIF")
        try CaptionFixtures.exiftool(photo, ["-EXIF:ImageDescription="])
        XCTAssertNil(winner(PlaylistItem(path: photo)))
        // An empty sidecar is no caption: the next source is read.
        try CaptionFixtures.exiftool(photo, ["-IPTC:Caption-Abstract=from IPTC again"])
        try CaptionFixtures.write(" \n", to: dir.file("photo.txt"))
        XCTAssertEqual(winner(PlaylistItem(path: photo)), "from IPTC again")
    }

    /// For a sound, the sidecar wins over its tags, and the playlist's title over both.
    func testTagsComeLast() throws {
        let dir = try TempDir()
        let song = dir.file("song.m4a")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=0.3", "-c:a", "aac",
                              "-metadata", "title=Tag title", "-metadata", "artist=Tag artist", song])
        XCTAssertEqual(CaptionFixtures.read(song).metadata?.caption, "Tag title")
        try CaptionFixtures.write("Sidecar words", to: dir.file("song.txt"))
        let m = try XCTUnwrap(CaptionFixtures.read(song).metadata)
        XCTAssertEqual(m.caption, "Sidecar words")
        XCTAssertEqual(m.title, "Tag title", "the other fields still come from the tags")
        XCTAssertEqual(m.artist, "Tag artist")
        XCTAssertEqual(CaptionFixtures.read(PlaylistItem(path: song, title: "List title")).metadata?.caption, "List title")
        XCTAssertEqual(CaptionFixtures.read(PlaylistItem(path: song, title: "List title")).metadata?.title, "List title")
    }
}
