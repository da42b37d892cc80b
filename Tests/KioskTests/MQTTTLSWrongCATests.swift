import Foundation
import KioskCore
import XCTest

/// Issue 23 audit item 8: TLS was tested only with the right CA, so a client that trusts any certificate passed.
/// Here the broker's certificate is signed by one CA (made by openssl at test time) and kiosk is given another:
/// the connection must be refused, with one warning line that says why, and playback goes on.
final class MQTTTLSWrongCATests: MQTTFleetTestCase {
    /// Runs openssl bounded in time; fails the test on a non-zero exit.
    private func openssl(_ args: [String]) throws {
        let r = try BoundedProcess.run(try MQTTTools.find("openssl"), args, timeout: 60)
        XCTAssertEqual(r.status, 0, "openssl \(args.joined(separator: " ")): \(String(decoding: r.stderr, as: UTF8.self))")
    }

    /// A self-signed CA named `name`: its certificate and key.
    private func authority(_ name: String) throws -> (cert: String, key: String) {
        let cert = dir.file("\(name).crt"), key = dir.file("\(name).key")
        try openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2",
                     "-subj", "/CN=kiosk test \(name)"])
        return (cert, key)
    }

    func testABrokerCertificateFromAnotherCAIsRefusedInOneLine() throws {
        let right = try authority("broker-ca"), other = try authority("other-ca")
        let cert = dir.file("server.crt"), key = dir.file("server.key"), request = dir.file("server.csr")
        let ext = dir.file("san.ext")
        try "subjectAltName=IP:127.0.0.1\n".write(toFile: ext, atomically: true, encoding: .utf8)
        try openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", request, "-subj", "/CN=127.0.0.1"])
        try openssl(["x509", "-req", "-in", request, "-CA", right.cert, "-CAkey", right.key, "-CAcreateserial",
                     "-out", cert, "-days", "2", "-extfile", ext])
        for file in [right.cert, other.cert, cert, key] {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        }
        broker.stop()
        broker = try MQTTBroker(dir, anonymous: true, settings: ["cafile \(right.cert)", "certfile \(cert)", "keyfile \(key)"])
        clients = try MQTTClients(broker, extra: ["--cafile", right.cert])
        try clients.publish("kiosk/tls/probe", "the broker itself serves TLS with its CA")

        let r = try CLITests.run(["play", "--output", "headless", "--size", "160x120", "--duration", "1", "--transition", "none",
                                  "--length", "7", "--mqtt", broker.address, "--mqtt-id", "tls", "--mqtt-tls-ca", other.cert,
                                  "--log-level", "info"] + (try pictures()), timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("mqtt: connected"), "connected through a certificate of another CA: \(r.stderr)")
        let warnings = r.stderr.split(separator: "\n").filter { $0.contains("warn") && $0.contains("mqtt") }
        XCTAssertEqual(warnings.count, 1, r.stderr)
        XCTAssertTrue(warnings.first?.contains(broker.address) == true, r.stderr)
        // The warning says why, or (a first attempt slower than 5 s on a loaded machine) one info line after it.
        let told = r.stderr.split(separator: "\n").filter { $0.contains("mqtt") && $0.contains(broker.address) }
        XCTAssertTrue(told.prefix(2).contains { $0.contains("TLS: certificate verify failed") && $0.contains("--mqtt-tls-ca") },
                      "a line says the certificate was not trusted: \(r.stderr)")
        XCTAssertGreaterThanOrEqual(r.stderr.components(separatedBy: "showing ").count - 1, 4, "playback went on: \(r.stderr)")
        XCTAssertNil(try clients.retained("kiosk/tls/state", seconds: 1), "kiosk published through a broker it must not trust")
    }
}
