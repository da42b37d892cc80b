import Foundation
import KioskCore
import KioskMedia
import XCTest

/// An index fetched from a server, loaded with its `ContentMap`: every `src` (relative, absolute, with a query
/// string, path-absolute, protocol-relative) plays from the content cache's file for it; one the cache does not
/// hold is one line and is skipped; a `file:`, `ftp:` or `data:` source is refused with one line, whatever file it
/// names; lines and errors name the index by its URL.
final class SMILContentMapTests: XCTestCase {
    private let url = "https://cms.example.com/screens/hall/index.smil?screen=7"

    /// Writes `body` as an index into `dir`'s cache and loads it with `map`.
    private func load(_ body: String, in dir: TempDir, map: [String: String]) throws -> SMILFile {
        let text = """
            <smil><head><layout><region regionName="main"/><region regionName="ticker"/></layout></head>
            <body>\(body)</body></smil>
            """
        let index = dir.file("cache/index.smil")
        try FileManager.default.createDirectory(atPath: dir.file("cache"), withIntermediateDirectories: true)
        try text.write(toFile: index, atomically: true, encoding: .utf8)
        return try SMILFile.load(index, content: ContentMap(indexURL: url, files: map))
    }

    func testEverySourceIsTheCachesFileForItsURL() throws {
        let dir = try TempDir()
        try FileManager.default.createDirectory(atPath: dir.file("cache"), withIntermediateDirectories: true)
        let red = try ColourPictures.make(dir, "cache/01.png", "red")
        let green = try ColourPictures.make(dir, "cache/02.png", "green")
        let blue = try ColourPictures.make(dir, "cache/03.png", "blue")
        let logo = try ColourPictures.make(dir, "cache/04.png", "white")
        let cdn = try ColourPictures.make(dir, "cache/05.png", "yellow")
        try "Opening hours 9-17".write(toFile: dir.file("cache/06.txt"), atomically: true, encoding: .utf8)
        let file = try load("""
            <par><seq>
            <img src="slides/a.png?v=1" region="main" dur="2s"/>
            <img src="slides/a.png?v=2" region="main" dur="2s"/>
            <img src="https://cms.example.com/screens/hall/slides/b.png" region="main" dur="2s"/>
            <img src="/shared/logo.png#top" region="main" dur="2s"/>
            <img src="//cdn.example.com/x.png" region="main" dur="2s"/>
            <img src="slides/missing.png" region="main" dur="2s"/>
            </seq>
            <ref src="news.txt" type="text/plain" region="ticker" dur="10s"/></par>
            """, in: dir, map: [
                "https://cms.example.com/screens/hall/slides/a.png?v=1": red,
                "https://cms.example.com/screens/hall/slides/a.png?v=2": green,
                "https://cms.example.com/screens/hall/slides/b.png": blue,
                "https://cms.example.com/shared/logo.png": logo,
                "https://cdn.example.com/x.png": cdn,
                "https://cms.example.com/screens/hall/news.txt": dir.file("cache/06.txt"),
            ])
        XCTAssertEqual(file.problems, ["\(url):8: src \"slides/missing.png\": not in the content cache"])
        let media = file.document.mediaInDocumentOrder
        XCTAssertEqual(media.map { file.paths[$0.index] }, [red, green, blue, logo, cdn, nil, dir.file("cache/06.txt")])
        XCTAssertEqual(file.lengths[media[5].index], .unplayable)
        // the query strings tell two media apart; the one not fetched is skipped (its region goes on)
        let tl = file.timeline(stillDuration: 5)
        XCTAssertEqual(LayoutSpans.of(tl, "main", until: 12), [
            "0:00:00-0:00:02 slides/a.png?v=1", "0:00:02-0:00:04 slides/a.png?v=2",
            "0:00:04-0:00:06 https://cms.example.com/screens/hall/slides/b.png", "0:00:06-0:00:08 /shared/logo.png#top",
            "0:00:08-0:00:10 //cdn.example.com/x.png",
        ])
        XCTAssertEqual(LayoutSpans.of(tl, "ticker", until: 12), ["0:00:00-0:00:10 news.txt"])
    }

    func testOtherSchemesAreRefusedInAFetchedIndex() throws {
        let dir = try TempDir()
        try FileManager.default.createDirectory(atPath: dir.file("cache"), withIntermediateDirectories: true)
        let red = try ColourPictures.make(dir, "cache/01.png", "red")
        // a map that (wrongly) holds local files under those names still plays none of them
        let file = try load("""
            <seq><img src="file:///etc/passwd" dur="1s"/>
            <img src="FILE:///etc/hostname" dur="1s"/>
            <video src="ftp://media.example.com/ad.mp4"/>
            <img src="data:image/png;base64,iVBORw0KGgo=" dur="1s"/>
            <img src="a.png" dur="1s"/></seq>
            """, in: dir, map: ["file:///etc/passwd": red, "ftp://media.example.com/ad.mp4": red,
                               "https://cms.example.com/screens/hall/a.png": red])
        XCTAssertEqual(file.problems, [
            "\(url):2: src \"file:///etc/passwd\": file: is refused in an index fetched from a server (only http and https)",
            "\(url):3: src \"FILE:///etc/hostname\": file: is refused in an index fetched from a server (only http and https)",
            "\(url):4: src \"ftp://media.example.com/ad.mp4\": ftp: is refused in an index fetched from a server (only http and https)",
            "\(url):5: src \"data:image/png;base64,iVBORw0KGgo=\": data: is refused in an index fetched from a server (only http and https)",
        ])
        XCTAssertEqual(file.paths.values.sorted(), [red], "only the http medium plays")
        XCTAssertEqual(LayoutSpans.of(file.timeline(stillDuration: 5), "main", until: 3), ["0:00:00-0:00:01 a.png"])
    }

    func testAFetchedIndexNamesItsURLInErrors() throws {
        let dir = try TempDir()
        XCTAssertThrowsError(try load(#"<seq><img src="a.png" dur="soon"/></seq>"#, in: dir, map: [:])) {
            XCTAssertEqual("\($0)", "\(url):2: dur=\"soon\" is not a clock value")
        }
        try FileManager.default.createDirectory(atPath: dir.file("cache"), withIntermediateDirectories: true)
        try "<smil><body><seq>".write(toFile: dir.file("cache/broken.smil"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try SMILFile.load(dir.file("cache/broken.smil"), content: ContentMap(indexURL: url, files: [:]))) {
            XCTAssertTrue("\($0)".hasPrefix(url + ":"), "\($0)")
        }
    }
}
