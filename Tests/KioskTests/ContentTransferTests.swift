import Foundation
import KioskCore
import KioskFetch
import KioskTrust
import XCTest

/// HTTPTransfer and the transfer settings against real servers: TLS verified against the CA given (and refused
/// without it or with another), the bandwidth cap, at most four transfers at once, HEAD, PUT and POST with the
/// kiosk User-Agent.
final class ContentTransferTests: XCTestCase {
    private var dir: TempDir?
    private var servers: [() -> Void] = []

    override func setUpWithError() throws { dir = try TempDir() }

    override func tearDown() {
        for stop in servers { stop() }
        servers = []
        dir = nil
    }

    private func nginx(certificate: (chain: String, key: String)? = nil) throws -> NginxServer {
        let server = try NginxServer(try XCTUnwrap(dir), certificate: certificate)
        servers.append(server.stop)
        return server
    }

    private func faults() throws -> FaultServer {
        let server = try FaultServer(try XCTUnwrap(dir))
        servers.append(server.stop)
        return server
    }

    /// Runs openssl with `arguments`, bounded; fails the test on an error.
    private func openssl(_ arguments: [String]) throws {
        let r = try BoundedProcess.run("/usr/bin/openssl", arguments, timeout: 60)
        XCTAssertEqual(r.status, 0, String(decoding: r.stderr, as: UTF8.self))
    }

    /// A CA named `name` (certificate and key files), made by openssl.
    private func authority(_ name: String) throws -> (certificate: String, key: String) {
        let dir = try XCTUnwrap(self.dir)
        let ca = (dir.file(name + ".pem"), dir.file(name + ".key"))
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", ca.1,
                     "-out", ca.0, "-days", "2", "-subj", "/CN=kiosk test \(name)"])
        return ca
    }

    func testHTTPSIsVerifiedAgainstTheGivenCA() throws {
        let dir = try XCTUnwrap(self.dir)
        let ca = try authority("ca"), other = try authority("other")
        let key = dir.file("server.key"), request = dir.file("server.csr"), chain = dir.file("server.pem"), ext = dir.file("san.ext")
        try ContentFixtures.write("subjectAltName=IP:127.0.0.1\n", to: ext)
        try openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", request,
                     "-subj", "/CN=127.0.0.1"])
        try openssl(["x509", "-req", "-in", request, "-CA", ca.certificate, "-CAkey", ca.key, "-CAcreateserial", "-out", chain,
                     "-days", "2", "-extfile", ext])
        let server = try nginx(certificate: (chain, key))
        try ContentFixtures.picture(server.file("a.png"))
        try ContentFixtures.write(ContentFixtures.smil([("a.png", nil)]), to: server.file("index.smil"))
        let url = server.url("index.smil")
        XCTAssertTrue(url.hasPrefix("https://"))
        for (name, caFile) in [("the system's CAs", nil), ("another CA", other.certificate)] as [(String, String?)] {
            var settings = FetchSettings()
            settings.caFile = caFile
            let report = ContentSync(cache: try ContentCache(directory: dir.file("cache-\(name.count)")), settings: settings).sync(url)
            XCTAssertEqual(report.outcome, .failed, name)
            XCTAssertEqual(report.problems.count, 1, "\(name): \(report.problems)")
            XCTAssertTrue(report.problems.first?.hasPrefix("\(url): SSL certificate problem") ?? false, "\(name): \(report.problems)")
        }
        var settings = FetchSettings()
        settings.caFile = ca.certificate
        let report = ContentSync(cache: try ContentCache(directory: dir.file("cache")), settings: settings).sync(url)
        XCTAssertEqual(report.outcome, .changed, report.problems.joined(separator: "\n"))
        XCTAssertEqual(ContentFixtures.bytes(try XCTUnwrap(report.map?.file(for: "a.png"))), ContentFixtures.bytes(server.file("a.png")))
    }

    func testTheBandwidthCapSlowsATransferDown() throws {
        let server = try nginx()
        try ContentFixtures.seeded(server.file("a.bin"), count: 3_000_000, seed: 21)
        let part = try XCTUnwrap(dir).file("a.part")
        var settings = FetchSettings()
        let free = Date()
        let fast = try HTTPTransfer(HTTPRequest(url: server.url("a.bin")), into: .file(path: part, limit: 8 << 20, resume: nil),
                                    settings: settings).perform()
        let freeSeconds = Date().timeIntervalSince(free)
        XCTAssertEqual(fast.fileBytes, 3_000_000)
        settings.maxBytesPerSecond = 1_000_000
        let capped = Date()
        let slow = try HTTPTransfer(HTTPRequest(url: server.url("a.bin")), into: .file(path: part, limit: 8 << 20, resume: nil),
                                    settings: settings).perform()
        let cappedSeconds = Date().timeIntervalSince(capped)
        XCTAssertEqual(slow.fileBytes, 3_000_000)
        // libcurl lets a first burst through (what one read loop takes, about 1.5 MB here), then waits to keep the average
        XCTAssertGreaterThan(cappedSeconds, 1.2, "3 MB at 1 MB/s")
        XCTAssertLessThan(freeSeconds, cappedSeconds / 3, "without the cap")
        XCTAssertEqual(ContentFixtures.bytes(part), ContentFixtures.bytes(server.file("a.bin")))
    }

    func testAtMostFourTransfersRunAtOnce() throws {
        let server = try faults()
        var sources: [(src: String, sha256: String?)] = []
        for i in 0..<10 {
            try ContentFixtures.seeded(server.root + "/m\(i).bin", count: 2_000, seed: UInt64(30 + i))
            sources.append(("/concurrent/m\(i).bin", nil))
        }
        try ContentFixtures.write(ContentFixtures.smil(sources), to: server.root + "/index.smil")
        let report = ContentSync(cache: try ContentCache(directory: try XCTUnwrap(dir).file("cache"))).sync(server.url("/ok/index.smil"))
        XCTAssertEqual(report.outcome, .changed, report.problems.joined(separator: "\n"))
        let open = server.requests().filter { $0["method"] == "OPEN" }.compactMap { $0["open"].flatMap { Int($0) } }
        XCTAssertEqual(open.count, 10)
        XCTAssertEqual(open.max(), 4, "four at once, not more (and not one by one): \(open)")
    }

    func testHeadPutAndPostWithTheKioskUserAgent() throws {
        let web = try nginx(), server = try faults()
        try ContentFixtures.seeded(web.file("a.bin"), count: 5_000, seed: 40)
        let settings = FetchSettings()
        let head = try HTTPTransfer(HTTPRequest(.head, url: web.url("a.bin")), into: .memory(limit: 1024), settings: settings).perform()
        XCTAssertEqual(head.status, 200)
        XCTAssertTrue(head.body.isEmpty)
        XCTAssertNotNil(head.validators.etag)
        let again = try HTTPTransfer(HTTPRequest(.head, url: web.url("a.bin"), validators: head.validators), into: .memory(limit: 1024),
                                     settings: settings).perform()
        XCTAssertTrue(again.notModified)
        XCTAssertTrue(web.requests().last?.hasPrefix("HEAD /a.bin 304 ") ?? false, "\(web.requests())")
        let body = Array("<report><play id=\"1\"/></report>\n".utf8)
        for method in [HTTPRequest.Method.put, .post] {
            let reply = try HTTPTransfer(HTTPRequest(method, url: server.url("/echo"), body: body, contentType: "application/xml"),
                                         into: .memory(limit: 1024), settings: settings).perform()
            XCTAssertEqual(reply.status, 201)
            let sum = SHA256Sum.hex(body)
            XCTAssertEqual(String(decoding: reply.body, as: UTF8.self), "\(body.count) \(sum)\n")
            let seen = try XCTUnwrap(server.requests().last)
            XCTAssertEqual(seen["method"], method.rawValue)
            XCTAssertEqual(seen["content_type"], "application/xml")
            XCTAssertEqual(seen["user_agent"], "kiosk/\(KioskVersion.number)")
        }
        // an error status is an error naming the URL, its body never kept
        XCTAssertThrowsError(try HTTPTransfer(HTTPRequest(url: server.url("/status/503/x")), into: .memory(limit: 1024),
                                              settings: settings).perform()) { error in
            XCTAssertEqual("\(error)", "\(server.url("/status/503/x")): HTTP 503")
        }
    }
}
