internal import CMosquitto
import Foundation
import KioskCore

/// Reads the fleet from a broker's retained messages, once, on the calling thread, bounded in time: connects
/// (MQTT 3.1.1, a clean session, no last will: it is a listener, not a kiosk), subscribes to every kiosk's
/// `availability` and `health` (and those of screens with topics of their own), and takes what the broker sends
/// until it has been quiet for half a second after the subscriptions were granted, or `wait` seconds have passed.
public struct FleetRosterReader: Sendable {
    /// Where and as whom to connect.
    public struct Broker: Sendable {
        /// The host name or address.
        public var host: String
        /// The TCP port.
        public var port: Int
        /// The user name, if the broker wants one.
        public var username: String?
        /// Its password.
        public var password: String?
        /// CA certificates for TLS; nil: plain TCP.
        public var tlsCAFile: String?

        /// A broker at `host`:`port`.
        public init(host: String, port: Int, username: String? = nil, password: String? = nil, tlsCAFile: String? = nil) {
            self.host = host
            self.port = port
            self.username = username
            self.password = password
            self.tlsCAFile = tlsCAFile
        }

        /// `HOST:PORT` (`[ADDRESS]:PORT` for IPv6).
        public var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// The patterns subscribed to.
    static let patterns = ["kiosk/+/availability", "kiosk/+/health", "kiosk/+/screen/+/availability", "kiosk/+/screen/+/health"]
    /// The largest health message read (a bigger one is reported, not parsed).
    static let maxPayload = 1_048_576
    /// How long the broker must be quiet after the subscriptions were granted for the reading to end early.
    static let quiet = 0.5

    /// The broker read.
    public let broker: Broker
    /// The longest the whole reading takes, in seconds.
    public let wait: Double

    /// A reader of `broker`, taking at most `wait` seconds.
    public init(broker: Broker, wait: Double) {
        self.broker = broker
        self.wait = wait
    }

    /// What the callbacks leave (libmosquitto calls them on this same thread, inside `mosquitto_loop`).
    private final class Inbox {
        var connected = false
        var refused: String?
        var granted = 0
        var lastHeard = Date()
        var entries: [String: FleetRosterEntry] = [:]

        func message(topic: String, payload: [UInt8], oversized: Int?) {
            let levels = topic.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            let id: String, kind: String
            switch levels.count {
            case 3: (id, kind) = (levels[1], levels[2])
            case 5 where levels[2] == "screen": (id, kind) = ("\(levels[1])/\(levels[3])", levels[4])
            default: return
            }
            lastHeard = Date()
            guard !payload.isEmpty || oversized != nil else { return }  // a cleared retained message
            var e = entries[id] ?? FleetRosterEntry(id: id)
            if kind == "availability" {
                e.availability = String(decoding: payload, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            } else if let oversized {
                e.problem = "the health message is \(oversized) bytes, over \(FleetRosterReader.maxPayload)"
            } else {
                do throws(JSONParseError) {
                    e.health = try JSONValue.parse(payload)
                    e.problem = nil
                } catch {
                    e.problem = "the health message is not JSON (\(error))"
                }
            }
            entries[id] = e
        }
    }

    /// Reads the roster; throws one line naming the broker and why it could not be read.
    public func read() throws(FleetError) -> FleetRoster {
        _ = Self.library
        let inbox = Unmanaged.passRetained(Inbox())
        defer { inbox.release() }
        let name = "kiosk-fleet-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard let handle = mosquitto_new(name, true, inbox.toOpaque()) else {
            throw FleetError("fleet: mosquitto_new: \(String(cString: strerror(errno)))")
        }
        defer { mosquitto_destroy(handle) }
        func fail(_ why: String) -> FleetError { FleetError("fleet: cannot read the MQTT broker \(broker.address): \(why)") }
        if let user = broker.username, mosquitto_username_pw_set(handle, user, broker.password) != MOSQ_ERR_SUCCESS.rawValue {
            throw fail("mosquitto_username_pw_set failed")
        }
        if let ca = broker.tlsCAFile {
            let rc = mosquitto_tls_set(handle, ca, nil, nil, nil, nil)
            guard rc == MOSQ_ERR_SUCCESS.rawValue else { throw fail("TLS with \(ca): \(Self.text(rc))") }
        }
        Self.callbacks(handle)
        let start = Date(), deadline = Date(timeIntervalSinceNow: wait)
        var rc = mosquitto_connect_async(handle, broker.host, Int32(broker.port), 30)
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { throw fail(Self.text(rc)) }
        var subscribed = false
        while true {
            rc = mosquitto_loop(handle, 50, 1)
            let box = inbox.takeUnretainedValue()
            if let refused = box.refused { throw fail("refused: \(refused)") }
            guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                throw fail(box.connected ? "the connection was lost: \(Self.text(rc))" : Self.text(rc))
            }
            let now = Date()
            if !box.connected {
                if now >= deadline { throw fail("no answer within \(Self.seconds(now.timeIntervalSince(start))) s") }
                continue
            }
            if !subscribed {
                for p in Self.patterns where mosquitto_subscribe(handle, nil, p, 0) != MOSQ_ERR_SUCCESS.rawValue {
                    throw fail("cannot subscribe to \(p)")
                }
                subscribed = true
            }
            let granted = box.granted >= Self.patterns.count
            if now >= deadline || (granted && now.timeIntervalSince(box.lastHeard) >= Self.quiet) { break }
        }
        mosquitto_disconnect(handle)
        for _ in 0..<3 where mosquitto_loop(handle, 50, 1) == MOSQ_ERR_SUCCESS.rawValue {}
        return FleetRoster(Array(inbox.takeUnretainedValue().entries.values), broker: broker.address)
    }

    /// libmosquitto's one-time set-up.
    private static let library: Void = { mosquitto_lib_init() }()

    /// The callbacks, each finding the `Inbox` through libmosquitto's `obj`.
    private static func callbacks(_ handle: OpaquePointer) {
        mosquitto_connect_callback_set(handle) { _, obj, code in
            guard let obj else { return }
            let box = Unmanaged<Inbox>.fromOpaque(obj).takeUnretainedValue()
            if code == 0 { box.connected = true; box.lastHeard = Date() } else { box.refused = String(cString: mosquitto_connack_string(code)) }
        }
        mosquitto_subscribe_callback_set(handle) { _, obj, _, _, _ in
            guard let obj else { return }
            let box = Unmanaged<Inbox>.fromOpaque(obj).takeUnretainedValue()
            box.granted += 1
            box.lastHeard = Date()
        }
        mosquitto_message_callback_set(handle) { _, obj, message in
            guard let obj, let m = message?.pointee, let topic = m.topic else { return }
            let count = max(0, Int(m.payloadlen))
            let box = Unmanaged<Inbox>.fromOpaque(obj).takeUnretainedValue()
            guard count <= FleetRosterReader.maxPayload else {
                return box.message(topic: String(cString: topic), payload: [], oversized: count)
            }
            let payload = m.payload.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
            box.message(topic: String(cString: topic), payload: payload, oversized: nil)
        }
    }

    /// libmosquitto's text for a status code (errno's for `MOSQ_ERR_ERRNO`).
    private static func text(_ rc: Int32) -> String {
        if rc == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return String(cString: mosquitto_strerror(rc))
    }

    /// Seconds with one decimal.
    private static func seconds(_ s: Double) -> String { String(format: "%.1f", s) }
}

extension FleetSettings {
    /// A broker's `HOST`, `HOST:PORT`, `[IPv6]` or `[IPv6]:PORT`, read as `--mqtt` reads it (`kiosk fleet`'s).
    public static func broker(_ text: String, defaultPort: Int) throws(UsageError) -> (host: String, port: Int) {
        try address(text, defaultPort: defaultPort)
    }
}
