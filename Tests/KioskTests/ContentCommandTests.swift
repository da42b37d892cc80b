import Foundation
import KioskCore
import KioskFetch
import XCTest

/// `kiosk content sync URL --cache DIR` end to end against nginx: its summary line and exit status, its usage
/// errors, hostile indexes refused quickly and in bounded memory, and a full disk (a small tmpfs when root can mount
/// one, and always a file size limit) that keeps the last good index and leaves no half file.
final class ContentCommandTests: NginxTestCase {
    private var mounted: String?

    override func tearDown() {
        nginx?.stop()  // before the unmount: it may serve from the mounted folder
        if let mounted { _ = try? BoundedProcess.run("/usr/bin/umount", ["-l", mounted], timeout: 30) }
        mounted = nil
        super.tearDown()
    }

    /// Runs `kiosk content ARGS`, bounded; with `peak`, its peak resident size (VmHWM, MiB) read while it runs.
    private func content(_ args: [String], timeout: Double = 60) throws -> (run: CLITests.Run, peakMiB: Double) {
        let box = PeakBox()
        let r = try CLITests.run(["content"] + args, timeout: timeout, sample: { pid in box.sample(pid) })
        return (r, box.peak)
    }

    /// A served index of two pictures.
    private func serve() throws -> NginxServer {
        let nginx = try XCTUnwrap(self.nginx)
        try ContentFixtures.picture(nginx.file("a.png"))
        try ContentFixtures.picture(nginx.file("b.png"), pattern: "mandelbrot")
        try ContentFixtures.write(ContentFixtures.smil([("a.png", nil), ("b.png", nil)], refresh: 30), to: nginx.file("index.smil"))
        return nginx
    }

    func testSyncSaysOneLineAndExitsZeroWhenEverythingIsLocal() throws {
        let nginx = try serve(), cache = try XCTUnwrap(dir).file("cache")
        let url = nginx.url("index.smil")
        let bytes = ["index.smil", "a.png", "b.png"].map { ContentFixtures.bytes(nginx.file($0)).count }.reduce(0, +)
        let first = try content(["sync", url, "--cache", cache]).run
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, "\(url): changed, 2 media, \(bytes) bytes fetched, 3 requests, refresh every 30 s\n")
        XCTAssertEqual(first.stderr, "")
        let second = try content(["sync", url, "--cache", cache, "--content-rate", "500", "--content-cache-mb", "10"]).run
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.stdout, "\(url): unchanged, 2 media, 0 bytes fetched, 1 request, refresh every 30 s\n")
        // a missing medium: one line naming it, exit 1, the last good index stays
        try ContentFixtures.write(ContentFixtures.smil([("a.png", nil), ("gone.png", nil)]), to: nginx.file("index.smil"))
        try ContentFixtures.touch(nginx.file("index.smil"), later: 5)
        let third = try content(["sync", url, "--cache", cache]).run
        XCTAssertEqual(third.status, 1)
        XCTAssertEqual(third.stdout, "")
        let lines = third.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "kiosk: \(nginx.url("gone.png")): HTTP 404", third.stderr)
        XCTAssertEqual(lines.count, 2, third.stderr)
        XCTAssertTrue(lines.last?.hasSuffix("1 problem; the last good index stays") ?? false, third.stderr)
        XCTAssertEqual(try ContentCache(directory: cache).current?.media.count, 2)
    }

    func testUsageErrorsAreOneLineAndStatus2() throws {
        let cache = try XCTUnwrap(dir).file("cache")
        let cases: [([String], String)] = [
            ([], "content: give 'sync URL'"),
            (["fetch", "http://x/"], "content: give 'sync URL'"),
            (["sync", "ftp://127.0.0.1/a.smil", "--cache", cache], "content sync: 'ftp://127.0.0.1/a.smil' is not an http or https URL"),
            (["sync", "http://127.0.0.1/a.smil"], "content sync: --cache DIR is required"),
            (["sync", "http://127.0.0.1/a.smil", "--cache", cache, "--content-key", cache + "/missing.pub"], "--content-key: "),
            (["sync", "http://127.0.0.1/a.smil", "--cache", cache, "--content-ca", cache + "/missing.pem"], "--content-ca: "),
        ]
        for (args, expected) in cases {
            let r = try content(args).run
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("kiosk: \(expected)"), "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, r.stderr)
        }
        let help = try content(["--help"]).run
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("--content-cache-mb N"), help.stdout)
    }

    func testHostileIndexesAreRefusedQuicklyAndSmall() throws {
        let nginx = try serve(), dir = try XCTUnwrap(self.dir)
        let baseline = try content(["sync", nginx.url("index.smil"), "--cache", dir.file("baseline")])
        XCTAssertEqual(baseline.run.status, 0, baseline.run.stderr)
        var many = "<smil><head/><body><seq>\n"
        for i in 0..<100_000 { many += "<img src=\"m/\(i).png\" dur=\"1s\"/>\n" }
        try ContentFixtures.write(many + "</seq></body></smil>\n", to: nginx.file("many.smil"))
        try ContentFixtures.write(ContentFixtures.smil([("a.png", nil), ("file:///etc/passwd", nil)]), to: nginx.file("file.smil"))
        try ContentFixtures.write(ContentFixtures.smil([("ftp://127.0.0.1/a.png", nil), ("b.png", nil)]), to: nginx.file("ftp.smil"))
        var bomb = "<?xml version=\"1.0\"?>\n<!DOCTYPE smil [\n<!ENTITY a \"aaaaaaaaaa\">\n"
        for i in 1..<10 { bomb += "<!ENTITY \(Character(UnicodeScalar(UInt8(97 + i)))) \"" + String(repeating: "&\(Character(UnicodeScalar(UInt8(96 + i))));", count: 10) + "\">\n" }
        try ContentFixtures.write(bomb + "]>\n<smil><body><img src=\"&j;.png\"/></body></smil>\n", to: nginx.file("bomb.smil"))
        try ContentFixtures.seeded(nginx.file("huge.smil"), count: 6 << 20, seed: 9)
        let cases: [(name: String, reason: String)] = [
            ("many.smil", "names 100000 media, more than the 10000 an index may; refused"),
            ("file.smil", ":9: <img> src \"file:///etc/passwd\": not an http or https URL; left out"),
            ("ftp.smil", ":8: <img> src \"ftp://127.0.0.1/a.png\": not an http or https URL; left out"),
            ("bomb.smil", ":2: a DOCTYPE (DTDs and entities are not read)"),
            ("huge.smil", ": larger than 4 MiB"),
        ]
        for item in cases {
            let before = nginx.requests().count
            let r = try content(["sync", nginx.url(item.name), "--cache", dir.file("cache")])
            XCTAssertEqual(r.run.status, 1, "\(item.name): \(r.run.stderr)")
            XCTAssertLessThan(r.run.seconds, 10, item.name)
            XCTAssertLessThan(r.peakMiB, baseline.peakMiB + 40, "\(item.name): peak \(r.peakMiB) MiB against \(baseline.peakMiB) MiB")
            XCTAssertTrue(r.run.stderr.hasPrefix("kiosk: \(nginx.url(item.name))") && r.run.stderr.contains(item.reason),
                          "\(item.name): \(r.run.stderr)")
            XCTAssertEqual(nginx.requests().count, before + 1, "\(item.name): nothing but the index is asked for")
        }
        XCTAssertNil(try ContentCache(directory: dir.file("cache")).current)
    }

    func testAFullDiskKeepsTheLastGoodIndexAndLeavesNoHalfFile() throws {
        let nginx = try serve(), dir = try XCTUnwrap(self.dir)
        try ContentFixtures.seeded(nginx.file("big.bin"), count: 2 << 20, seed: 11)
        var folders: [(cache: String, run: ([String]) throws -> CLITests.Run, error: String)] = []
        // a file size limit (any user): writes past it fail with EFBIG, as kiosk ignores SIGXFSZ
        folders.append((dir.file("limited"), { args in
            try BoundedProcess.run("/usr/bin/prlimit", ["--fsize=\(1 << 20)", CLITests.kiosk, "content"] + args, timeout: 60)
                .asRun
        }, "File too large"))
        // a small tmpfs, where root may mount one
        if getuid() == 0 {
            let small = dir.file("small")
            try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
            let mount = try BoundedProcess.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", small], timeout: 30)
            if mount.status == 0 {
                mounted = small
                folders.append((small + "/cache", { args in try CLITests.run(["content"] + args, timeout: 60) }, "No space left on device"))
            } else {
                print("ContentCommandTests: root cannot mount a tmpfs here (\(String(decoding: mount.stderr, as: UTF8.self))); the file size limit stands for a full disk")
            }
        }
        for folder in folders {
            try ContentFixtures.write(ContentFixtures.smil([("a.png", nil), ("b.png", nil)]), to: nginx.file("index.smil"))
            try ContentFixtures.touch(nginx.file("index.smil"), later: 2)
            let good = try folder.run(["sync", nginx.url("index.smil"), "--cache", folder.cache])
            XCTAssertEqual(good.status, 0, good.stderr)
            let before = try XCTUnwrap(try ContentCache(directory: folder.cache).current)
            try ContentFixtures.write(ContentFixtures.smil([("a.png", nil), ("big.bin", nil)]), to: nginx.file("index.smil"))
            try ContentFixtures.touch(nginx.file("index.smil"), later: 4)
            let full = try folder.run(["sync", nginx.url("index.smil"), "--cache", folder.cache])
            XCTAssertEqual(full.status, 1, full.stderr)
            XCTAssertTrue(full.stderr.hasPrefix("kiosk: \(nginx.url("big.bin")): write ") && full.stderr.contains(folder.error),
                          full.stderr)
            let cache = try ContentCache(directory: folder.cache)
            XCTAssertEqual(cache.current, before, "the last good index stays")
            XCTAssertTrue(cache.isWhole(before))
            ContentFixtures.assertNoHalfFile(cache)
            XCTAssertFalse(ContentFixtures.cachedNames(folder.cache).contains { $0.hasSuffix(".part") }, "a full disk's .part is removed")
        }
    }
}

/// The largest VmHWM seen of a process sampled while it runs, in MiB.
private final class PeakBox: @unchecked Sendable {
    private(set) var peak: Double = 0

    func sample(_ pid: Int32) {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let row = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kB = Double(row.split(separator: " ").dropFirst().first ?? "") else { return }
        peak = max(peak, kB / 1024)
    }
}

private extension BoundedProcess.Result {
    /// As `CLITests.run` returns it.
    var asRun: CLITests.Run {
        CLITests.Run(status: status, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self),
                     seconds: seconds)
    }
}
