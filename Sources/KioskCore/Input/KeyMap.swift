import Foundation

/// Keys and remote buttons: evdev key codes (keyboards, IR receivers and HDMI-CEC adapters all arrive as evdev
/// keys) mapped to actions, configurable with `--key CODE=ACTION`, with the kiosk's safety rules: no key quits
/// unless `--allow-quit`, and Ctrl+Alt+Fn switches the VT only with `--allow-vt-switch`.

/// What a key does.
public enum KeyAction: String, Sendable, CaseIterable {
    /// The next item.
    case next
    /// The previous item.
    case previous
    /// Pause or resume the slideshow.
    case pause
    /// Zoom in one step (a sphere: narrower field of view).
    case zoomIn = "zoom-in"
    /// Zoom out one step.
    case zoomOut = "zoom-out"
    /// Louder.
    case volumeUp = "volume-up"
    /// Quieter.
    case volumeDown = "volume-down"
    /// Mute or unmute.
    case mute
    /// Show or hide captions (`OverlayChange.toggleInfo`).
    case overlay
    /// Back: zoom out and return to the running slideshow.
    case back
    /// Turn the picture effect off and on again (no key has it by default: `--key KEY_F=effect`).
    case effect
    /// Open or close the overview grid (the menu key).
    case grid
    /// Quit (only with `--allow-quit`).
    case quit
    /// Nothing: the key is swallowed.
    case none
}

/// Well-known evdev key codes (linux/input-event-codes.h), by the names used in `--key`.
public enum KeyCode {
    /// Names and codes.
    public static let byName: [String: Int] = [
        "KEY_ESC": 1, "KEY_MINUS": 12, "KEY_EQUAL": 13, "KEY_Q": 16, "KEY_ENTER": 28, "KEY_LEFTCTRL": 29,
        "KEY_LEFTALT": 56, "KEY_SPACE": 57, "KEY_KPMINUS": 74, "KEY_KPPLUS": 78, "KEY_KPENTER": 96,
        "KEY_RIGHTCTRL": 97, "KEY_RIGHTALT": 100, "KEY_HOME": 102, "KEY_UP": 103, "KEY_PAGEUP": 104,
        "KEY_LEFT": 105, "KEY_RIGHT": 106, "KEY_DOWN": 108, "KEY_PAGEDOWN": 109, "KEY_MUTE": 113,
        "KEY_VOLUMEDOWN": 114, "KEY_VOLUMEUP": 115, "KEY_PAUSE": 119, "KEY_STOP": 128, "KEY_BACK": 158,
        "KEY_EXIT": 174, "KEY_NEXTSONG": 163, "KEY_PLAYPAUSE": 164, "KEY_PREVIOUSSONG": 165, "KEY_REWIND": 168,
        "KEY_PLAYCD": 200, "KEY_PAUSECD": 201, "KEY_PLAY": 207, "KEY_FASTFORWARD": 208, "KEY_OK": 0x160,
        "KEY_SELECT": 0x161, "KEY_INFO": 0x166, "KEY_NEXT": 0x197, "KEY_PREVIOUS": 0x19c, "KEY_ZOOMIN": 0x1a2,
        "KEY_ZOOMOUT": 0x1a3, "KEY_I": 23, "KEY_P": 25, "KEY_N": 49, "KEY_B": 48, "KEY_E": 18, "KEY_F": 33, "KEY_M": 50,
        "KEY_F1": 59, "KEY_F2": 60, "KEY_F3": 61, "KEY_F4": 62, "KEY_F5": 63, "KEY_F6": 64, "KEY_F7": 65,
        "KEY_F8": 66, "KEY_F9": 67, "KEY_F10": 68, "KEY_F11": 87, "KEY_F12": 88,
        "KEY_MENU": 139, "KEY_END": 107, "KEY_G": 34, "KEY_CONTEXT_MENU": 0x1b6, "KEY_CHANNELUP": 0x192,
        "KEY_CHANNELDOWN": 0x193,
    ]

    /// The letter or digit (lowercase) each letter, digit and keypad digit key types: what SMIL's `accesskey()`
    /// waits on.
    public static let characters: [Int: Character] = {
        var map: [Int: Character] = [:]
        for (i, c) in "1234567890".enumerated() { map[2 + i] = c }
        for (row, start) in [("qwertyuiop", 16), ("asdfghjkl", 30), ("zxcvbnm", 44)] {
            for (i, c) in row.enumerated() { map[start + i] = c }
        }
        for (code, c) in [(79, "1"), (80, "2"), (81, "3"), (75, "4"), (76, "5"), (77, "6"), (71, "7"), (72, "8"), (73, "9"), (82, "0")] {
            map[code] = Character(c)
        }
        return map
    }()

    /// The letter or digit key `code` types (a TV remote's number keys over CEC too).
    public static func character(_ code: Int) -> Character? {
        characters[code] ?? CECKeys.evdev(of: code).flatMap { characters[$0] }
    }

    /// The code of `KEY_NAME`, `NAME` or a number (decimal or 0x hex).
    public static func parse(_ s: String) -> Int? {
        let t = s.trimmingCharacters(in: .whitespaces)
        if t.lowercased().hasPrefix("0x") { return Int(t.dropFirst(2), radix: 16) }
        if let n = Int(t), n >= 0, n < 0x300 { return n }
        let up = t.uppercased()
        if let code = byName[up] ?? byName["KEY_" + up] { return code }
        // KEY_A … KEY_Z, KEY_0 … KEY_9
        let bare = up.hasPrefix("KEY_") ? String(up.dropFirst(4)) : up
        guard bare.count == 1, let c = bare.lowercased().first else { return nil }
        return characters.first { $0.value == c && $0.key < 71 }?.key
    }

    /// Function keys F1...F12 and their VT numbers.
    public static let functionKeys: [Int: Int] = [59: 1, 60: 2, 61: 3, 62: 4, 63: 5, 64: 6, 65: 7, 66: 8, 67: 9, 68: 10,
                                                   87: 11, 88: 12]
    /// Ctrl keys.
    static let ctrl: Set<Int> = [29, 97]
    /// Alt keys.
    static let alt: Set<Int> = [56, 100]
}

/// What a key press comes to after the map and the safety rules.
public enum KeyOutcome: Sendable, Equatable {
    /// An action.
    case action(KeyAction)
    /// Ctrl+Alt+Fn with `--allow-vt-switch`: switch to this VT.
    case switchVT(Int)
    /// Nothing (unmapped, a release, a modifier, a quit or VT switch that is not allowed).
    case ignored
}

/// The key map and the modifier state.
public struct KeyMap: Sendable {
    /// Code -> action.
    public private(set) var actions: [Int: KeyAction]
    /// Whether a quit action may quit.
    public var allowQuit: Bool
    /// Whether Ctrl+Alt+Fn may switch the VT.
    public var allowVTSwitch: Bool
    private var held = Set<Int>()

    /// The default map (quit keys only with `allowQuit`).
    public init(allowQuit: Bool = false, allowVTSwitch: Bool = false) {
        self.allowQuit = allowQuit
        self.allowVTSwitch = allowVTSwitch
        var a: [Int: KeyAction] = [:]
        for (names, action) in Self.defaults {
            for n in names { if let c = KeyCode.byName[n] { a[c] = action } }
        }
        if allowQuit { a[1] = .quit; a[16] = .quit }
        actions = a
    }

    /// The default bindings.
    public static let defaults: [([String], KeyAction)] = [
        (["KEY_RIGHT", "KEY_DOWN", "KEY_NEXTSONG", "KEY_NEXT", "KEY_PAGEDOWN", "KEY_FASTFORWARD"], .next),
        (["KEY_LEFT", "KEY_UP", "KEY_PREVIOUSSONG", "KEY_PREVIOUS", "KEY_PAGEUP", "KEY_REWIND"], .previous),
        (["KEY_SPACE", "KEY_PLAYPAUSE", "KEY_PAUSE", "KEY_PLAY", "KEY_PLAYCD", "KEY_PAUSECD"], .pause),
        (["KEY_EQUAL", "KEY_KPPLUS", "KEY_ZOOMIN"], .zoomIn),
        (["KEY_MINUS", "KEY_KPMINUS", "KEY_ZOOMOUT"], .zoomOut),
        (["KEY_VOLUMEUP"], .volumeUp), (["KEY_VOLUMEDOWN"], .volumeDown), (["KEY_MUTE"], .mute),
        (["KEY_OK", "KEY_ENTER", "KEY_KPENTER", "KEY_SELECT", "KEY_INFO"], .overlay),
        (["KEY_BACK", "KEY_HOME", "KEY_EXIT"], .back),
        (["KEY_MENU", "KEY_CONTEXT_MENU", "KEY_G"], .grid),
    ]

    /// Binds `CODE=ACTION` (`KEY_F5=next`, `0x160=overlay`, `28=none`, `cec:red=next` for the TV remote's
    /// red key over HDMI-CEC). Throws a `UsageError` naming `--key`.
    public mutating func bind(_ spec: String) throws {
        let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw UsageError("--key: '\(spec)' is not CODE=ACTION") }
        let isCEC = parts[0].lowercased().hasPrefix("cec:")
        guard let code = isCEC ? CECKeys.parse(parts[0]) : KeyCode.parse(parts[0]) else {
            if isCEC {
                throw UsageError("--key: '\(parts[0])' is not a CEC key (\(CECKeys.table.map { "cec:" + $0.name }.joined(separator: ", ")))")
            }
            throw UsageError("--key: '\(parts[0])' is not a key code (a number or a name like KEY_F5)")
        }
        guard let action = KeyAction(rawValue: parts[1].trimmingCharacters(in: .whitespaces).lowercased()) else {
            throw UsageError("--key: '\(parts[1])' is not one of \(KeyAction.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        actions[code] = action
    }

    /// One key event: what it does under the map and the safety rules.
    public mutating func handle(code: Int, pressed: Bool) -> KeyOutcome {
        guard pressed else {
            held.remove(code)
            return .ignored
        }
        let repeated = held.contains(code)
        held.insert(code)
        if KeyCode.ctrl.contains(code) || KeyCode.alt.contains(code) { return .ignored }
        let ctrl = !held.isDisjoint(with: KeyCode.ctrl), alt = !held.isDisjoint(with: KeyCode.alt)
        if ctrl && alt, let vt = KeyCode.functionKeys[code] {
            return allowVTSwitch && !repeated ? .switchVT(vt) : .ignored
        }
        // a TV remote's key over CEC: its own binding, else what its evdev key does
        guard let action = actions[code] ?? CECKeys.evdev(of: code).flatMap({ actions[$0] }), action != .none else { return .ignored }
        if action == .quit && !allowQuit { return .ignored }
        return .action(action)
    }
}
