import Foundation
import KioskCore
import KioskFetch
import XCTest

/// The content fetcher against nginx from Debian, whose own ETag, Last-Modified, 304 and Range handling is the
/// reference: a first sync makes everything local byte for byte, an unchanged check costs one request, a changed
/// medium becomes a new file beside the old one, the state survives a new cache instance, the budget never evicts
/// what the current index needs, and M3U indexes work like SMIL ones.
final class ContentSyncTests: NginxTestCase {
    /// nginx, a cache folder and a served index naming two pictures and a clip (one by an absolute URL with a
    /// query string, one through `<prefetch>`).
    private func serveIndex() throws -> (nginx: NginxServer, cache: String, index: String) {
        let nginx = try XCTUnwrap(self.nginx), dir = try XCTUnwrap(self.dir)
        try ContentFixtures.picture(nginx.file("a.png"))
        try ContentFixtures.picture(nginx.file("b.png"), pattern: "mandelbrot")
        try ContentFixtures.clip(nginx.file("c.mp4"))
        var smil = ContentFixtures.smil([("a.png", nil), (nginx.url("b.png") + "?v=2", nil)])
        smil = smil.replacingOccurrences(of: "</head>", with: "<prefetch src=\"c.mp4\"/></head>")
        try ContentFixtures.write(smil, to: nginx.file("index.smil"))
        return (nginx, dir.file("cache"), nginx.url("index.smil"))
    }

    func testFirstSyncMakesEverythingLocalByteForByte() throws {
        let (nginx, folder, index) = try serveIndex()
        let cache = try ContentCache(directory: folder)
        let report = ContentSync(cache: cache).sync(index)
        XCTAssertEqual(report.outcome, .changed, report.problems.joined(separator: "\n"))
        XCTAssertEqual(report.mediaCount, 3)
        XCTAssertEqual(report.requests, 4, "the index and three media")
        XCTAssertEqual(report.refreshSeconds, 60)
        let map = try XCTUnwrap(report.map)
        XCTAssertEqual(map.indexURL, index)
        for (src, served) in [("a.png", "a.png"), (nginx.url("b.png") + "?v=2", "b.png"), ("c.mp4", "c.mp4")] {
            let file = try XCTUnwrap(map.file(for: src), "\(src) is in the map")
            XCTAssertTrue(file.hasPrefix(folder + "/files/"), file)
            XCTAssertFalse(file.contains("a.png") || file.contains("b.png"), "cache names come from a hash, not the URL: \(file)")
            XCTAssertEqual(ContentFixtures.bytes(file), ContentFixtures.bytes(nginx.file(served)), "\(src) byte for byte")
        }
        XCTAssertEqual(ContentFixtures.bytes(try XCTUnwrap(report.indexFile)), ContentFixtures.bytes(nginx.file("index.smil")))
        XCTAssertTrue(report.indexFile?.hasSuffix(".smil") ?? false)
        XCTAssertEqual(report.bytesFetched, Int64(["index.smil", "a.png", "b.png", "c.mp4"].map { ContentFixtures.bytes(nginx.file($0)).count }.reduce(0, +)))
        XCTAssertFalse(ContentFixtures.cachedNames(folder).contains { $0.hasSuffix(".part") }, "no .part left after a whole sync")
        ContentFixtures.assertNoHalfFile(cache)
        XCTAssertEqual(nginx.requests().filter { $0.contains(" 200 ") }.count, 4, nginx.requests().joined(separator: "\n"))
    }

    func testUnchangedCheckCostsOneRequestAnswered304EvenAfterARestart() throws {
        let (nginx, folder, index) = try serveIndex()
        XCTAssertEqual(ContentSync(cache: try ContentCache(directory: folder)).sync(index).outcome, .changed)
        let before = nginx.requests().count
        let cache = try ContentCache(directory: folder)
        let second = ContentSync(cache: cache).sync(index)
        XCTAssertEqual(second.outcome, .unchanged, second.problems.joined(separator: "\n"))
        XCTAssertEqual(second.requests, 1)
        XCTAssertEqual(second.bytesFetched, 0)
        let lines = nginx.requests()
        XCTAssertEqual(lines.count, before + 1, "one request for an unchanged index: \(lines.suffix(4))")
        let last = try XCTUnwrap(lines.last)
        XCTAssertTrue(last.hasPrefix("GET /index.smil 304 "), last)
        // nginx's own validators went back as they were: its ETag and its Last-Modified
        let held = try XCTUnwrap(cache.entries[index]?.validators)
        let etag = try XCTUnwrap(held.etag).replacingOccurrences(of: "\"", with: "\\x22")  // nginx's log escapes quotes
        XCTAssertTrue(last.contains("inm=[\(etag)]"), last)
        XCTAssertTrue(last.contains("ims=[\(try XCTUnwrap(held.lastModified))]"), last)
        XCTAssertEqual(cache.lastCheck?.outcome, "unchanged")
        // a third check from a fresh instance (a restart) is the same one request
        let third = ContentSync(cache: try ContentCache(directory: folder)).sync(index)
        XCTAssertEqual(third.outcome, .unchanged)
        XCTAssertEqual(third.map, second.map)
        XCTAssertEqual(nginx.requests().count, before + 2)
    }

    func testAChangedMediumIsANewFileAndTheFileOnScreenStaysAsItWas() throws {
        let (nginx, folder, index) = try serveIndex()
        let cache = try ContentCache(directory: folder)
        let sync = ContentSync(cache: cache)
        let first = try XCTUnwrap(sync.sync(index).map)
        let shown = try XCTUnwrap(first.file(for: "a.png"))
        let shownBytes = ContentFixtures.bytes(shown)
        try ContentFixtures.picture(nginx.file("a.png"), pattern: "rgbtestsrc")
        try ContentFixtures.touch(nginx.file("a.png"), later: 5)
        try ContentFixtures.touch(nginx.file("index.smil"), later: 5)
        let mark = nginx.requests().count
        let second = sync.sync(index)
        XCTAssertEqual(second.outcome, .changed, second.problems.joined(separator: "\n"))
        let fresh = try XCTUnwrap(second.map?.file(for: "a.png"))
        XCTAssertNotEqual(fresh, shown, "a changed medium gets a new file")
        XCTAssertEqual(ContentFixtures.bytes(fresh), ContentFixtures.bytes(nginx.file("a.png")))
        XCTAssertEqual(ContentFixtures.bytes(shown), shownBytes, "the file on screen is never changed under the player")
        XCTAssertEqual(second.map?.file(for: "c.mp4"), first.file(for: "c.mp4"), "an unchanged medium keeps its file")
        let asked = nginx.requests().dropFirst(mark)
        XCTAssertTrue(asked.contains { $0.hasPrefix("GET /a.png 200 ") && !$0.contains("inm=[-]") }, "\(asked)")
        XCTAssertTrue(asked.contains { $0.hasPrefix("GET /c.mp4 304 ") }, "unchanged media are asked conditionally: \(asked)")
        XCTAssertEqual(cache.previous?.media[nginx.url("a.png")], (shown as NSString).lastPathComponent, "the replaced index is kept")
        // one more change: the first version is no longer needed by any kept index and goes
        try ContentFixtures.picture(nginx.file("a.png"), pattern: "smptebars")
        try ContentFixtures.touch(nginx.file("a.png"), later: 10)
        try ContentFixtures.touch(nginx.file("index.smil"), later: 10)
        XCTAssertEqual(sync.sync(index).outcome, .changed)
        XCTAssertFalse(FileManager.default.fileExists(atPath: shown), "an old version goes once no kept index names it")
        XCTAssertTrue(FileManager.default.fileExists(atPath: fresh), "the version the replaced index names stays")
        ContentFixtures.assertNoHalfFile(cache)
    }

    func testStateSurvivesANewCacheInstance() throws {
        let (_, folder, index) = try serveIndex()
        let report = ContentSync(cache: try ContentCache(directory: folder)).sync(index)
        let reopened = try ContentCache(directory: folder)
        XCTAssertNil(reopened.loadProblem)
        let current = try XCTUnwrap(reopened.current)
        XCTAssertEqual(current.url, index)
        XCTAssertEqual(reopened.map(of: current), report.map)
        XCTAssertTrue(reopened.isWhole(current))
        XCTAssertEqual(current.refreshSeconds, 60)
        XCTAssertEqual(reopened.lastCheck?.outcome, "changed")
        for (url, entry) in reopened.entries where url != index {
            XCTAssertNotNil(entry.validators.etag, url)
            XCTAssertNotNil(entry.validators.lastModified, url)
            XCTAssertEqual(try ContentFixtures.sha256(reopened.path(entry.file)), entry.sha256, url)
            XCTAssertGreaterThan(entry.lastUsed, 0)
        }
        // a damaged state file is one line and an empty cache, not a crash
        try ContentFixtures.write("{ not json", to: folder + "/" + ContentCache.stateName)
        let damaged = try ContentCache(directory: folder)
        XCTAssertNotNil(damaged.loadProblem)
        XCTAssertNil(damaged.current)
    }

    func testTheBudgetEvictsOnlyWhatTheCurrentIndexDoesNotNeed() throws {
        let nginx = try XCTUnwrap(self.nginx), dir = try XCTUnwrap(self.dir)
        for (i, name) in ["a.bin", "b.bin", "c.bin", "d.bin"].enumerated() {
            try ContentFixtures.seeded(nginx.file(name), count: 100_000, seed: UInt64(i + 1))
        }
        try ContentFixtures.write(ContentFixtures.smil([("a.bin", nil), ("b.bin", nil)]), to: nginx.file("one.smil"))
        try ContentFixtures.write(ContentFixtures.smil([("c.bin", nil), ("d.bin", nil)]), to: nginx.file("two.smil"))
        let cache = try ContentCache(directory: dir.file("cache"), budgetBytes: 250_000)
        let sync = ContentSync(cache: cache)
        XCTAssertEqual(sync.sync(nginx.url("one.smil")).outcome, .changed)
        let two = sync.sync(nginx.url("two.smil"))
        XCTAssertEqual(two.outcome, .changed, two.problems.joined(separator: "\n"))
        XCTAssertTrue(two.notes.isEmpty, "\(two.notes)")
        XCTAssertLessThanOrEqual(cache.usedBytes(), 250_000)
        XCTAssertNil(cache.entries[nginx.url("a.bin")], "the least recently used body no current index needs went")
        for file in try XCTUnwrap(two.map).files.values {
            XCTAssertTrue(FileManager.default.fileExists(atPath: file), "the current index's \(file) stays")
        }
        // a budget the current index alone exceeds: one line, and nothing it needs goes
        cache.budgetBytes = 150_000
        let note = try XCTUnwrap(cache.enforceBudget())
        XCTAssertTrue(note.contains("more than its budget") && !note.contains("\n"), note)
        for file in try XCTUnwrap(two.map).files.values { XCTAssertTrue(FileManager.default.fileExists(atPath: file), file) }
        XCTAssertNil(cache.entries[nginx.url("b.bin")])
    }

    func testAnM3UPlaylistIsAnIndexToo() throws {
        let nginx = try XCTUnwrap(self.nginx), dir = try XCTUnwrap(self.dir)
        try ContentFixtures.picture(nginx.file("a.png"))
        try FileManager.default.createDirectory(atPath: nginx.file("sub"), withIntermediateDirectories: true)
        try ContentFixtures.picture(nginx.file("sub/b.png"), pattern: "mandelbrot")
        try ContentFixtures.write("#EXTM3U\n#EXTINF:5,first\na.png\n\n#EXTINF:5,second\n\(nginx.url("sub/b.png"))\n",
                                  to: nginx.file("list.m3u"))
        let cache = try ContentCache(directory: dir.file("cache"))
        let report = ContentSync(cache: cache).sync(nginx.url("list.m3u"))
        XCTAssertEqual(report.outcome, .changed, report.problems.joined(separator: "\n"))
        XCTAssertEqual(cache.current?.kind, .m3u)
        XCTAssertEqual(report.mediaCount, 2)
        XCTAssertEqual(ContentFixtures.bytes(try XCTUnwrap(report.map?.file(for: "sub/b.png"))), ContentFixtures.bytes(nginx.file("sub/b.png")))
        XCTAssertTrue(report.indexFile?.hasSuffix(".m3u") ?? false)
        // a local path in a server's playlist is refused with its line
        try ContentFixtures.write("#EXTM3U\na.png\nfile:///etc/passwd\n", to: nginx.file("bad.m3u"))
        let bad = ContentSync(cache: cache).sync(nginx.url("bad.m3u"))
        XCTAssertEqual(bad.outcome, .failed)
        XCTAssertTrue(bad.problems.first?.contains("bad.m3u:3:") ?? false, "\(bad.problems)")
        XCTAssertEqual(cache.current?.url, nginx.url("list.m3u"), "the last good index stays")
    }

    func testAMediumOverTheSizeCapIsRefused() throws {
        let nginx = try XCTUnwrap(self.nginx), dir = try XCTUnwrap(self.dir)
        try ContentFixtures.seeded(nginx.file("big.bin"), count: 300_000, seed: 7)
        try ContentFixtures.write(ContentFixtures.smil([("big.bin", nil)]), to: nginx.file("index.smil"))
        var settings = FetchSettings()
        settings.maxFileBytes = 100_000
        let cache = try ContentCache(directory: dir.file("cache"))
        let report = ContentSync(cache: cache, settings: settings).sync(nginx.url("index.smil"))
        XCTAssertEqual(report.outcome, .failed)
        XCTAssertEqual(report.problems, ["\(nginx.url("big.bin")): larger than 100000 bytes"])
        XCTAssertNil(cache.current)
        XCTAssertNil(cache.entries[nginx.url("big.bin")])
        XCTAssertFalse(ContentFixtures.cachedNames(dir.file("cache")).contains { $0.hasSuffix(".bin") || $0.hasSuffix(".part") })
    }
}
