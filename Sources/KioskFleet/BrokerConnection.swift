internal import CMosquitto
import Foundation
import KioskCore

/// What the connection to the broker reports. Called on libmosquitto's network thread: a receiver only records
/// what happened and wakes its own thread.
protocol BrokerEvents: AnyObject, Sendable {
    /// The broker accepted the connection (the first, or one after a loss).
    func brokerConnected()
    /// The broker refused the connection (CONNACK code), e.g. bad credentials; libmosquitto tries again later.
    func brokerRefused(_ reason: String)
    /// The connection went (the broker stopped, the network broke); it is tried again with backoff.
    func brokerLost(_ reason: String)
    /// A connection attempt failed (nothing listens, no route, a name that does not resolve); tried again.
    func brokerUnreachable(_ reason: String)
    /// A message arrived on a subscribed topic.
    func brokerMessage(topic: String, payload: [UInt8])
    /// A message on `topic` of `bytes` bytes, over `FleetRequest.maxPayload`, arrived anyway (a broker that ignores
    /// MQTT 5's Maximum Packet Size, or speaks only 3.1.1): dropped before it was copied.
    func brokerOversized(topic: String, bytes: Int)
    /// The broker acknowledged the QoS 1 publish `mid`.
    func brokerPublished(_ mid: Int32)
}

/// Why the MQTT client could not be set up or act: one line naming the libmosquitto call.
public struct FleetError: Error, CustomStringConvertible, Sendable {
    /// The line.
    public let description: String
    /// An error.
    public init(_ description: String) { self.description = description }

    /// `call: reason` for a libmosquitto status code.
    static func call(_ name: String, _ rc: Int32) -> FleetError {
        FleetError("\(name): \(BrokerConnection.text(rc))")
    }
}

/// MQTT 5 numbers from the standard (mqtt_protocol.h, which the C module does not include).
private enum MQTT5 {
    /// The Maximum Packet Size property (0x27).
    static let maximumPacketSize: Int32 = 39
    /// CONNACK reason "Unsupported Protocol Version" (0x84); libmosquitto reports a 3.1.1 broker's refusal so.
    static let unsupportedProtocolVersion: Int32 = 132
}

/// One libmosquitto client, wrapped: nothing above this file sees a C pointer or a status code. The network runs on
/// a thread of its own (`mosquitto_loop`), which also connects again with backoff after a failure or a loss
/// (libmosquitto's `mosquitto_loop_start` gives up when the very first attempt fails); publishing and subscribing
/// are safe from any thread (`mosquitto_threaded_set`).
final class BrokerConnection: @unchecked Sendable {
    /// What a callback finds through libmosquitto's `obj` pointer: the receiver of the events, and what to do
    /// when a connection is accepted (reset the backoff).
    private final class Context {
        let events: BrokerEvents
        var connected: () -> Void = {}
        /// The broker refused MQTT 5 (a 3.1.1 broker): the next attempts use 3.1.1. Network thread only.
        var speaks311 = false
        /// OpenSSL's reason for the last failed TLS handshake (libmosquitto logs it; its status says only "A TLS
        /// error occurred."). Network thread only.
        var tlsReason: String?
        /// The broker answered this attempt's CONNECT (a CONNACK, accepting or not). An attempt whose TLS handshake
        /// finishes inside the loop rather than in `mosquitto_connect` fails there, unanswered: that is told as
        /// unreachable, with its reason, not as a loss. Network thread only.
        var answered = false
        init(_ events: BrokerEvents) { self.events = events }
    }

    /// Where to connect and as whom.
    struct Endpoint: Sendable {
        var host: String
        var port: Int
        var clientID: String
        var keepalive: Int
        var username: String?
        var password: String?
        var tlsCAFile: String?
    }

    /// A message the broker publishes for us when we vanish without a goodbye (the last will).
    struct Will: Sendable {
        var topic: String
        var payload: String
    }

    private let handle: OpaquePointer
    private let context: Unmanaged<Context>
    private let endpoint: Endpoint
    private var running = false
    /// Wakes the network thread from a backoff wait; guards `stopping` and `backoff`.
    private let wake = NSCondition()
    private var stopping = false
    private var backoff = 1.0
    private let loopEnded = DispatchSemaphore(value: 0)
    /// The MQTT 5 CONNECT properties: Maximum Packet Size. libmosquitto keeps none for `mosquitto_reconnect`, so
    /// every attempt connects afresh with them.
    private var connectProperties: OpaquePointer?

    /// The largest packet kiosk asks the broker to send (MQTT 5 Maximum Packet Size): the largest payload a command
    /// takes, with room for the topic and properties. The broker drops a bigger message instead of sending it,
    /// so libmosquitto never buffers it (its reader allocates a packet's whole length before reading it).
    static let maximumPacket = UInt32(FleetRequest.maxPayload + 8 * 1024)

    /// libmosquitto's one-time set-up, run before the first client.
    private static let library: Void = { mosquitto_lib_init() }()

    /// A client for `endpoint` whose events go to `events`, with `will` as its last will (retained, QoS 1).
    init(_ endpoint: Endpoint, will: Will, events: BrokerEvents) throws(FleetError) {
        _ = Self.library
        self.endpoint = endpoint
        let context = Unmanaged.passRetained(Context(events))
        guard let handle = mosquitto_new(endpoint.clientID, true, context.toOpaque()) else {
            context.release()
            throw FleetError("mosquitto_new: \(String(cString: strerror(errno)))")
        }
        self.handle = handle
        self.context = context
        context.takeUnretainedValue().connected = { [weak self] in self?.resetBackoff() }
        do throws(FleetError) {
            try configure(will: will)
        } catch {
            mosquitto_destroy(handle)
            context.release()
            throw error
        }
    }

    deinit {
        mosquitto_property_free_all(&connectProperties)
        mosquitto_destroy(handle)
        context.release()
    }

    private func configure(will: Will) throws(FleetError) {
        try check("mosquitto_int_option (MQTT 5)", mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5))
        try check("mosquitto_property_add_int32 (maximum packet size)",
                  mosquitto_property_add_int32(&connectProperties, MQTT5.maximumPacketSize,
                                               Self.maximumPacket))
        try check("mosquitto_will_set", mosquitto_will_set(handle, will.topic, Int32(will.payload.utf8.count), will.payload, 1, true))
        if let user = endpoint.username {
            try check("mosquitto_username_pw_set", mosquitto_username_pw_set(handle, user, endpoint.password))
        }
        if let ca = endpoint.tlsCAFile {
            try check("mosquitto_tls_set (\(ca))", mosquitto_tls_set(handle, ca, nil, nil, nil, nil))
        }
        mosquitto_connect_callback_set(handle) { _, obj, code in
            guard let obj else { return }
            let context = Unmanaged<Context>.fromOpaque(obj).takeUnretainedValue()
            context.answered = true
            if code == 0 {
                context.connected()
                context.events.brokerConnected()
            } else if code == MQTT5.unsupportedProtocolVersion, !context.speaks311 {
                context.speaks311 = true
                context.events.brokerRefused("it does not speak MQTT 5: trying MQTT 3.1.1, where the broker is not told "
                                             + "the largest packet kiosk takes (a payload over \(FleetRequest.maxPayload / 1024) KiB "
                                             + "is then received whole, and dropped)")
            } else {
                context.events.brokerRefused(String(cString: mosquitto_connack_string(code)))
            }
        }
        mosquitto_disconnect_callback_set(handle) { _, obj, rc in
            // 0 is our own disconnect (at the end of the run); anything else after the broker answered is a loss
            // (before that, the network loop tells it as unreachable).
            guard rc != 0, let obj, Unmanaged<Context>.fromOpaque(obj).takeUnretainedValue().answered,
                  let events = BrokerConnection.events(obj) else { return }
            events.brokerLost(BrokerConnection.text(rc))
        }
        mosquitto_log_callback_set(handle) { _, obj, level, text in
            // "OpenSSL Error[0]: error:0A000086:SSL routines::certificate verify failed": the reason is the last field.
            guard let obj, let text, level & Int32(MOSQ_LOG_ERR) != 0 else { return }
            let line = String(cString: text)
            guard line.hasPrefix("OpenSSL Error"), let reason = line.split(separator: ":").last else { return }
            let context = Unmanaged<Context>.fromOpaque(obj).takeUnretainedValue()
            if context.tlsReason == nil { context.tlsReason = reason.trimmingCharacters(in: .whitespaces) }
        }
        mosquitto_message_callback_set(handle) { _, obj, message in
            guard let events = BrokerConnection.events(obj), let m = message?.pointee, let topic = m.topic else { return }
            let count = max(0, Int(m.payloadlen))
            guard count <= FleetRequest.maxPayload else {  // before the copy: libmosquitto's buffer is the only one
                events.brokerOversized(topic: String(cString: topic), bytes: count)
                return
            }
            let payload = m.payload.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
            events.brokerMessage(topic: String(cString: topic), payload: payload)
        }
        mosquitto_publish_callback_set(handle) { _, obj, mid in
            BrokerConnection.events(obj)?.brokerPublished(mid)
        }
    }

    private func resetBackoff() {
        wake.lock()
        backoff = 1
        wake.unlock()
    }

    /// The receiver behind a callback's `obj`.
    private static func events(_ obj: UnsafeMutableRawPointer?) -> BrokerEvents? {
        obj.map { Unmanaged<Context>.fromOpaque($0).takeUnretainedValue().events }
    }

    /// Starts the network thread, which connects, and reconnects after a failure or a loss: 1 s later, doubling up
    /// to `maxBackoff`. A broker that cannot be reached is reported (`brokerUnreachable`) and tried again.
    func start() throws(FleetError) {
        try check("mosquitto_threaded_set", mosquitto_threaded_set(handle, true))
        let thread = Thread { [self] in  // holds the connection until the loop ends
            networkLoop()
            loopEnded.signal()
        }
        thread.name = "kiosk-mqtt-net"
        running = true
        thread.start()
    }

    /// The longest wait between two connection attempts, in seconds: a restarted broker is back within 5 s.
    static let maxBackoff = 4.0

    /// Connects, serves the socket, and reconnects, until `stop`.
    private func networkLoop() {
        while !stopRequested {
            context.takeUnretainedValue().tlsReason = nil
            context.takeUnretainedValue().answered = false
            var rc = connect()
            guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                context.takeUnretainedValue().events.brokerUnreachable(failure(rc))
                backOff()
                continue
            }
            while !stopRequested, rc == MOSQ_ERR_SUCCESS.rawValue {
                rc = mosquitto_loop(handle, 200, 1)
            }
            if stopRequested { break }
            if !context.takeUnretainedValue().answered {  // e.g. a TLS handshake that failed inside the loop
                context.takeUnretainedValue().events.brokerUnreachable(failure(rc))
            }
            backOff()  // else the disconnect callback has told of the loss
        }
        // Our goodbye: DISCONNECT (no last will), written out before the socket closes.
        mosquitto_disconnect(handle)
        for _ in 0..<5 where mosquitto_loop(handle, 100, 1) == MOSQ_ERR_SUCCESS.rawValue {}
    }

    /// One connection attempt: MQTT 5 with the CONNECT properties, or 3.1.1 once the broker refused 5.
    private func connect() -> Int32 {
        let (host, port, keepalive) = (endpoint.host, Int32(endpoint.port), Int32(endpoint.keepalive))
        guard !context.takeUnretainedValue().speaks311 else {
            _ = mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311)
            return mosquitto_connect(handle, host, port, keepalive)
        }
        return mosquitto_connect_bind_v5(handle, host, port, keepalive, nil, connectProperties)
    }

    /// Why an attempt failed: libmosquitto's text, or for TLS OpenSSL's reason (with a hint when the broker's
    /// certificate is not signed by the CA kiosk trusts).
    private func failure(_ rc: Int32) -> String {
        guard rc == MOSQ_ERR_TLS.rawValue, let reason = context.takeUnretainedValue().tlsReason else { return Self.text(rc) }
        let untrusted = reason.contains("certificate verify failed")
        return "TLS: \(reason)" + (untrusted ? " (the broker's certificate is not signed by the CA of --mqtt-tls-ca)" : "")
    }

    /// Waits before the next attempt (the wait doubles each time, up to `maxBackoff`; a connection resets it).
    private func backOff() {
        wake.lock()
        let delay = backoff
        backoff = min(backoff * 2, Self.maxBackoff)
        if !stopping { _ = wake.wait(until: Date(timeIntervalSinceNow: delay)) }
        wake.unlock()
    }

    private var stopRequested: Bool {
        wake.lock()
        defer { wake.unlock() }
        return stopping
    }

    /// Subscribes to `pattern` at QoS 1 (again after each reconnect: the session is clean).
    func subscribe(_ pattern: String) -> Bool {
        mosquitto_subscribe(handle, nil, pattern, 1) == MOSQ_ERR_SUCCESS.rawValue
    }

    /// Publishes `payload` on `topic`; returns its message id, or nil when it could not be queued (no connection).
    @discardableResult
    func publish(_ topic: String, _ payload: [UInt8], qos: Int32 = 1, retain: Bool) -> Int32? {
        var mid: Int32 = 0
        let rc = payload.withUnsafeBytes { bytes in
            mosquitto_publish(handle, &mid, topic, Int32(bytes.count), bytes.baseAddress, qos, retain)
        }
        return rc == MOSQ_ERR_SUCCESS.rawValue ? mid : nil
    }

    /// Says goodbye to the broker (no last will then) and ends the network thread (waiting up to 3 s: a connection
    /// attempt in progress may take longer, and the thread then ends on its own).
    func stop() {
        guard running else { return }
        running = false
        wake.lock()
        stopping = true
        wake.signal()
        wake.unlock()
        _ = loopEnded.wait(timeout: .now() + 3)
    }

    private func check(_ call: String, _ rc: Int32) throws(FleetError) {
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { throw FleetError.call(call, rc) }
    }

    /// libmosquitto's text for a status code (errno's for `MOSQ_ERR_ERRNO`).
    static func text(_ rc: Int32) -> String {
        if rc == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return String(cString: mosquitto_strerror(rc))
    }
}
