import Foundation
@preconcurrency import Glibc
import KioskCore
import XCTest

/// The MQTT tools the fleet tests run against: mosquitto (the broker) and its clients. A missing one skips the
/// test, except with CI set, where it is a failure (`IPCTools.require`).
enum MQTTTools {
    /// `name` on PATH or in /usr/sbin (where Debian puts the broker).
    static func find(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let sbin = "/usr/sbin/\(name)"
        let found = IPCTools.onPath(name) ?? (FileManager.default.isExecutableFile(atPath: sbin) ? sbin : nil)
        return try IPCTools.require(found, "\(name) is not installed (Kiosk/setup.sh installs mosquitto and mosquitto-clients)",
                                    file: file, line: line)
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    static func listening(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}

/// A mosquitto broker for one test: on 127.0.0.1 only, on a free port, anonymous, nothing kept on disk. It can be
/// killed and started again on the same port; `stop` (the test's tearDown) kills it.
final class MQTTBroker {
    let port: Int
    private let executable: String
    private let config: String
    private var process: Process?

    /// Writes the config into `dir` (with `settings`: more config lines for the listener, e.g. TLS files or a password
    /// file) and starts the broker, waiting up to 5 s for it to listen.
    init(_ dir: TempDir, anonymous: Bool = true, settings: [String] = []) throws {
        executable = try MQTTTools.find("mosquitto")
        port = MQTTTools.freePort()
        config = dir.file("mosquitto-\(port).conf")
        let lines = ["listener \(port) 127.0.0.1", "allow_anonymous \(anonymous)", "persistence false"] + settings
        try (lines.joined(separator: "\n") + "\n").write(toFile: config, atomically: true, encoding: .utf8)
        try start()
    }

    /// Starts the broker on the same port and waits (5 s at most) until it listens.
    func start() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = ["-c", config]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        process = p
        let deadline = Date(timeIntervalSinceNow: 5)
        while !MQTTTools.listening(port) {
            guard Date() < deadline, p.isRunning else { throw IPCTools.Missing(description: "mosquitto did not listen on \(port)") }
            usleep(20_000)
        }
    }

    /// Kills the broker (SIGKILL) and waits for it.
    func stop() {
        guard let p = process else { return }
        process = nil
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
    }

    /// `HOST:PORT` for `--mqtt`.
    var address: String { "127.0.0.1:\(port)" }
}

/// mosquitto_pub and mosquitto_sub against a test broker, each run bounded in time.
struct MQTTClients {
    let port: Int
    let pub: String
    let sub: String
    /// Options every call adds: credentials, `--cafile` for TLS.
    let extra: [String]

    /// The clients for `broker`, with `extra` options on every call.
    init(_ broker: MQTTBroker, extra: [String] = []) throws {
        port = broker.port
        pub = try MQTTTools.find("mosquitto_pub")
        sub = try MQTTTools.find("mosquitto_sub")
        self.extra = extra
    }

    /// Publishes `payload` (empty: a null message) on `topic` at QoS 1; `retain`: as the retained message (a
    /// retained null message clears the topic's).
    func publish(_ topic: String, _ payload: String, retain: Bool = false) throws {
        let body = (payload.isEmpty ? ["-n"] : ["-m", payload]) + (retain ? ["-r"] : [])
        let r = try BoundedProcess.run(pub, ["-h", "127.0.0.1", "-p", "\(port)", "-q", "1", "-t", topic] + body + extra, timeout: 10)
        XCTAssertEqual(r.status, 0, String(decoding: r.stderr, as: UTF8.self))
    }

    /// Up to `count` messages on `topics` (retained ones first), waiting at most `seconds` for them: (topic, payload).
    func messages(_ topics: [String], count: Int, seconds: Int) throws -> [(topic: String, payload: String)] {
        let r = try BoundedProcess.run(sub, ["-h", "127.0.0.1", "-p", "\(port)", "-C", "\(count)", "-W", "\(seconds)",
                                             "-F", "%t\t%p"] + extra + topics.flatMap { ["-t", $0] }, timeout: Double(seconds) + 10)
        return String(decoding: r.stdout, as: UTF8.self).split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            return (String(parts[0]), String(parts[1]))
        }
    }

    /// A mosquitto_sub on `topics` running in the background (at most `count` messages of them, `seconds` at most),
    /// returned once it is subscribed: `probe`, a topic that holds a retained message (kiosk's `availability`), is
    /// subscribed after `topics` on the same connection, and the broker sends its retained message only once it
    /// took that subscription, so when the probe's message is printed the subscriptions before it are in place.
    /// Its standard output has one `TOPIC<tab>PAYLOAD` line a message, the probe's first.
    func listen(_ topics: [String], count: Int, seconds: Int, probe: String) throws -> LiveProcess {
        let p = try LiveProcess(["-h", "127.0.0.1", "-p", "\(port)", "-C", "\(count + 1)", "-W", "\(seconds)", "-F", "%t\t%p"]
                                + extra + (topics + [probe]).flatMap { ["-t", $0] }, executable: sub)
        XCTAssertTrue(p.waitForOutput(probe + "\t", timeout: 10), "mosquitto_sub heard nothing on \(probe): \(p.stderr)")
        return p
    }

    /// The `TOPIC<tab>PAYLOAD` lines a `listen`er printed, the probe's left out.
    static func heard(_ listener: LiveProcess, probe: String) -> [(topic: String, payload: String)] {
        listener.stdout.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] != probe else { return nil }
            return (String(parts[0]), String(parts[1]))
        }
    }

    /// The retained JSON on `topic`, or nil when none came within `seconds`.
    func retained(_ topic: String, seconds: Int = 3) throws -> JSONValue? {
        guard let m = try messages([topic], count: 1, seconds: seconds).first else { return nil }
        return try? JSONValue.parse(Array(m.payload.utf8))
    }

    /// The first message's raw bytes on `topic` (a retained one at once), or nil within `seconds`.
    func bytes(_ topic: String, seconds: Int) throws -> Data? {
        let r = try BoundedProcess.run(sub, ["-h", "127.0.0.1", "-p", "\(port)", "-C", "1", "-W", "\(seconds)", "-N", "-t", topic] + extra,
                                       timeout: Double(seconds) + 10)
        return r.stdout.isEmpty ? nil : r.stdout
    }

    /// Polls the retained JSON on `topic` until `condition` holds (true) or `seconds` pass (false).
    func wait(_ topic: String, seconds: Double, until condition: (JSONValue) -> Bool) throws -> JSONValue? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        var last: JSONValue?
        repeat {
            last = try retained(topic, seconds: 1)
            if let last, condition(last) { return last }
            usleep(100_000)
        } while Date() < deadline
        return nil
    }
}
