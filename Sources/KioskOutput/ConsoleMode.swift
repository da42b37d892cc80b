@preconcurrency import Glibc
import KioskCore

/// The text console's display mode while kiosk shows frames: graphics (`KDSETMODE KD_GRAPHICS` on the foreground
/// VT, so fbcon neither draws its cursor over the frames nor touches the screen), then text again on close.
///
/// Going back to text makes fbcon redraw the whole console. Restoring the CRTC alone does not bring the text back
/// where the driver's modeset clears video memory (QEMU's bochs VGA does), so the text mode is set after the CRTC
/// is restored and DRM master dropped. Where the console can't be opened (not root, no `tty` group, no VT) nothing
/// changes and one info line says why.
final class ConsoleMode {
    /// `KDSETMODE`, `KDGETMODE`, `KD_TEXT` and `KD_GRAPHICS` from linux/kd.h.
    static let setMode: UInt = 0x4B3A, getMode: UInt = 0x4B3B
    static let text: CInt = 0, graphics: CInt = 1
    private var fd: CInt = -1
    private var previous: CInt = 0
    /// The undo the stop watchdog runs if the process exits stuck, before `restore` ran.
    private var exitUndo: ExitRestore.Token?

    /// Switches the console to graphics, remembering its mode: standard input when it is a VT (a systemd unit's
    /// `TTYPath=` with `StandardInput=tty-force` hands the service its VT, owned by its user), else `console`
    /// (the foreground VT, which needs root or the `tty` group, and a device policy that lets it through).
    init(console: String = "/dev/tty0", log: Log) {
        var mode: CInt = 0
        let fd: CInt
        let name: String
        if ioctl(0, Self.getMode, &mode) == 0 {
            fd = fcntl(0, F_DUPFD_CLOEXEC, 3)
            name = "standard input (a VT)"
        } else {
            fd = open(console, O_RDWR | O_CLOEXEC | O_NOCTTY)
            name = console
        }
        guard fd >= 0 else {
            log.info("console: left in text mode: open \(name): \(String(cString: strerror(errno))); "
                     + "the console may stay blank after exit (run kiosk on a VT, e.g. the unit's TTYPath=)")
            return
        }
        guard ioctl(fd, Self.getMode, &mode) == 0, ioctl(fd, Self.setMode, Self.graphics) == 0 else {
            log.info("console: left in text mode: KDSETMODE on \(name): \(String(cString: strerror(errno)))")
            _ = Glibc.close(fd)
            return
        }
        self.fd = fd
        previous = mode
        let previous = mode
        exitUndo = ExitRestore.shared.add("console mode") { _ = ioctl(fd, Self.setMode, previous) }
    }

    /// Puts the console back in the mode it had (text: fbcon redraws it). Idempotent.
    func restore() {
        guard fd >= 0 else { return }
        if let exitUndo { ExitRestore.shared.remove(exitUndo) }
        exitUndo = nil
        _ = ioctl(fd, Self.setMode, previous)
        _ = Glibc.close(fd)
        fd = -1
    }

    deinit { restore() }
}
