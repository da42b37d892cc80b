/// The input options of `kiosk play`: where input comes from and the key map's safety flags.
public struct InputOptions: Sendable {
    /// Whether to read input at all (`--no-input` turns it off).
    public var enabled = true
    /// The udev seat read when no device is named.
    public var seat = "seat0"
    /// Explicit device nodes (the path backend); empty: the seat.
    public var devices: [String] = []
    /// Device nodes of the seat whose events this screen drops: they belong to another screen (`InputRouting`).
    public var ignoredDevices: [String] = []
    /// Devices on one panel of a span: where on the canvas their touches land (device node → part of the canvas).
    public var panels: [String: UnitRect] = [:]
    /// Key map, idle return and gesture settings.
    public var interaction = InteractionSettings()

    /// Defaults: the seat `seat0`, the default key map, no quit, no VT switch.
    public init() {}

    /// Every screen's options when `routed` gives some devices their screen (device node → screen name; see
    /// `InputRouting`), in `names`' order: a device named `PATH@NAME` goes where it says; a routed one to its
    /// screen; the rest to the first screen. Without named devices the first screen reads the seat, less the
    /// routed devices, and each other screen its routed devices. Nil: the screen reads no input.
    public func forScreens(_ names: [String], routed: [String: String]) -> [InputOptions?] {
        guard enabled else { return names.map { _ in nil } }
        var own: [String: [String]] = [:]
        for d in devices {
            let (path, screen) = Self.split(d)
            own[screen ?? routed[path] ?? names.first ?? "", default: []].append(path)
        }
        if devices.isEmpty {
            for (path, screen) in routed.sorted(by: { $0.key < $1.key }) where screen != names.first { own[screen, default: []].append(path) }
        }
        return names.enumerated().map { i, name in
            var o = self
            if devices.isEmpty, i == 0 {
                o.ignoredDevices = routed.filter { $0.value != name }.keys.sorted()
                return o
            }
            guard let mine = own[name], !mine.isEmpty else { return nil }
            o.devices = mine
            return o
        }
    }

    /// The devices named without `@NAME`: `InputRouting` may give them a screen.
    public var unnamedDevices: [String] { devices.filter { Self.split($0).screen == nil } }

    /// Checks that each `PATH@NAME` names one of `screens`: one line naming the device and the screens there are.
    public func checkScreens(_ screens: [String]) throws(UsageError) {
        for d in devices {
            if case (_, let name?) = Self.split(d), !screens.contains(name) {
                throw UsageError("--input-device \(ErrorQuote.cut(d)): no screen \(name) (screens: \(screens.joined(separator: ", ")))")
            }
        }
    }

    /// `PATH@NAME` as the path and the screen's name; a path with no `@`, or whose part after the last `@` is no
    /// screen name, is the path alone.
    static func split(_ device: String) -> (path: String, screen: String?) {
        guard let at = device.lastIndex(of: "@") else { return (device, nil) }
        let name = String(device[device.index(after: at)...])
        guard ScreenName.isValid(name) else { return (device, nil) }
        return (String(device[..<at]), name)
    }
}

extension CommandSpecs {
    /// Input options of `kiosk play`.
    public static let input: [OptionSpec] = [
        OptionSpec("seat", .text, metavar: "NAME", "udev seat to read input devices from (default seat0)"),
        OptionSpec("input-device", .text, metavar: "PATH[@SCREEN]",
                   "read this evdev device (/dev/input/eventN) instead of the seat; repeatable; with --screen, PATH@NAME "
                   + "gives it to screen NAME (its gestures act there), else to the first screen", repeatable: true),
        OptionSpec("no-input", .flag, "read no input devices"),
        OptionSpec("key", .text, metavar: "CODE=ACTION",
                   "bind an evdev key (KEY_F5, 63, 0x3f) or a TV remote key over HDMI-CEC (cec:red, cec:right) to next|previous|pause|zoom-in|zoom-out|volume-up|volume-down|mute|overlay|back|quit|none; repeatable",
                   repeatable: true),
        OptionSpec("allow-quit", .flag, "let KEY_Q and KEY_ESC (and keys bound to quit) quit"),
        OptionSpec("allow-vt-switch", .flag, "let Ctrl+Alt+F1..F12 switch the virtual terminal"),
        OptionSpec("touch-idle", .number(1...86_400), metavar: "S",
                   "after S seconds without input, zoom out and return to the running slideshow"),
    ]

    /// Builds the input options from parsed `play` options.
    public static func inputOptions(from o: ParsedOptions) throws -> InputOptions {
        var i = InputOptions()
        i.enabled = !o.has("no-input")
        if let s = o.string("seat") { i.seat = s }
        i.devices = o.all("input-device")
        var keys = KeyMap(allowQuit: o.has("allow-quit"), allowVTSwitch: o.has("allow-vt-switch"))
        for spec in o.all("key") { try keys.bind(spec) }
        i.interaction.keys = keys
        i.interaction.touchIdle = o.number("touch-idle")
        return i
    }
}
