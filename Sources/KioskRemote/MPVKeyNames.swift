import KioskCore

/// mpv's key names (`keypress RIGHT`, `keypress SPACE`, `keypress q`) as Linux evdev key codes, which kiosk's
/// key map turns into actions exactly as for a keyboard. A name mpv knows that kiosk's map does not bind does
/// nothing, as in mpv; a name mpv does not know is refused.
public enum MPVKeyNames {
    /// mpv's special key names.
    static let special: [String: String] = [
        "RIGHT": "KEY_RIGHT", "LEFT": "KEY_LEFT", "UP": "KEY_UP", "DOWN": "KEY_DOWN", "SPACE": "KEY_SPACE",
        "ENTER": "KEY_ENTER", "KP_ENTER": "KEY_KPENTER", "ESC": "KEY_ESC", "PGUP": "KEY_PAGEUP", "PGDWN": "KEY_PAGEDOWN",
        "HOME": "KEY_HOME", "MUTE": "KEY_MUTE", "VOLUME_UP": "KEY_VOLUMEUP", "VOLUME_DOWN": "KEY_VOLUMEDOWN",
        "PLAY": "KEY_PLAY", "PAUSE": "KEY_PAUSE", "PLAYPAUSE": "KEY_PLAYPAUSE", "STOP": "KEY_STOP",
        "NEXT": "KEY_NEXTSONG", "PREV": "KEY_PREVIOUSSONG", "FORWARD": "KEY_FASTFORWARD", "REWIND": "KEY_REWIND",
        "-": "KEY_MINUS", "=": "KEY_EQUAL", "+": "KEY_EQUAL", "KP_ADD": "KEY_KPPLUS", "KP_SUBTRACT": "KEY_KPMINUS",
        "ZOOMIN": "KEY_ZOOMIN", "ZOOMOUT": "KEY_ZOOMOUT", "INFO": "KEY_INFO", "BACK": "KEY_BACK",
        "END": "KEY_END", "MENU": "KEY_MENU", "CHANNEL_UP": "KEY_CHANNELUP", "CHANNEL_DOWN": "KEY_CHANNELDOWN",
    ]

    /// Letters and digits: their evdev codes (US layout positions).
    static let characters: [Character: Int] = {
        var out: [Character: Int] = [:]
        for (code, ch) in KeyCode.characters where code < 71 { out[ch] = code }  // the main block, not the keypad
        return out
    }()

    /// The evdev code of an mpv key name; nil for a name mpv does not have.
    public static func code(_ name: String) -> Int? {
        if let evdev = special[name] { return KeyCode.parse(evdev) }
        if name.count == 1, let ch = name.first, let code = characters[Character(ch.lowercased())] { return code }
        if name.hasPrefix("F"), let n = Int(name.dropFirst()), (1...12).contains(n) { return KeyCode.parse("KEY_F\(n)") }
        return nil
    }
}
