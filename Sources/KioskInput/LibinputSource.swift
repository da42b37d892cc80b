@preconcurrency import Glibc
internal import CLibinput
import KioskCore
import KioskSeat

/// What libinput's open and close callbacks share: the opener, the open descriptors' paths, and the opens that
/// failed (the callback has no way to return a reason).
final class OpenFailures {
    let opener: DeviceOpener
    var paths: [Int32: String] = [:]
    var failures: [(path: String, message: String)] = []
    init(opener: DeviceOpener) { self.opener = opener }
}

/// libinput over the udev seat (`--seat seat0`, hotplug included) or over explicit device nodes
/// (`--input-device /dev/input/eventN`), polled without blocking once per frame. Devices are opened by a
/// `DeviceOpener` in libinput's open callback: logind's TakeDevice, or open(2), which needs the `input` group.
/// With `InputDeviceProbe.swift`, the only place libinput and libudev are imported.
public final class LibinputSource {
    let li: OpaquePointer
    private let udev: OpaquePointer?
    private let interface: UnsafeMutablePointer<libinput_interface>
    private let failures: Unmanaged<OpenFailures>
    private var lastTouch: [Int: UnitPoint] = [:]
    private var reportedFailures = 0

    /// What the source reads: `seat NAME` or the device paths.
    public let name: String
    /// Device nodes whose events are dropped: a seat's devices that belong to another screen (`InputRouting`).
    public var ignoredDevices: Set<String> = []
    /// Devices on one panel of a span: their touches and absolute pointer land in that part of the screen.
    public var panels: [String: UnitRect] = [:]

    /// The udev seat backend: every input device of `seat`, with hotplug.
    public convenience init(seat: String, opener: DeviceOpener = DirectOpener(group: "input")) throws {
        try self.init(backend: .seat(seat), opener: opener)
    }

    /// The path backend: exactly these device nodes.
    public convenience init(devices: [String], opener: DeviceOpener = DirectOpener(group: "input")) throws {
        try self.init(backend: .paths(devices), opener: opener)
    }

    private enum Backend { case seat(String), paths([String]) }

    private init(backend: Backend, opener: DeviceOpener) throws {
        interface = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
        interface.initialize(to: libinput_interface(
            open_restricted: { path, flags, data in
                guard let path, let data else { return -EINVAL }
                let shared = Unmanaged<OpenFailures>.fromOpaque(data).takeUnretainedValue()
                let name = String(cString: path)
                do {
                    let fd = try shared.opener.open(name, flags: flags)
                    shared.paths[fd] = name
                    return fd
                } catch {
                    let e = (error as? DeviceAccessError)?.code ?? 0
                    shared.failures.append((name, "\(error)"))
                    return -(e == 0 ? EACCES : e)
                }
            },
            close_restricted: { fd, data in
                guard let data else { _ = close(fd); return }
                let shared = Unmanaged<OpenFailures>.fromOpaque(data).takeUnretainedValue()
                shared.opener.close(fd, path: shared.paths.removeValue(forKey: fd) ?? "")
            }))
        failures = Unmanaged.passRetained(OpenFailures(opener: opener))
        let data = failures.toOpaque()
        switch backend {
        case .seat(let seat):
            name = "seat \(seat)"
            guard let u = udev_new() else {
                Self.release(interface, failures)
                throw InputError("udev_new: cannot start libudev for seat \(seat)")
            }
            guard let l = libinput_udev_create_context(interface, data, u) else {
                udev_unref(u)
                Self.release(interface, failures)
                throw InputError("libinput_udev_create_context: failed for seat \(seat)")
            }
            if libinput_udev_assign_seat(l, seat) != 0 {
                libinput_unref(l)
                udev_unref(u)
                Self.release(interface, failures)
                throw InputError("libinput_udev_assign_seat: cannot use seat \(seat) (is udev's database in /run/udev?)")
            }
            li = l
            udev = u
        case .paths(let paths):
            name = paths.joined(separator: " ")
            guard let l = libinput_path_create_context(interface, data) else {
                Self.release(interface, failures)
                throw InputError("libinput_path_create_context: failed for \(name)")
            }
            for p in paths {
                do {
                    let fd = try opener.open(p, flags: O_RDWR | O_NONBLOCK)
                    opener.close(fd, path: p)
                } catch {
                    libinput_unref(l)
                    Self.release(interface, failures)
                    throw InputError("\(error)")
                }
                guard libinput_path_add_device(l, p) == nil else { continue }
                let why = failures.takeUnretainedValue().failures.last { $0.path == p }
                libinput_unref(l)
                Self.release(interface, failures)
                if let why {
                    throw InputError("libinput_path_add_device: \(why.message)")
                }
                throw InputError("libinput_path_add_device: \(p) is not an input device libinput accepts (not an evdev node, or udev has no ID_INPUT properties for it)")
            }
            li = l
            udev = nil
        }
    }

    private static func release(_ i: UnsafeMutablePointer<libinput_interface>, _ f: Unmanaged<OpenFailures>) {
        i.deallocate()
        f.release()
    }

    deinit {
        libinput_unref(li)
        if let udev { udev_unref(udev) }
        Self.release(interface, failures)
    }

    /// The descriptor that becomes readable when events wait (for poll(2)).
    public var fileDescriptor: Int32? { libinput_get_fd(li) }

    /// Device opens that failed since the last call, as one line each naming the device and the `input` group.
    public func takeOpenFailures() -> [String] {
        let all = failures.takeUnretainedValue().failures
        defer { reportedFailures = all.count }
        return all.dropFirst(reportedFailures).map { "input: \($0.message)" }
    }

    /// Reads what is waiting, without blocking.
    public func poll() -> [DeviceEvent] {
        var out: [DeviceEvent] = []
        _ = libinput_dispatch(li)
        while let e = libinput_get_event(li) {
            var panel: UnitRect?
            if !ignoredDevices.isEmpty || !panels.isEmpty, let dev = libinput_event_get_device(e),
               let sysname = libinput_device_get_sysname(dev) {
                let node = "/dev/input/" + String(cString: sysname)
                if ignoredDevices.contains(node) {
                    libinput_event_destroy(e)
                    continue
                }
                panel = panels[node]
            }
            if let d = convert(e) { out.append(panel.map { d.placed(in: $0) } ?? d) }
            libinput_event_destroy(e)
        }
        return out
    }

    private func convert(_ e: OpaquePointer) -> DeviceEvent? {
        let type = libinput_event_get_type(e)
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED:
            guard let dev = libinput_event_get_device(e) else { return nil }
            var kinds: [String] = []
            let caps: [(libinput_device_capability, String)] = [
                (LIBINPUT_DEVICE_CAP_KEYBOARD, "keyboard"), (LIBINPUT_DEVICE_CAP_POINTER, "pointer"),
                (LIBINPUT_DEVICE_CAP_TOUCH, "touch"), (LIBINPUT_DEVICE_CAP_GESTURE, "gesture"),
            ]
            for (c, n) in caps where libinput_device_has_capability(dev, c) != 0 { kinds.append(n) }
            return .deviceAdded(name: libinput_device_get_name(dev).map { String(cString: $0) } ?? "?", kinds: kinds)
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            guard let k = libinput_event_get_keyboard_event(e) else { return nil }
            return .key(code: Int(libinput_event_keyboard_get_key(k)),
                        pressed: libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED,
                        time: Double(libinput_event_keyboard_get_time_usec(k)) / 1e6)
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION, LIBINPUT_EVENT_TOUCH_UP, LIBINPUT_EVENT_TOUCH_CANCEL:
            guard let t = libinput_event_get_touch_event(e) else { return nil }
            let slot = Int(libinput_event_touch_get_seat_slot(t))
            let time = Double(libinput_event_touch_get_time_usec(t)) / 1e6
            let scale: UInt32 = 1_000_000
            switch type {
            case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
                let p = UnitPoint(x: libinput_event_touch_get_x_transformed(t, scale) / Double(scale),
                                  y: libinput_event_touch_get_y_transformed(t, scale) / Double(scale))
                lastTouch[slot] = p
                return .touch(type == LIBINPUT_EVENT_TOUCH_DOWN ? .down : .move, slot: slot, at: p, time: time)
            case LIBINPUT_EVENT_TOUCH_UP:
                let p = lastTouch.removeValue(forKey: slot) ?? .center
                return .touch(.up, slot: slot, at: p, time: time)
            default:
                lastTouch.removeAll()
                return .touch(.cancel, slot: slot, at: .center, time: time)
            }
        case LIBINPUT_EVENT_POINTER_MOTION:
            guard let p = libinput_event_get_pointer_event(e) else { return nil }
            return .pointerMotion(dx: libinput_event_pointer_get_dx(p), dy: libinput_event_pointer_get_dy(p),
                                  time: Double(libinput_event_pointer_get_time_usec(p)) / 1e6)
        case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
            guard let p = libinput_event_get_pointer_event(e) else { return nil }
            let scale: UInt32 = 1_000_000
            return .pointerAbsolute(at: UnitPoint(x: libinput_event_pointer_get_absolute_x_transformed(p, scale) / Double(scale),
                                                  y: libinput_event_pointer_get_absolute_y_transformed(p, scale) / Double(scale)),
                                    time: Double(libinput_event_pointer_get_time_usec(p)) / 1e6)
        case LIBINPUT_EVENT_POINTER_BUTTON:
            guard let p = libinput_event_get_pointer_event(e) else { return nil }
            return .button(code: Int(libinput_event_pointer_get_button(p)),
                           pressed: libinput_event_pointer_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED,
                           time: Double(libinput_event_pointer_get_time_usec(p)) / 1e6)
        case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL:
            guard let p = libinput_event_get_pointer_event(e),
                  libinput_event_pointer_has_axis(p, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL) != 0 else { return nil }
            // v120: 120 per detent; libinput's positive is down (towards the user)
            let v = libinput_event_pointer_get_scroll_value_v120(p, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL)
            return .wheel(steps: -v / 120, time: Double(libinput_event_pointer_get_time_usec(p)) / 1e6)
        case LIBINPUT_EVENT_GESTURE_PINCH_BEGIN, LIBINPUT_EVENT_GESTURE_PINCH_UPDATE, LIBINPUT_EVENT_GESTURE_PINCH_END:
            guard let g = libinput_event_get_gesture_event(e) else { return nil }
            let ended = type == LIBINPUT_EVENT_GESTURE_PINCH_END
            let cancelled = ended && libinput_event_gesture_get_cancelled(g) != 0
            return .pinch(scale: cancelled ? 1 : libinput_event_gesture_get_scale(g), ended: ended,
                          time: Double(libinput_event_gesture_get_time_usec(g)) / 1e6)
        case LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN, LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE, LIBINPUT_EVENT_GESTURE_SWIPE_END:
            guard let g = libinput_event_get_gesture_event(e) else { return nil }
            let ended = type == LIBINPUT_EVENT_GESTURE_SWIPE_END
            let moving = type == LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE
            return .swipe(dx: moving ? libinput_event_gesture_get_dx_unaccelerated(g) : 0,
                          dy: moving ? libinput_event_gesture_get_dy_unaccelerated(g) : 0,
                          fingers: Int(libinput_event_gesture_get_finger_count(g)),
                          ended: ended && libinput_event_gesture_get_cancelled(g) == 0,
                          time: Double(libinput_event_gesture_get_time_usec(g)) / 1e6)
        default:
            return nil
        }
    }
}

extension LibinputSource: DeviceEventSource {
    /// CLOCK_MONOTONIC now, the clock libinput stamps events with.
    public func now() -> Double { MonotonicClock.seconds() }
}
