@preconcurrency import Glibc

/// Switching the virtual terminal (Ctrl+Alt+Fn, only with `--allow-vt-switch`): `VT_ACTIVATE` on the console.
public enum VirtualTerminal {
    /// `VT_ACTIVATE` from linux/vt.h.
    static let activateRequest: UInt = 0x5606

    /// Asks the kernel to switch to VT `number`. Throws an error naming the console and the reason.
    public static func activate(_ number: Int, console: String = "/dev/tty0") throws {
        let fd = open(console, O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            throw InputError("open \(console) for VT_ACTIVATE \(number): \(String(cString: strerror(errno)))")
        }
        defer { _ = close(fd) }
        guard ioctl(fd, activateRequest, CInt(number)) == 0 else {
            throw InputError("ioctl VT_ACTIVATE \(number) on \(console): \(String(cString: strerror(errno)))")
        }
    }
}
