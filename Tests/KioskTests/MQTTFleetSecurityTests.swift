import Foundation
import KioskCore
import XCTest

/// The fleet's credentials and TLS against brokers that ask for them: a user and a password file (and a wrong
/// password: one warning, playback goes on), and TLS trusting the CA of `--mqtt-tls-ca`.
final class MQTTFleetSecurityTests: MQTTFleetTestCase {
    /// Swaps the test's anonymous broker for one with `settings`; clients log in with `clientOptions`.
    private func replaceBroker(anonymous: Bool, settings: [String], clientOptions: [String]) throws {
        broker.stop()
        broker = try MQTTBroker(dir, anonymous: anonymous, settings: settings)
        clients = try MQTTClients(broker, extra: clientOptions)
    }

    /// Runs a tool (openssl, mosquitto_passwd) bounded in time; fails the test on a non-zero exit.
    private func tool(_ name: String, _ args: [String]) throws {
        let r = try BoundedProcess.run(try MQTTTools.find(name), args, timeout: 60)
        XCTAssertEqual(r.status, 0, "\(name) \(args.joined(separator: " ")): \(String(decoding: r.stderr, as: UTF8.self))")
    }

    /// Lets the broker read a file this test wrote (mosquitto started as root runs as the `mosquitto` user).
    private func readableByAll(_ path: String) throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
    }

    func testUserAndPasswordFileLogIn() throws {
        let passwd = dir.file("passwd")
        try tool("mosquitto_passwd", ["-b", "-c", passwd, "kiosk", "s3cret"])
        try readableByAll(passwd)
        try replaceBroker(anonymous: false, settings: ["password_file \(passwd)"], clientOptions: ["-u", "kiosk", "-P", "s3cret"])
        let secret = dir.file("kiosk.pw")
        try "s3cret\n".write(toFile: secret, atomically: true, encoding: .utf8)
        let files = try pictures()
        let p = try start("auth", files, extra: ["--mqtt-user", "kiosk", "--mqtt-password-file", secret])
        XCTAssertNotNil(try state("auth") { $0["count"] == .int(3) }, p.stderr)
        stop(p)

        // A wrong password: the broker refuses each attempt, kiosk says so once and plays on.
        let wrong = dir.file("wrong.pw")
        try "nope\n".write(toFile: wrong, atomically: true, encoding: .utf8)
        let r = try CLITests.run(["play", "--output", "headless", "--size", "160x120", "--duration", "1", "--transition", "none",
                                  "--length", "7", "--mqtt", broker.address, "--mqtt-id", "auth", "--mqtt-user", "kiosk",
                                  "--mqtt-password-file", wrong, "--log-level", "info"] + files, timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        let warnings = r.stderr.split(separator: "\n").filter { $0.contains("warn") && $0.contains("mqtt") }
        XCTAssertEqual(warnings.count, 1, r.stderr)
        XCTAssertTrue(warnings.first?.contains("refused kiosk/auth") ?? false, r.stderr)
        XCTAssertGreaterThanOrEqual(r.stderr.components(separatedBy: "showing ").count - 1, 4, r.stderr)
    }

    func testTLSTrustsTheCAOfMqttTlsCa() throws {
        let ca = dir.file("ca.crt"), caKey = dir.file("ca.key")
        let cert = dir.file("server.crt"), key = dir.file("server.key"), request = dir.file("server.csr")
        let ext = dir.file("san.ext")
        try "subjectAltName=IP:127.0.0.1\n".write(toFile: ext, atomically: true, encoding: .utf8)
        try tool("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", caKey, "-out", ca, "-days", "2",
                             "-subj", "/CN=kiosk test CA"])
        try tool("openssl", ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", request, "-subj", "/CN=127.0.0.1"])
        try tool("openssl", ["x509", "-req", "-in", request, "-CA", ca, "-CAkey", caKey, "-CAcreateserial", "-out", cert,
                             "-days", "2", "-extfile", ext])
        for file in [ca, cert, key] { try readableByAll(file) }
        try replaceBroker(anonymous: true, settings: ["cafile \(ca)", "certfile \(cert)", "keyfile \(key)"],
                          clientOptions: ["--cafile", ca])
        let p = try start("tls", try pictures(), extra: ["--mqtt-tls-ca", ca])
        XCTAssertNotNil(try state("tls") { $0["count"] == .int(3) }, p.stderr)
        try clients.publish("kiosk/tls/cmd/volume", "12")
        XCTAssertNotNil(try state("tls") { $0["volume"] == .int(12) }, p.stderr)
        stop(p)
    }
}
