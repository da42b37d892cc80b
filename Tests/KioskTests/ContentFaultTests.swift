import Foundation
import KioskCore
import KioskFetch
import XCTest

/// The content fetcher against a server that misbehaves (Fixtures/content/fault_server.py): a cut transfer is
/// continued with Range, a body that changed meanwhile is fetched again from the start, and a 404, a 500, a body
/// shorter than its length, a slow body, a body changed mid-transfer, a redirect to another scheme or an endless
/// chain of them each keep the last good index as it was, with one line naming the URL and the reason, and never
/// leave a half file in place.
final class ContentFaultTests: XCTestCase {
    private var dir: TempDir?
    private var server: FaultServer?

    override func setUpWithError() throws {
        let dir = try TempDir()
        self.dir = dir
        server = try FaultServer(dir)
    }

    override func tearDown() {
        server?.stop()
        server = nil
        dir = nil
    }

    /// Settings that give up on a stalled body within a second or two.
    private var impatient: FetchSettings {
        var settings = FetchSettings()
        settings.lowSpeedBytes = 1000
        settings.lowSpeedSeconds = 1
        settings.connectTimeout = 5
        settings.totalTimeout = 20
        return settings
    }

    func testACutTransferIsContinuedWithRange() throws {
        let server = try XCTUnwrap(self.server), dir = try XCTUnwrap(self.dir)
        try ContentFixtures.seeded(server.root + "/a.bin", count: 400_000, seed: 1)
        try ContentFixtures.write(ContentFixtures.smil([("/cut/a.bin", nil)]), to: server.root + "/index.smil")
        let cache = try ContentCache(directory: dir.file("cache"))
        let report = ContentSync(cache: cache, settings: impatient).sync(server.url("/ok/index.smil"))
        XCTAssertEqual(report.outcome, .changed, report.problems.joined(separator: "\n"))
        let file = try XCTUnwrap(report.map?.file(for: "/cut/a.bin"))
        XCTAssertEqual(ContentFixtures.bytes(file), ContentFixtures.bytes(server.root + "/a.bin"))
        let asked = server.requests().filter { $0["path"] == "/cut/a.bin" }
        XCTAssertEqual(asked.count, 2, "\(asked)")
        XCTAssertEqual(asked.last?["range"], "bytes=200000-", "the second request continues where the cut left off")
        XCTAssertNotNil(asked.last?["if_range"], "and only if the body is still the same one")
        XCTAssertEqual(report.bytesFetched, 400_000 + Int64(ContentFixtures.bytes(server.root + "/index.smil").count),
                       "no byte fetched twice")
        XCTAssertFalse(ContentFixtures.cachedNames(dir.file("cache")).contains { $0.hasSuffix(".part") })
    }

    func testABodyChangedAfterACutIsFetchedAgainFromTheStart() throws {
        let server = try XCTUnwrap(self.server), dir = try XCTUnwrap(self.dir)
        try ContentFixtures.seeded(server.root + "/a.bin.old", count: 300_000, seed: 2)
        try ContentFixtures.seeded(server.root + "/a.bin", count: 350_000, seed: 3)
        try ContentFixtures.write(ContentFixtures.smil([("/changing/a.bin", nil)]), to: server.root + "/index.smil")
        let cache = try ContentCache(directory: dir.file("cache"))
        let report = ContentSync(cache: cache, settings: impatient).sync(server.url("/ok/index.smil"))
        XCTAssertEqual(report.outcome, .changed, report.problems.joined(separator: "\n"))
        XCTAssertEqual(ContentFixtures.bytes(try XCTUnwrap(report.map?.file(for: "/changing/a.bin"))),
                       ContentFixtures.bytes(server.root + "/a.bin"), "the new body, whole, and nothing of the old one")
        let asked = server.requests().filter { $0["path"] == "/changing/a.bin" }
        XCTAssertEqual(asked.count, 2, "\(asked)")
        XCTAssertEqual(asked.last?["range"], "bytes=150000-")
    }

    func testFailuresKeepTheLastGoodIndexAndLeaveNoHalfFile() throws {
        let server = try XCTUnwrap(self.server), dir = try XCTUnwrap(self.dir)
        try ContentFixtures.seeded(server.root + "/good.bin", count: 50_000, seed: 4)
        try ContentFixtures.seeded(server.root + "/x.bin", count: 60_000, seed: 5)
        let index = server.root + "/index.smil"
        try ContentFixtures.write(ContentFixtures.smil([("/ok/good.bin", nil)]), to: index)
        let cache = try ContentCache(directory: dir.file("cache"))
        let sync = ContentSync(cache: cache, settings: impatient)
        let first = sync.sync(server.url("/ok/index.smil"))
        XCTAssertEqual(first.outcome, .changed, first.problems.joined(separator: "\n"))
        let good = try XCTUnwrap(first.index)
        let goodBytes = try XCTUnwrap(first.map).files.mapValues(ContentFixtures.bytes)
        let sum = try ContentFixtures.sha256(server.root + "/x.bin")
        let faults: [(src: String, sha256: String?, reason: String)] = [
            ("/status/404/x.bin", nil, "HTTP 404"),
            ("/status/500/x.bin", nil, "HTTP 500"),
            ("/short/x.bin", nil, "1000 bytes remaining"),
            ("/slow/x.bin", nil, "too slow"),
            ("/mixed/x.bin", sum, "not the \(sum) the index gives"),
            ("/nothing-listens-here", nil, "HTTP 404"),
        ]
        for (i, fault) in faults.enumerated() {
            try ContentFixtures.write(ContentFixtures.smil([("/ok/good.bin", nil), (fault.src, fault.sha256)]), to: index)
            try ContentFixtures.touch(index, later: Double(i + 1) * 2)
            let started = Date()
            let report = sync.sync(server.url("/ok/index.smil"))
            XCTAssertLessThan(Date().timeIntervalSince(started), 15, fault.src)
            XCTAssertEqual(report.outcome, .failed, fault.src)
            XCTAssertEqual(report.problems.count, 1, "\(fault.src): \(report.problems)")
            let problem = report.problems.first ?? ""
            XCTAssertTrue(problem.hasPrefix(server.url(fault.src) + ": ") && problem.contains(fault.reason),
                          "\(fault.src): \(problem)")
            XCTAssertEqual(report.index, good, "\(fault.src): the last good index stays")
            XCTAssertEqual(cache.current, good)
            XCTAssertEqual(try XCTUnwrap(report.map).files.mapValues(ContentFixtures.bytes), goodBytes, fault.src)
            XCTAssertNil(cache.entries[server.url(fault.src)], fault.src)
            ContentFixtures.assertNoHalfFile(cache)
            XCTAssertEqual(cache.lastCheck?.outcome, "failed")
        }
        XCTAssertFalse(ContentFixtures.cachedNames(cache.directory).contains { $0.hasSuffix(".part") },
                       "a .part kept for a resume goes once the index no longer names its URL")
    }

    func testRedirectsLeadOnlyToHTTPAndHTTPS() throws {
        let server = try XCTUnwrap(self.server), dir = try XCTUnwrap(self.dir)
        try ContentFixtures.seeded(server.root + "/a.bin", count: 10_000, seed: 6)
        let cache = try ContentCache(directory: dir.file("cache"))
        let sync = ContentSync(cache: cache, settings: impatient)
        let cases: [(src: String, reason: String)] = [
            ("/redirect/file", "a redirect to a file: URL refused (only http and https)"),
            ("/redirect/ftp", "a redirect to a ftp: URL refused (only http and https)"),
            ("/redirect/loop/0", "more than 5 redirects"),
        ]
        for (i, item) in cases.enumerated() {
            try ContentFixtures.write(ContentFixtures.smil([(item.src, nil)]), to: server.root + "/index.smil")
            try ContentFixtures.touch(server.root + "/index.smil", later: Double(i + 1) * 2)
            let report = sync.sync(server.url("/ok/index.smil"))
            XCTAssertEqual(report.outcome, .failed, item.src)
            XCTAssertEqual(report.problems, ["\(server.url(item.src)): \(item.reason)"])
        }
        XCTAssertNil(cache.current)
        // the index itself behind a redirect to file: refused before anything is read
        let report = sync.sync(server.url("/redirect/file"))
        XCTAssertEqual(report.problems, ["\(server.url("/redirect/file")): a redirect to a file: URL refused (only http and https)"])
        // a redirect to http is followed
        try ContentFixtures.write(ContentFixtures.smil([("/redirect/to/a.bin", nil)]), to: server.root + "/index.smil")
        try ContentFixtures.touch(server.root + "/index.smil", later: 20)
        let followed = sync.sync(server.url("/ok/index.smil"))
        XCTAssertEqual(followed.outcome, .changed, followed.problems.joined(separator: "\n"))
        XCTAssertEqual(followed.requests, 3, "the index, the redirect and its target")
        XCTAssertEqual(ContentFixtures.bytes(try XCTUnwrap(followed.map?.file(for: "/redirect/to/a.bin"))),
                       ContentFixtures.bytes(server.root + "/a.bin"))
    }

    func testABodyWithoutALengthIsStoppedAtTheCap() throws {
        let server = try XCTUnwrap(self.server), dir = try XCTUnwrap(self.dir)
        try ContentFixtures.write(ContentFixtures.smil([("/chunked/20000", nil)]), to: server.root + "/index.smil")
        var settings = impatient
        settings.maxFileBytes = 100 << 10
        let cache = try ContentCache(directory: dir.file("cache"))
        let started = Date()
        let report = ContentSync(cache: cache, settings: settings).sync(server.url("/ok/index.smil"))
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        XCTAssertEqual(report.problems, ["\(server.url("/chunked/20000")): larger than 102400 bytes"])
        XCTAssertLessThan(report.bytesFetched, 2 << 20, "the transfer stopped near the cap, not at 20 MiB")
        XCTAssertTrue(ContentFixtures.cachedNames(dir.file("cache")).allSatisfy { $0.hasSuffix(".smil") }, "\(ContentFixtures.cachedNames(dir.file("cache")))")
    }

    /// An index whose Refresh meta says `timeOut="1000"`: its check is given a second, so a server that answers a
    /// byte every half second fails it within seconds (one line naming the index's URL), and the last good index
    /// stays; with kiosk's own limits the same server is waited for.
    func testTheIndexsTimeOutBoundsItsCheck() throws {
        let server = try XCTUnwrap(self.server), dir = try XCTUnwrap(self.dir)
        try ContentFixtures.seeded(server.root + "/a.bin", count: 1_000, seed: 8)
        try ContentFixtures.write(ContentFixtures.smil([("/ok/a.bin", nil)]).replacingOccurrences(
            of: "<meta http-equiv=\"Refresh\"", with: "<meta timeOut=\"1000\" http-equiv=\"Refresh\""), to: server.root + "/index.smil")
        let cache = try ContentCache(directory: dir.file("cache"))
        var settings = FetchSettings()
        settings.lowSpeedBytes = 1
        settings.lowSpeedSeconds = 60
        let sync = ContentSync(cache: cache, settings: settings)
        let first = sync.sync(server.url("/ok/index.smil"))
        XCTAssertEqual(first.outcome, .changed, "\(first.problems)")
        let timeout = try XCTUnwrap(first.policy?.checkTimeout, "timeOut is read: \(String(describing: first.policy))")
        XCTAssertEqual(timeout, 1)
        let started = Date()
        let slow = sync.sync(server.url("/slow/index.smil"), checkTimeout: timeout)
        XCTAssertLessThan(Date().timeIntervalSince(started), 4, "given a second, not the minute a stall may last")
        XCTAssertEqual(slow.outcome, .failed)
        XCTAssertEqual(slow.problems.count, 1, "\(slow.problems)")
        XCTAssertTrue(slow.problems.first?.hasPrefix(server.url("/slow/index.smil") + ": ") ?? false, "\(slow.problems)")
        XCTAssertTrue(slow.problems.first?.contains("timed out") ?? false, "the time-out is the reason: \(slow.problems)")
        XCTAssertEqual(cache.current, first.index, "the last good index stays")
        ContentFixtures.assertNoHalfFile(cache)
    }
}
