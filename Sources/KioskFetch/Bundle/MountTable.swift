import Foundation
import KioskCore

/// The mount points of a mount table (`/proc/self/mountinfo`, proc(5)): the fifth field of each line, with the
/// kernel's octal escapes (`\040` a space, `\011` a tab, `\012` a newline, `\134` a backslash) undone. Read afresh at
/// every poll: no udev, no D-Bus, so it works in a container (where the host's mounts under /media show only when
/// propagated into it).
public enum MountTable {
    /// The kernel's table of this process's mounts.
    public static let proc = "/proc/self/mountinfo"
    /// Where desktop and stick automounters put removable media: udisks2 (`/media/USER/LABEL`, `/run/media/USER/LABEL`),
    /// usbmount (`/media/usb0`) and hand-made or fstab mounts (`/mnt/…`).
    public static let removableRoots = ["/media", "/run/media", "/mnt"]
    /// The largest table read (a machine with thousands of mounts has a few hundred KiB).
    static let maxBytes = 4 << 20

    /// The mount points in the table at `path` that are one of `roots` or lie below one, in table order, each once;
    /// nil when the table cannot be read.
    public static func mountPoints(in path: String = proc, under roots: [String]) -> [String]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maxBytes) else { return nil }
        var seen: Set<String> = [], points: [String] = []
        for line in [UInt8](data).split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5)
            guard fields.count >= 5 else { continue }
            let point = unescape(fields[4])
            guard roots.contains(where: { point == $0 || point.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }),
                  seen.insert(point).inserted else { continue }
            points.append(point)
        }
        return points
    }

    /// `field` with the kernel's `\NNN` octal escapes turned back into their bytes (a name that is not UTF-8 kept as
    /// `FileName` keeps it, so it opens again).
    static func unescape(_ field: ArraySlice<UInt8>) -> String {
        var bytes: [UInt8] = []
        let raw = Array(field)
        var i = 0
        while i < raw.count {
            if raw[i] == UInt8(ascii: "\\"), let value = octal(raw[(i + 1)..<min(i + 4, raw.count)]) {
                bytes.append(value)
                i += 4
            } else {
                bytes.append(raw[i])
                i += 1
            }
        }
        return FileName.decode(bytes)
    }

    /// The byte three octal digits name; nil unless `digits` are exactly three of them (at most 0o377).
    private static func octal(_ digits: ArraySlice<UInt8>) -> UInt8? {
        guard digits.count == 3 else { return nil }
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(digit) else { return nil }
            value = value * 8 + Int(digit - UInt8(ascii: "0"))
        }
        return value <= 255 ? UInt8(value) : nil
    }
}
