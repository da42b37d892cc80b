import Foundation

/// The TV remote's keys as HDMI-CEC carries them (`<User Control Pressed>` UI command codes, CEC 1.4 table 27):
/// each has a name for `--key cec:NAME=ACTION` and the evdev key it stands for (as the kernel's own rc-cec map
/// gives them), so the TV's remote drives kiosk through the same key map as a keyboard or an IR remote. A CEC key
/// reaches the key map as code `base + UI command`: bound with `cec:NAME` it does that action, otherwise what its
/// evdev key does.
public enum CECKeys {
    /// Where CEC keys' codes start (above every evdev code).
    public static let base = 0x10000

    /// Name, UI command code, evdev key code.
    public static let table: [(name: String, ui: UInt8, evdev: Int)] = [
        ("select", 0x00, 0x160), ("up", 0x01, 103), ("down", 0x02, 108), ("left", 0x03, 105), ("right", 0x04, 106),
        ("root-menu", 0x09, 139), ("setup-menu", 0x0A, 141), ("contents-menu", 0x0B, 0x16d), ("exit", 0x0D, 174),
        ("0", 0x20, 11), ("1", 0x21, 2), ("2", 0x22, 3), ("3", 0x23, 4), ("4", 0x24, 5), ("5", 0x25, 6),
        ("6", 0x26, 7), ("7", 0x27, 8), ("8", 0x28, 9), ("9", 0x29, 10), ("enter", 0x2B, 28),
        ("channel-up", 0x30, 0x192), ("channel-down", 0x31, 0x193), ("info", 0x35, 0x166),
        ("volume-up", 0x41, 115), ("volume-down", 0x42, 114), ("mute", 0x43, 113),
        ("play", 0x44, 207), ("stop", 0x45, 128), ("pause", 0x46, 119), ("rewind", 0x48, 168), ("fast-forward", 0x49, 208),
        ("forward", 0x4B, 163), ("backward", 0x4C, 165), ("play-function", 0x60, 207), ("pause-play-function", 0x61, 164),
        ("blue", 0x71, 0x191), ("red", 0x72, 0x18e), ("green", 0x73, 0x18f), ("yellow", 0x74, 0x190),
    ]

    /// The key map's code for UI command `ui`.
    public static func code(ui: UInt8) -> Int { base + Int(ui) }

    /// The UI command of a key-map code, if it is a CEC key's.
    public static func ui(of code: Int) -> UInt8? {
        (base...(base + 0xFF)).contains(code) ? UInt8(code - base) : nil
    }

    /// The evdev key a CEC key stands for (nil: one kiosk has no use for).
    public static func evdev(of code: Int) -> Int? {
        guard let ui = ui(of: code) else { return nil }
        return table.first { $0.ui == ui }?.evdev
    }

    /// The key-map code of `cec:NAME` (`cec:red`, `cec:0x72`).
    public static func parse(_ spec: String) -> Int? {
        let name = spec.lowercased()
        guard name.hasPrefix("cec:") else { return nil }
        let rest = String(name.dropFirst(4))
        if let entry = table.first(where: { $0.name == rest }) { return code(ui: entry.ui) }
        if rest.hasPrefix("0x"), let v = UInt8(rest.dropFirst(2), radix: 16) { return code(ui: v) }
        return nil
    }

    /// A key's name for logs (`right`, or the code in hex).
    public static func name(ui: UInt8) -> String {
        table.first { $0.ui == ui }?.name ?? String(format: "0x%02x", ui)
    }
}

/// The TV's power status as HDMI-CEC reports it (`<Report Power Status>`); `unknown` before it answered, or
/// when it does not.
public enum TVPower: String, Sendable, CaseIterable {
    case on
    case standby
    case toOn = "to-on"
    case toStandby = "to-standby"
    case unknown
}
