import Foundation
import KioskCore
import KioskFetch
import XCTest

/// The Refresh meta's attributes signageOS documents, honoured where they make sense: the index's and the media's
/// periods (`content`, `smilFileRefresh`, `contentRefresh`, `onlySmilUpdate`), an empty index refused with
/// `fallbackToPreviousPlaylist`, and media the server answers 404 left out with `skipContentOnHttpStatus` (against
/// nginx), where without it the whole index waits.
final class ContentRefreshPolicyTests: XCTestCase {
    private func policy(_ meta: String) -> RefreshPolicy {
        let head = MarkupElement(name: "head", children: [
            MarkupElement(name: "meta", attributes: [.init(name: "name", value: "other")]),
            MarkupElement(name: "meta", attributes: meta.split(separator: " ").map { pair in
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                return MarkupElement.Attribute(name: kv[0], value: kv.count > 1 ? kv[1] : "")
            }),
        ])
        return RefreshPolicy.read(MarkupElement(name: "smil", children: [head]))
    }

    func testTheRefreshMetasAttributesAreRead() {
        let plain = policy("http-equiv=Refresh content=60")
        XCTAssertEqual(plain.index, 60)
        XCTAssertNil(plain.media, "content alone sets the index's period only: an unchanged check stays one request")
        let split = policy("http-equiv=refresh content=60 contentRefresh=120 smilFileRefresh=30 onlySmilUpdate=true "
                           + "fallbackToPreviousPlaylist=TRUE skipContentOnHttpStatus=404,403,x,999")
        XCTAssertEqual(split.index, 30)
        XCTAssertEqual(split.media, 120)
        XCTAssertTrue(split.onlyIndex)
        XCTAssertTrue(split.keepPreviousWhenEmpty)
        XCTAssertEqual(split.skipStatuses, [403, 404], "what is no HTTP status is left out")
        XCTAssertEqual(policy("http-equiv=Refresh content=-5 contentRefresh=nan"), RefreshPolicy(), "no usable period: the defaults")
        XCTAssertEqual(policy("name=viewport content=60"), RefreshPolicy(), "only the Refresh meta counts")
        XCTAssertTrue(policy("name=kiosk-swap content=NOW").swapAtOnce, "kiosk's own meta: a new version swaps in at once")
        XCTAssertFalse(policy("name=kiosk-swap content=later").swapAtOnce)
        XCTAssertFalse(plain.swapAtOnce)
        XCTAssertEqual(policy("http-equiv=Refresh content=60 timeOut=5000").checkTimeout, 5, "milliseconds, as signageOS gives them")
        XCTAssertNil(policy("http-equiv=Refresh timeOut=50").checkTimeout, "under 0.1 s: kiosk's own limits")
        XCTAssertNil(policy("http-equiv=Refresh timeOut=soon").checkTimeout)
        XCTAssertNil(plain.checkTimeout)
    }

    /// nginx serving `index.smil` with `meta` as its Refresh meta and `sources`; a cache folder.
    private func serve(_ dir: TempDir, _ nginx: NginxServer, meta: String, sources: [String]) throws {
        try ContentFixtures.write("""
            <smil><head><meta http-equiv="Refresh" \(meta)/></head>
            <body><seq>\(sources.map { "<img src=\"\($0)\" dur=\"5s\"/>" }.joined())</seq></body></smil>
            """, to: nginx.file("index.smil"))
        try ContentFixtures.touch(nginx.file("index.smil"), later: Double(nginx.requests().count + 1))
    }

    func testAMediumAnswered404IsLeftOutOnlyWhenTheIndexSaysSo() throws {
        let dir = try TempDir()
        let nginx = try NginxServer(dir)
        defer { nginx.stop() }
        try ContentFixtures.picture(nginx.file("a.png"))
        let cache = try ContentCache(directory: dir.file("cache"))
        try serve(dir, nginx, meta: "content=\"60\"", sources: ["a.png", "gone.png"])
        let strict = ContentSync(cache: cache).sync(nginx.url("index.smil"))
        XCTAssertEqual(strict.outcome, .failed, "without the attribute a missing medium holds the index back")
        XCTAssertTrue(strict.problems.contains { $0.contains("gone.png") && $0.contains("404") }, "\(strict.problems)")
        XCTAssertNil(cache.current)

        try serve(dir, nginx, meta: "content=\"60\" skipContentOnHttpStatus=\"404\"", sources: ["a.png", "gone.png"])
        let lenient = ContentSync(cache: cache).sync(nginx.url("index.smil"))
        XCTAssertEqual(lenient.outcome, .changed, lenient.problems.joined(separator: "\n"))
        XCTAssertEqual(lenient.notes.filter { $0.contains("gone.png") && $0.contains("skipContentOnHttpStatus") }.count, 1, "\(lenient.notes)")
        let map = try XCTUnwrap(lenient.map)
        XCTAssertNotNil(map.file(for: "a.png"))
        XCTAssertNil(map.file(for: "gone.png"), "left out: the player skips its item")
    }

    func testAnEmptyIndexIsRefusedWithFallbackToPreviousPlaylist() throws {
        let dir = try TempDir()
        let nginx = try NginxServer(dir)
        defer { nginx.stop() }
        try ContentFixtures.picture(nginx.file("a.png"))
        let cache = try ContentCache(directory: dir.file("cache"))
        try serve(dir, nginx, meta: "content=\"60\" fallbackToPreviousPlaylist=\"true\"", sources: ["a.png"])
        XCTAssertEqual(ContentSync(cache: cache).sync(nginx.url("index.smil")).outcome, .changed)
        let good = try XCTUnwrap(cache.current)

        try serve(dir, nginx, meta: "content=\"60\" fallbackToPreviousPlaylist=\"true\"", sources: [])
        let empty = ContentSync(cache: cache).sync(nginx.url("index.smil"))
        XCTAssertEqual(empty.outcome, .failed)
        XCTAssertEqual(empty.problems, ["\(nginx.url("index.smil")): names no media; the previous index plays on (fallbackToPreviousPlaylist)"])
        XCTAssertEqual(cache.current, good, "the previous index stays the last good one")

        try serve(dir, nginx, meta: "content=\"60\"", sources: [])
        XCTAssertEqual(ContentSync(cache: cache).sync(nginx.url("index.smil")).outcome, .changed, "without it an empty index is taken")
    }
}
