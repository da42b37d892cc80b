internal import CUdev
import Foundation
import KioskCore

/// Display hotplug through a udev monitor on the `drm` subsystem: the kernel's "a connector changed" uevents
/// (cables, a TV switched off, a new mode list). With a udev daemon it listens to udev's processed events;
/// without one (a minimal appliance, the test VM) to the kernel's own. Non-blocking: the render loop asks once a
/// frame, and the DRM output probes its connector at once instead of waiting for its timed poll.
public final class DisplayHotplugMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    /// What errors name as the device: the drm subsystem's uevents.
    static let subject = "drm uevents"
    /// `udev` or `kernel`: where the events come from.
    public let source: String

    /// Starts listening; throws when libudev or the netlink socket can't be had (the timed poll still works).
    public init() throws {
        guard let u = udev_new() else { throw DRMError(call: "udev_new", path: Self.subject, reason: "cannot start libudev") }
        // udevd's control socket says a daemon is there to re-broadcast processed events.
        let daemon = FileManager.default.fileExists(atPath: "/run/udev/control")
        let name = daemon ? "udev" : "kernel"
        guard let m = udev_monitor_new_from_netlink(u, name) else {
            let e = errno
            udev_unref(u)
            throw DRMError.errno("udev_monitor_new_from_netlink(\(name))", Self.subject, e)
        }
        if udev_monitor_filter_add_match_subsystem_devtype(m, "drm", nil) < 0 || udev_monitor_enable_receiving(m) < 0 {
            udev_monitor_unref(m)
            udev_unref(u)
            throw DRMError(call: "udev_monitor_enable_receiving", path: Self.subject, reason: "cannot listen for drm events")
        }
        let fd = udev_monitor_get_fd(m)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        udev = u
        monitor = m
        source = name
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// Drains the pending events; true when any drm device was added, removed or changed since the last call.
    public func changed() -> Bool {
        var any = false
        while let device = udev_monitor_receive_device(monitor) {
            if let action = udev_device_get_action(device) {
                let a = String(cString: action)
                if a == "change" || a == "add" || a == "remove" { any = true }
            }
            udev_device_unref(device)
        }
        return any
    }
}
