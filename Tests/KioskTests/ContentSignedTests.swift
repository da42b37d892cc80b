import Foundation
import KioskCore
import KioskFetch
import KioskTrust
import XCTest

/// Signed content against nginx: with a minisign public key, only an index whose `INDEX.minisig` (made by Debian's
/// minisign) verifies is taken, and every medium must give a sha256 its body matches. A forged signature, a
/// missing one, a tampered medium or a medium without a checksum is refused with one line, and nothing changes.
final class ContentSignedTests: NginxTestCase {
    /// A key pair made by minisign (no password), as (public key file, secret key file).
    private func keyPair(_ name: String) throws -> (public: String, secret: String) {
        let dir = try XCTUnwrap(self.dir)
        let minisign = try IPCTools.require(IPCTools.onPath("minisign"), "minisign is not installed (Kiosk/setup.sh installs it)")
        let pair = (dir.file(name + ".pub"), dir.file(name + ".key"))
        let r = try BoundedProcess.run(minisign, ["-G", "-W", "-p", pair.0, "-s", pair.1], timeout: 30)
        XCTAssertEqual(r.status, 0, String(decoding: r.stderr, as: UTF8.self))
        return pair
    }

    /// Signs the served `name` with `secret` into `name.minisig`.
    private func sign(_ name: String, with secret: String) throws {
        let nginx = try XCTUnwrap(self.nginx)
        let r = try BoundedProcess.run("/usr/bin/minisign", ["-S", "-s", secret, "-m", nginx.file(name)], timeout: 30)
        XCTAssertEqual(r.status, 0, String(decoding: r.stderr, as: UTF8.self))
    }

    /// Serves two pictures and a signed index giving their sha256; the sync with the public key.
    private func signedSetup() throws -> (nginx: NginxServer, sync: ContentSync, secret: String) {
        let nginx = try XCTUnwrap(self.nginx), dir = try XCTUnwrap(self.dir)
        try ContentFixtures.picture(nginx.file("a.png"))
        try ContentFixtures.picture(nginx.file("b.png"), pattern: "mandelbrot")
        try ContentFixtures.write(ContentFixtures.smil([("a.png", try ContentFixtures.sha256(nginx.file("a.png"))),
                                                        ("b.png", try ContentFixtures.sha256(nginx.file("b.png")))]),
                                  to: nginx.file("index.smil"))
        let keys = try keyPair("content")
        try sign("index.smil", with: keys.secret)
        let key = try MinisignPublicKey(file: keys.public)
        return (nginx, ContentSync(cache: try ContentCache(directory: dir.file("cache")), key: key), keys.secret)
    }

    func testASignedIndexIsTakenAndAnUnchangedOneCostsOneRequest() throws {
        let (nginx, sync, _) = try signedSetup()
        let report = sync.sync(nginx.url("index.smil"))
        XCTAssertEqual(report.outcome, .changed, report.problems.joined(separator: "\n"))
        XCTAssertEqual(report.index?.signed, true)
        XCTAssertEqual(report.requests, 4, "the index, its signature and two media")
        XCTAssertEqual(ContentFixtures.bytes(try XCTUnwrap(report.map?.file(for: "b.png"))), ContentFixtures.bytes(nginx.file("b.png")))
        let again = sync.sync(nginx.url("index.smil"))
        XCTAssertEqual(again.outcome, .unchanged)
        XCTAssertEqual(again.requests, 1)
    }

    func testAForgedOrMissingSignatureOrATamperedMediumChangesNothing() throws {
        let (nginx, sync, _) = try signedSetup()
        let good = sync.sync(nginx.url("index.smil"))
        XCTAssertEqual(good.outcome, .changed, good.problems.joined(separator: "\n"))
        let before = ContentFixtures.cachedNames(sync.cache.directory).filter { !$0.hasSuffix(".part") }
        let other = try keyPair("forger")
        let index = nginx.file("index.smil")
        func check(_ what: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
            let report = sync.sync(nginx.url("index.smil"))
            XCTAssertEqual(report.outcome, .failed, what, file: file, line: line)
            XCTAssertEqual(report.problems.count, 1, "\(what): \(report.problems)", file: file, line: line)
            XCTAssertTrue(report.problems.first?.contains(expected) ?? false, "\(what): \(report.problems)", file: file, line: line)
            XCTAssertEqual(report.index, good.index, "\(what): the last good index stays", file: file, line: line)
            XCTAssertEqual(sync.cache.current, good.index, file: file, line: line)
            ContentFixtures.assertNoHalfFile(sync.cache, file: file, line: line)
        }
        // a new index signed by another key
        try ContentFixtures.picture(nginx.file("c.png"), pattern: "rgbtestsrc")
        try ContentFixtures.write(ContentFixtures.smil([("c.png", try ContentFixtures.sha256(nginx.file("c.png")))]), to: index)
        try sign("index.smil", with: other.secret)
        check("forged", "the signature does not verify with the content key")
        XCTAssertFalse(nginx.requests().contains { $0.hasPrefix("GET /c.png") }, "nothing of a refused index is fetched")
        // no signature at all
        try FileManager.default.removeItem(atPath: index + ".minisig")
        check("unsigned", "its signature: \(nginx.url("index.smil.minisig")): HTTP 404")
        // a signed index whose medium is not the one it names
        let keys = try signedKeysAgain()
        try ContentFixtures.write(ContentFixtures.smil([("c.png", try ContentFixtures.sha256(nginx.file("a.png")))]), to: index)
        try sign("index.smil", with: keys)
        check("tampered", "\(nginx.url("c.png")): SHA-256 \(try ContentFixtures.sha256(nginx.file("c.png")))")
        // a signed index with a medium that has no checksum
        try ContentFixtures.write(ContentFixtures.smil([("a.png", try ContentFixtures.sha256(nginx.file("a.png"))), ("c.png", nil)]), to: index)
        try sign("index.smil", with: keys)
        check("no sha256", "no sha256 attribute")
        XCTAssertEqual(ContentFixtures.cachedNames(sync.cache.directory).filter { !$0.hasSuffix(".part") && !$0.hasSuffix(".smil") },
                       before.filter { !$0.hasSuffix(".smil") }, "no medium of a refused index stays in the cache")
    }

    /// The secret key of the pair `signedSetup` made.
    private func signedKeysAgain() throws -> String { try XCTUnwrap(dir).file("content.key") }
}
