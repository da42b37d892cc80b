import Foundation
import KioskCore
import KioskFetch
import KioskMedia
import KioskTrust
import XCTest

/// Signed bundles from a USB stick (`BundleImport`, `kiosk content import`): a stand-in stick (a temporary folder)
/// holding `kiosk/index.smil`, signed by Debian's minisign, and media made by ffmpeg. A good bundle becomes the
/// cache's last good index for the URL it names, byte for byte, and plays through its ContentMap; an unsigned or
/// forged bundle, a tampered, missing or unsummed medium, a src or symlink leaving the bundle, and files over the caps
/// are refused with one line naming the bundle's file, and the cache folder is byte for byte as it was.
final class ContentBundleTests: XCTestCase {
    private var dir: TempDir?
    private var keys: MinisignTool.KeyPair?

    override func setUpWithError() throws {
        let dir = try TempDir()
        self.dir = dir
        keys = try MinisignTool.generate(in: dir, name: "content")
    }

    override func tearDown() {
        dir = nil
        keys = nil
    }

    /// A signed bundle at `DIR/name` with two pictures (`media/a.png`, `media/b c.png` named by its absolute URL) and a
    /// clip.
    private func goodBundle(_ name: String = "stick") throws -> StickBundle {
        let dir = try XCTUnwrap(self.dir)
        let bundle = try StickBundle(dir.file(name))
        try ContentFixtures.picture(bundle.file("media/a.png"))
        try ContentFixtures.picture(bundle.file("media/b c.png"), pattern: "mandelbrot")
        try ContentFixtures.clip(bundle.file("media/clip.mp4"))
        // the absolute src's sum given here (the helper sums files named by their path)
        try bundle.writeIndex([StickBundle.Entry(src: "media/a.png"),
                               StickBundle.Entry(src: "https://cms.example/screens/lobby/media/b%20c.png",
                                                 sha256: try ContentFixtures.sha256(bundle.file("media/b c.png"))),
                               StickBundle.Entry(element: "video", src: "media/clip.mp4")])
        try bundle.sign(with: try XCTUnwrap(keys))
        return bundle
    }

    /// An importer into `DIR/cache` trusting the test key.
    private func importer(settings: FetchSettings = FetchSettings()) throws -> BundleImport {
        let dir = try XCTUnwrap(self.dir), keys = try XCTUnwrap(self.keys)
        return BundleImport(cache: try ContentCache(directory: dir.file("cache")), key: try MinisignPublicKey(file: keys.publicKey),
                            settings: settings)
    }

    func testAGoodBundleBecomesTheCurrentIndexByteForByteAndPlays() throws {
        let bundle = try goodBundle()
        let importer = try importer()
        let report = importer.importBundle(from: bundle.stick, expectedURL: StickBundle.url)
        XCTAssertEqual(report.outcome, .imported, report.problems.joined(separator: "\n"))
        XCTAssertEqual(report.bundle, bundle.index)
        XCTAssertEqual(report.indexURL, StickBundle.url)
        XCTAssertEqual(report.filesCopied, 4, "the index and three media")
        let current = try XCTUnwrap(importer.cache.current)
        XCTAssertEqual(current.url, StickBundle.url)
        XCTAssertTrue(current.signed)
        XCTAssertEqual(current.refreshSeconds, 60)
        XCTAssertEqual(ContentFixtures.bytes(importer.cache.indexPath(of: current)), ContentFixtures.bytes(bundle.index))
        let map = importer.cache.map(of: current)
        for (src, file) in [("media/a.png", "media/a.png"), ("media/b%20c.png", "media/b c.png"), ("media/clip.mp4", "media/clip.mp4")] {
            let cached = try XCTUnwrap(map.file(for: src), src)
            XCTAssertTrue(cached.hasPrefix(importer.cache.directory + "/files/"), cached)
            XCTAssertFalse(cached.contains("a.png") || cached.contains("clip"), "cache files are named by CacheNames: \(cached)")
            XCTAssertEqual(ContentFixtures.bytes(cached), ContentFixtures.bytes(bundle.file(file)), src)
        }
        XCTAssertFalse(ContentFixtures.cachedNames(importer.cache.directory).contains { $0.hasSuffix(".import") || $0.hasSuffix(".tmp") })
        // the cached index plays through its map, as a fetched one does
        let layout = try SMILFile.load(importer.cache.indexPath(of: current), content: map)
        XCTAssertEqual(layout.problems, [])
        XCTAssertEqual(layout.paths.count, 3)
        // a restart finds it; the same stick again copies nothing
        XCTAssertEqual(try ContentCache(directory: importer.cache.directory).current, current)
        let again = importer.importBundle(from: bundle.stick)
        XCTAssertEqual(again.outcome, .unchanged, again.problems.joined(separator: "\n"))
        XCTAssertEqual(again.filesCopied, 0)
        XCTAssertEqual(importer.cache.current, current)
        // a new picture on the stick: only it and the index are copied, and the old index is kept as the previous one
        try ContentFixtures.picture(bundle.file("media/a.png"), pattern: "rgbtestsrc")
        try bundle.writeIndex([StickBundle.Entry(src: "media/a.png"),
                               StickBundle.Entry(src: "media/b%20c.png", sha256: try ContentFixtures.sha256(bundle.file("media/b c.png"))),
                               StickBundle.Entry(element: "video", src: "media/clip.mp4")])
        try bundle.sign(with: try XCTUnwrap(keys))
        let changed = importer.importBundle(from: bundle.stick)
        XCTAssertEqual(changed.outcome, .imported, changed.problems.joined(separator: "\n"))
        XCTAssertEqual(changed.filesCopied, 2)
        XCTAssertEqual(importer.cache.previous, current)
        XCTAssertEqual(ContentFixtures.bytes(try XCTUnwrap(changed.map?.file(for: "media/a.png"))), ContentFixtures.bytes(bundle.file("media/a.png")))
        ContentFixtures.assertNoHalfFile(importer.cache)
    }

    /// Imports `bundle` and checks it is refused with exactly one line containing `expected` and starting with
    /// `prefix`, and that the cache folder is byte for byte `before`.
    private func assertRefused(_ importer: BundleImport, _ folder: String, _ expected: String, prefix: String? = nil,
                               before: [String: Data], file: StaticString = #filePath, line: UInt = #line) {
        let report = importer.importBundle(from: folder)
        XCTAssertEqual(report.outcome, .refused, expected, file: file, line: line)
        XCTAssertEqual(report.problems.count, 1, "\(expected): \(report.problems)", file: file, line: line)
        XCTAssertTrue(report.problems.first?.contains(expected) ?? false, "\(expected): \(report.problems)", file: file, line: line)
        if let prefix {
            XCTAssertTrue(report.problems.first?.hasPrefix(prefix) ?? false, "\(prefix): \(report.problems)", file: file, line: line)
        }
        XCTAssertEqual(report.filesCopied, 0, file: file, line: line)
        let after = StickBundle.snapshot(importer.cache.directory)
        XCTAssertEqual(after.keys.sorted(), before.keys.sorted(), "\(expected): the cache's files", file: file, line: line)
        XCTAssertTrue(after == before, "\(expected): the cache's bytes changed", file: file, line: line)
    }

    func testAnUnsignedOrForgedBundleChangesNothing() throws {
        let dir = try XCTUnwrap(self.dir), keys = try XCTUnwrap(self.keys)
        let importer = try importer()
        let good = importer.importBundle(from: try goodBundle().stick)
        XCTAssertEqual(good.outcome, .imported, good.problems.joined(separator: "\n"))
        let before = StickBundle.snapshot(importer.cache.directory)
        let other = try StickBundle(dir.file("other"))
        try ContentFixtures.picture(other.file("media/new.png"), pattern: "rgbtestsrc")
        try other.writeIndex([StickBundle.Entry(src: "media/new.png")])
        assertRefused(importer, other.stick, "refused: unsigned (no index.smil.minisig beside it)", prefix: other.index, before: before)
        let forger = try MinisignTool.generate(in: dir, name: "forger")
        try other.sign(with: forger)
        assertRefused(importer, other.stick, "does not verify with the content key (signed by key", prefix: other.index, before: before)
        try other.sign(with: keys)
        try ContentFixtures.write(StickBundle.smil([StickBundle.Entry(src: "media/new.png", sha256: String(repeating: "0", count: 64))]),
                                  to: other.index)
        assertRefused(importer, other.stick, "the signature does not match the file (changed or forged)", prefix: other.index, before: before)
        try ContentFixtures.write("untrusted comment: nothing\nnot base64\n", to: other.signature)
        assertRefused(importer, other.stick, "does not verify with the content key", prefix: other.index, before: before)
        // signed, but naming no URL, or one that is not http(s), or another than the one played
        try other.writeIndex([StickBundle.Entry(src: "media/new.png")], url: nil)
        try other.sign(with: keys)
        assertRefused(importer, other.stick, "no <meta name=\"kiosk-url\"", before: before)
        try other.writeIndex([StickBundle.Entry(src: "media/new.png")], url: "file:///etc/screen.smil")
        try other.sign(with: keys)
        assertRefused(importer, other.stick, "names \"file:///etc/screen.smil\", not an http or https URL", before: before)
        try other.writeIndex([StickBundle.Entry(src: "media/new.png")], url: "https://cms.example/screens/hall/index.smil")
        try other.sign(with: keys)
        let elsewhere = importer.importBundle(from: other.stick, expectedURL: StickBundle.url)
        XCTAssertEqual(elsewhere.problems, ["\(other.index): refused: it stands for https://cms.example/screens/hall/index.smil, not "
                                            + "the \(StickBundle.url) this kiosk plays"])
        XCTAssertTrue(StickBundle.snapshot(importer.cache.directory) == before)
        // no bundle at all, and an M3U playlist (which cannot give sums)
        let empty = dir.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        try ContentFixtures.write("#EXTM3U\na.png\n", to: empty + "/index.m3u")
        assertRefused(importer, empty, "\(empty): no bundle: neither kiosk/index.smil nor index.smil in it (index.m3u is no bundle index",
                      before: before)
        assertRefused(importer, dir.file("absent"), "\(dir.file("absent")): no bundle: No such file or directory", before: before)
    }

    func testATamperedMissingOrUnsummedMediumChangesNothing() throws {
        let dir = try XCTUnwrap(self.dir), keys = try XCTUnwrap(self.keys)
        let importer = try importer()
        let good = importer.importBundle(from: try goodBundle().stick)
        XCTAssertEqual(good.outcome, .imported, good.problems.joined(separator: "\n"))
        let before = StickBundle.snapshot(importer.cache.directory)
        let other = try StickBundle(dir.file("other"))
        try ContentFixtures.picture(other.file("media/new.png"), pattern: "rgbtestsrc")
        try ContentFixtures.picture(other.file("media/kept.png"), pattern: "smptebars")
        try other.writeIndex([StickBundle.Entry(src: "media/kept.png"), StickBundle.Entry(src: "media/new.png")])
        try other.sign(with: keys)
        let signedSum = try ContentFixtures.sha256(other.file("media/new.png"))
        try ContentFixtures.picture(other.file("media/new.png"), pattern: "mandelbrot")
        assertRefused(importer, other.stick, "refused: SHA-256 \(try ContentFixtures.sha256(other.file("media/new.png"))), not the "
                      + "\(signedSum) the signed index gives (\(other.index):", prefix: other.file("media/new.png"), before: before)
        try FileManager.default.removeItem(atPath: other.file("media/new.png"))
        assertRefused(importer, other.stick, "\(other.file("media/new.png")): refused: missing from the bundle (named at \(other.index):",
                      before: before)
        try other.writeIndex([StickBundle.Entry(src: "media/kept.png"), StickBundle.Entry(src: "media/new.png")], summed: false)
        try other.sign(with: keys)
        let unsummed = importer.importBundle(from: other.stick)
        XCTAssertEqual(unsummed.outcome, .refused)
        XCTAssertEqual(unsummed.problems.count, 2, "\(unsummed.problems)")
        XCTAssertTrue(unsummed.problems.allSatisfy { $0.hasPrefix(other.index + ":") && $0.contains("no sha256 attribute") },
                      "\(unsummed.problems)")
        XCTAssertTrue(StickBundle.snapshot(importer.cache.directory) == before)
        XCTAssertEqual(importer.cache.current, good.index)
    }

    func testSourcesAndSymlinksThatLeaveTheBundleAreRefused() throws {
        let dir = try XCTUnwrap(self.dir), keys = try XCTUnwrap(self.keys)
        let importer = try importer()
        let good = importer.importBundle(from: try goodBundle().stick)
        XCTAssertEqual(good.outcome, .imported, good.problems.joined(separator: "\n"))
        let before = StickBundle.snapshot(importer.cache.directory)
        let secret = dir.file("secret.png")
        try ContentFixtures.picture(secret, pattern: "rgbtestsrc")
        let secretSum = try ContentFixtures.sha256(secret)
        let other = try StickBundle(dir.file("other"))
        try ContentFixtures.picture(other.file("media/ok.png"))
        let ok = StickBundle.Entry(src: "media/ok.png", sha256: try ContentFixtures.sha256(other.file("media/ok.png")))
        func refuse(_ src: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
            try other.writeIndex([ok, StickBundle.Entry(src: src, sha256: secretSum)])
            try other.sign(with: keys)
            assertRefused(importer, other.stick, expected, before: before, file: file, line: line)
        }
        let outside = "refused: not in the bundle (its media lie beside the index: a relative src, or a URL under "
            + "https://cms.example/screens/lobby/)"
        try refuse("../../secret.png", "https://cms.example/secret.png: " + outside)
        try refuse("/etc/passwd", "https://cms.example/etc/passwd: " + outside)
        try refuse("media/%2e%2e/%2e%2e/%2e%2e/secret.png", outside)
        try refuse("https://cdn.example/screens/lobby/secret.png", outside)
        try refuse("file:///etc/passwd", "src \"file:///etc/passwd\": not an http or https URL; refused")
        // symlinks out of the bundle, absolute and relative
        try FileManager.default.createSymbolicLink(atPath: other.file("media/abs.png"), withDestinationPath: secret)
        try refuse("media/abs.png", "\(other.file("media/abs.png")): refused: ")
        try FileManager.default.createSymbolicLink(atPath: other.file("media/rel.png"), withDestinationPath: "../../../secret.png")
        try refuse("media/rel.png", "\(other.file("media/rel.png")): refused: ")
        // the kiosk folder itself a symlink off the stick
        let away = try StickBundle(dir.file("away"))
        try ContentFixtures.picture(away.file("media/ok.png"))
        try away.writeIndex([StickBundle.Entry(src: "media/ok.png")])
        try away.sign(with: keys)
        let linked = dir.file("linked")
        try FileManager.default.createDirectory(atPath: linked, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: linked + "/kiosk", withDestinationPath: away.folder)
        assertRefused(importer, linked, "\(linked)/kiosk: refused: ", before: before)
        // a symlink that stays inside the bundle is followed
        try FileManager.default.createSymbolicLink(atPath: other.file("media/alias.png"), withDestinationPath: "ok.png")
        try other.writeIndex([ok, StickBundle.Entry(src: "media/alias.png", sha256: ok.sha256)])
        try other.sign(with: keys)
        let inside = importer.importBundle(from: other.stick)
        XCTAssertEqual(inside.outcome, .imported, inside.problems.joined(separator: "\n"))
        XCTAssertEqual(ContentFixtures.bytes(try XCTUnwrap(inside.map?.file(for: "media/alias.png"))),
                       ContentFixtures.bytes(other.file("media/ok.png")))
    }

    func testFilesOverTheCapsAreRefusedBeforeTheyAreCopied() throws {
        let dir = try XCTUnwrap(self.dir), keys = try XCTUnwrap(self.keys)
        let importer = try importer()
        let good = importer.importBundle(from: try goodBundle().stick)
        XCTAssertEqual(good.outcome, .imported, good.problems.joined(separator: "\n"))
        let before = StickBundle.snapshot(importer.cache.directory)
        let other = try StickBundle(dir.file("other"))
        // a 3 GiB medium (sparse: no disk used), over the 2 GiB a medium may: refused from its size, nothing read
        let huge = other.file("media/huge.mp4")
        XCTAssertTrue(FileManager.default.createFile(atPath: huge, contents: nil))
        XCTAssertEqual(truncate(huge, 3 << 30), 0)
        try other.writeIndex([StickBundle.Entry(element: "video", src: "media/huge.mp4", sha256: String(repeating: "0", count: 64))])
        try other.sign(with: keys)
        let start = Date()
        assertRefused(importer, other.stick, "\(huge): refused: 3221225472 bytes, more than the 2048 MiB a medium may", before: before)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "refused from its size, not read")
        // an index over 4 MiB (sparse too)
        let big = try StickBundle(dir.file("big"))
        XCTAssertTrue(FileManager.default.createFile(atPath: big.index, contents: nil))
        XCTAssertEqual(truncate(big.index, 5 << 20), 0)
        assertRefused(importer, big.stick, "\(big.index): refused: 5242880 bytes, more than the 4 MiB an index may", before: before)
        // with smaller caps: media adding up to more than an index may, and more media than an index may name
        try ContentFixtures.picture(other.file("media/a.png"))
        try ContentFixtures.picture(other.file("media/b.png"), pattern: "mandelbrot")
        try other.writeIndex([StickBundle.Entry(src: "media/a.png"), StickBundle.Entry(src: "media/b.png")])
        try other.sign(with: keys)
        var settings = FetchSettings()
        settings.maxIndexTotalBytes = 1000
        assertRefused(try self.importer(settings: settings), other.stick, "refused: its media add up to", before: before)
        settings = FetchSettings()
        settings.maxReferences = 1
        assertRefused(try self.importer(settings: settings), other.stick, "refused: names 2 media, more than the 1 an index may",
                      before: before)
    }

    func testTheCommandImportsOnceWithOneLine() throws {
        let dir = try XCTUnwrap(self.dir), keys = try XCTUnwrap(self.keys)
        let bundle = try goodBundle()
        let cache = dir.file("cli-cache")
        let args = ["content", "import", bundle.stick, "--cache", cache, "--content-key", keys.publicKey]
        let bytes = ["index.smil", "media/a.png", "media/b c.png", "media/clip.mp4"].map { ContentFixtures.bytes(bundle.file($0)).count }
            .reduce(0, +)
        let first = try CLITests.run(args, timeout: 60)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, "\(bundle.index) for \(StickBundle.url): imported, 3 media, 4 files (\(bytes) bytes) copied\n")
        XCTAssertEqual(first.stderr, "")
        XCTAssertEqual(try ContentCache(directory: cache).current?.url, StickBundle.url)
        let second = try CLITests.run(args, timeout: 60)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.stdout, "\(bundle.index) for \(StickBundle.url): unchanged, 3 media, 0 files (0 bytes) copied\n")
        let before = StickBundle.snapshot(cache)
        try FileManager.default.removeItem(atPath: bundle.signature)
        let unsigned = try CLITests.run(args, timeout: 60)
        XCTAssertEqual(unsigned.status, 1)
        XCTAssertEqual(unsigned.stdout, "")
        XCTAssertEqual(unsigned.stderr, "kiosk: \(bundle.index): refused: unsigned (no index.smil.minisig beside it); a bundle "
                       + "must be signed with the content key\n")
        XCTAssertTrue(StickBundle.snapshot(cache) == before, "a refused bundle changes nothing")
        let usage: [([String], String)] = [
            (["content", "import", "--cache", cache, "--content-key", keys.publicKey], "content import: give exactly one bundle folder (got 0)"),
            (["content", "import", bundle.stick, "--content-key", keys.publicKey], "content import: --cache DIR is required"),
            (["content", "import", bundle.stick, "--cache", cache], "content import: --content-key FILE is required"),
            (["content", "import", bundle.stick, "--cache", cache, "--content-key", dir.file("missing.pub")], "--content-key: "),
        ]
        for (args, expected) in usage {
            let r = try CLITests.run(args, timeout: 30)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains(expected), "\(args): \(r.stderr)")
        }
        let help = try CLITests.run(["content", "--help"], timeout: 30)
        XCTAssertTrue(help.stdout.contains("kiosk content import DIR --cache DIR --content-key FILE"), help.stdout)
    }
}
