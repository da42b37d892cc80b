internal import CCEC
import Foundation
import KioskCore

/// What the CEC controller talks through: an adapter on the bus (`CECAdapter`, the kernel's `/dev/cecN`), or a
/// stand-in in tests.
public protocol CECBus: AnyObject {
    /// The adapter's name for logs (`/dev/cec1 (vivid)`).
    var name: String { get }
    /// The logical address claimed (15 while none is).
    var logicalAddress: UInt8 { get }
    /// The physical address the HDMI link gives (0xFFFF while there is none).
    var physicalAddress: UInt16 { get }
    /// Sends `message` and waits until it was acknowledged (true) or not (false: nobody at that address).
    func transmit(_ message: CECMessage) throws(CECError) -> Bool
    /// Waits up to `timeout` seconds for what happens next on the bus.
    func next(timeout: Double) throws(CECError) -> CECBusEvent?
}

/// What a bus reports.
public enum CECBusEvent: Sendable, Equatable {
    /// A message for kiosk (or broadcast).
    case received(CECMessage)
    /// The addresses changed (hotplug: the link went down or came back, the addresses were claimed again).
    case addressesChanged
}

/// A CEC failure: the adapter cannot be opened or used, or went away.
public struct CECError: Error, CustomStringConvertible, Sendable {
    /// One line, naming the device.
    public let description: String
    /// Whether the adapter is gone (the device was removed): no use trying again.
    public let gone: Bool
    init(_ description: String, gone: Bool = false) { self.description = description; self.gone = gone }
}

/// A kernel CEC adapter (`/dev/cecN`, linux/cec.h): kiosk claims one Playback Device logical address on it with
/// its OSD name, and follows the bus (messages for it come here; the kernel itself answers `<Give Physical
/// Address>`, `<Give OSD Name>`, `<Give Device Vendor ID>` and `<Get CEC Version>` from what was claimed).
public final class CECAdapter: CECBus {
    public let path: String
    private let fd: Int32
    /// The driver, for logs.
    public let driver: String
    private(set) public var logicalAddress = CECAddress.unregistered
    private(set) public var physicalAddress = CECAddress.invalidPhysical
    /// The DRM connector the adapter belongs to (card number, connector id), when the kernel says.
    public let connector: (card: UInt32, connector: UInt32)?

    public var name: String { "\(path) (\(driver))" }

    /// Opens `path` and reads its capabilities; fails with one line when it is no CEC adapter.
    public init(path: String) throws(CECError) {
        self.path = path
        // blocking: a transmit returns once the message went out (acknowledged or not) and a claim once it is
        // done; reads only follow a poll() that said there is something to read
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw CECError("\(path): \(String(cString: strerror(errno)))", gone: errno == ENOENT || errno == ENODEV) }
        var caps = cec_caps()
        guard kiosk_cec_g_caps(fd, &caps) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw CECError("\(path): not a CEC adapter (\(why))")
        }
        self.fd = fd
        driver = String(cString: kiosk_cec_caps_driver(&caps))
        var info = cec_connector_info()
        if kiosk_cec_g_connector_info(fd, &info) == 0, info.type == UInt32(CEC_CONNECTOR_TYPE_DRM) {
            connector = (info.drm.card_no, info.drm.connector_id)
        } else {
            connector = nil
        }
        refresh()
    }

    /// Whether the adapter sits on a display's own input (physical address 0.0.0.0: a TV's, a sink's), where a
    /// player never is.
    public var isSink: Bool { physicalAddress == 0 }

    deinit { close(fd) }

    /// Becomes an initiator and follower (messages for kiosk come to it, not to the kernel's default answers), and
    /// claims a Playback Device address with OSD name `osdName` (the kernel claims it again after a hotplug).
    public func claim(osdName: String) throws(CECError) {
        guard kiosk_cec_s_mode(fd, UInt32(CEC_MODE_INITIATOR | CEC_MODE_FOLLOWER)) == 0 else {
            throw CECError("\(path): cannot follow the bus (\(String(cString: strerror(errno))))", gone: errno == ENODEV)
        }
        var current = cec_log_addrs()
        if kiosk_cec_g_log_addrs(fd, &current) == 0, current.num_log_addrs > 0,
           current.log_addr_type.0 == UInt8(CEC_LOG_ADDR_TYPE_PLAYBACK) {
            refresh()  // already claimed (by kiosk before a restart): keep it
            return
        }
        if current.num_log_addrs > 0 {  // another type was claimed: clear it first
            var none = cec_log_addrs()
            _ = kiosk_cec_s_log_addrs(fd, &none)
        }
        var la = cec_log_addrs()
        kiosk_cec_playback_log_addrs(&la, String(osdName.prefix(14)), UInt32(CEC_VENDOR_ID_NONE))
        guard kiosk_cec_s_log_addrs(fd, &la) == 0 else {
            throw CECError("\(path): cannot claim a playback address (\(String(cString: strerror(errno))))", gone: errno == ENODEV)
        }
        refresh()
    }

    /// Reads the addresses again.
    private func refresh() {
        var pa: UInt16 = CECAddress.invalidPhysical
        if kiosk_cec_g_phys_addr(fd, &pa) == 0 { physicalAddress = pa }
        var la = cec_log_addrs()
        if kiosk_cec_g_log_addrs(fd, &la) == 0 { logicalAddress = kiosk_cec_log_addr(&la) }
        if logicalAddress > 15 { logicalAddress = CECAddress.unregistered }
    }

    public func transmit(_ message: CECMessage) throws(CECError) -> Bool {
        var msg = cec_msg()
        var bytes = message.bytes
        bytes[0] = (logicalAddress & 0xF) << 4 | message.destination  // from the address kiosk holds now
        kiosk_cec_msg_set(&msg, bytes, UInt32(bytes.count))
        msg.timeout = 0
        var r: Int32
        repeat { r = kiosk_cec_transmit(fd, &msg) } while r < 0 && errno == EINTR
        guard r == 0 else {
            let e = errno
            if e == ENONET || e == EADDRNOTAVAIL || e == EBUSY { return false }  // no address yet, or the bus is busy
            throw CECError("\(path): sending \(message): \(String(cString: strerror(e)))", gone: e == ENODEV)
        }
        return msg.tx_status & UInt8(CEC_TX_STATUS_OK) != 0
    }

    public func next(timeout: Double) throws(CECError) -> CECBusEvent? {
        var p = pollfd(fd: fd, events: Int16(POLLIN | POLLPRI), revents: 0)
        var n: Int32
        repeat { n = poll(&p, 1, Int32(clamping: Int(saturating: max(0, min(timeout, 3600)) * 1000, rounding: .towardZero))) } while n < 0 && errno == EINTR
        if n < 0 { throw CECError("\(path): \(String(cString: strerror(errno)))", gone: errno == ENODEV) }
        if p.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0, p.revents & Int16(POLLIN | POLLPRI) == 0 {
            throw CECError("\(path): the adapter went away", gone: true)
        }
        if p.revents & Int16(POLLPRI) != 0 {
            var ev = cec_event()
            if kiosk_cec_dqevent(fd, &ev) == 0 {
                if ev.event == UInt32(CEC_EVENT_STATE_CHANGE) {
                    refresh()
                    return .addressesChanged
                }
            } else if errno == ENODEV {
                throw CECError("\(path): the adapter went away", gone: true)
            }
        }
        guard p.revents & Int16(POLLIN) != 0 else { return nil }
        var msg = cec_msg()
        guard kiosk_cec_receive(fd, &msg) == 0 else {
            if errno == ENODEV { throw CECError("\(path): the adapter went away", gone: true) }
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        let len = kiosk_cec_msg_get(&msg, &bytes)
        return CECMessage(bytes: Array(bytes.prefix(Int(len)))).map { .received($0) }
    }

    /// The CEC adapters there are (`/dev/cec0`, `/dev/cec1`, …), sorted by number.
    public static func list(in dev: String = "/dev") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dev)) ?? []
        return names.filter { $0.hasPrefix("cec") && Int($0.dropFirst(3)) != nil }
            .sorted { Int($0.dropFirst(3)) ?? 0 < Int($1.dropFirst(3)) ?? 0 }.map { "\(dev)/\($0)" }
    }
}
