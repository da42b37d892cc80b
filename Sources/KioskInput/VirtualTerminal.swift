@preconcurrency import Glibc

/// Switching the virtual terminal (Ctrl+Alt+Fn, only with `--allow-vt-switch`): `VT_ACTIVATE` on the console.
public enum VirtualTerminal {
    /// `VT_ACTIVATE` from linux/vt.h.
    static let activateRequest: UInt = 0x5606

    /// `KDGETMODE` from linux/kd.h: succeeds only on a VT.
    static let getModeRequest: UInt = 0x4B3B

    /// Asks the kernel to switch to VT `number`, through standard input when it is a VT (a unit's `TTYPath=`),
    /// else through `console`. Throws an error naming the console and the reason.
    public static func activate(_ number: Int, console: String = "/dev/tty0") throws {
        var mode: CInt = 0
        let onStdin = ioctl(0, getModeRequest, &mode) == 0
        let name = onStdin ? "standard input" : console
        let fd = onStdin ? fcntl(0, F_DUPFD_CLOEXEC, 3) : open(console, O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            throw InputError("open \(name) for VT_ACTIVATE \(number): \(String(cString: strerror(errno)))")
        }
        defer { _ = close(fd) }
        guard ioctl(fd, activateRequest, CInt(number)) == 0 else {
            throw InputError("ioctl VT_ACTIVATE \(number) on \(name): \(String(cString: strerror(errno)))")
        }
    }
}
