@preconcurrency import Glibc
internal import CLibinput
import KioskCore
import KioskSeat

/// What kiosk learns of input devices before a screen reads them, to give each its screen (`InputRouting`): udev's
/// `WL_OUTPUT` and `ID_INPUT_TOUCHSCREEN`, and libinput's name and sensor size.
extension LibinputSource {
    /// The facts of the device at `path`, read by opening it alone through libinput's path backend (`opener` opens
    /// it); nil when it cannot be opened or is no input device libinput takes.
    public static func facts(of path: String, opener: DeviceOpener = DirectOpener(group: "input")) -> InputDeviceFacts? {
        guard isInitialized(path) else { return nil }  // libinput would print its own error line for it
        guard let source = try? LibinputSource(devices: [path], opener: opener) else { return nil }
        _ = libinput_dispatch(source.li)
        var facts: InputDeviceFacts?
        while let e = libinput_get_event(source.li) {
            defer { libinput_event_destroy(e) }
            guard libinput_event_get_type(e) == LIBINPUT_EVENT_DEVICE_ADDED, let dev = libinput_event_get_device(e) else { continue }
            var found = InputDeviceFacts(path: path, name: libinput_device_get_name(dev).map { String(cString: $0) } ?? path)
            var w = 0.0, h = 0.0
            if libinput_device_get_size(dev, &w, &h) == 0, w > 0, h > 0 { found.size = PhysicalSize(width: w, height: h) }
            found.isTouchscreen = libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_TOUCH) != 0
            if let ud = libinput_device_get_udev_device(dev) {
                found.output = udev_device_get_property_value(ud, "WL_OUTPUT").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
                if udev_device_get_property_value(ud, "ID_INPUT_TOUCHSCREEN").map({ String(cString: $0) }) == "1" { found.isTouchscreen = true }
                udev_device_unref(ud)
            }
            facts = found
        }
        return facts
    }

    /// Whether udev has a database entry for the device node at `path` (udevd, or whoever writes /run/udev/data,
    /// has seen it): libinput takes no device without one.
    static func isInitialized(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0, let udev = udev_new() else { return false }
        defer { udev_unref(udev) }
        guard let dev = udev_device_new_from_devnum(udev, Int8(UInt8(ascii: "c")), st.st_rdev) else { return false }
        defer { udev_device_unref(dev) }
        return udev_device_get_is_initialized(dev) != 0
    }

    /// The event nodes of udev seat `seat` (`ID_SEAT`, `seat0` when unset), in udev's order; empty without udev.
    public static func seatDevices(_ seat: String) -> [String] {
        guard let udev = udev_new() else { return [] }
        defer { udev_unref(udev) }
        guard let scan = udev_enumerate_new(udev) else { return [] }
        defer { udev_enumerate_unref(scan) }
        udev_enumerate_add_match_subsystem(scan, "input")
        udev_enumerate_add_match_sysname(scan, "event*")
        udev_enumerate_scan_devices(scan)
        var paths: [String] = []
        var entry = udev_enumerate_get_list_entry(scan)
        while let e = entry {
            defer { entry = udev_list_entry_get_next(e) }
            guard let syspath = udev_list_entry_get_name(e), let dev = udev_device_new_from_syspath(udev, syspath) else { continue }
            defer { udev_device_unref(dev) }
            let own = udev_device_get_property_value(dev, "ID_SEAT").map { String(cString: $0) } ?? "seat0"
            if own == seat, let node = udev_device_get_devnode(dev) { paths.append(String(cString: node)) }
        }
        return paths
    }
}
