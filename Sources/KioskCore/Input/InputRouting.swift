/// A width and height in millimetres: a display's picture (its EDID) or a touchscreen's sensor (libinput).
public struct PhysicalSize: Sendable, Equatable, CustomStringConvertible {
    /// Width in millimetres.
    public var width: Double
    /// Height in millimetres.
    public var height: Double

    /// A `width`×`height` mm size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// `521x293 mm`.
    public var description: String { "\(Int(saturating: width.rounded()))x\(Int(saturating: height.rounded())) mm" }

    /// Whether `other` is this size within `tolerance` (a fraction of each side; a touch sensor and the panel
    /// over it differ by a few millimetres).
    public func matches(_ other: PhysicalSize, tolerance: Double = 0.05) -> Bool {
        abs(width - other.width) <= tolerance * width && abs(height - other.height) <= tolerance * height
    }
}

/// What kiosk knows of an input device before it reads it: its node, its name, the output udev assigns it
/// (`WL_OUTPUT`, the property compositors map touchscreens by) and, for a touchscreen, its size.
public struct InputDeviceFacts: Sendable, Equatable {
    /// The event node, `/dev/input/event5`.
    public var path: String
    /// The device's name, `ILITEK Multi-Touch`.
    public var name: String
    /// udev's `WL_OUTPUT` for it: a connector name (`HDMI-A-2`), or nil.
    public var output: String?
    /// Whether it is a touchscreen (udev's `ID_INPUT_TOUCHSCREEN`).
    public var isTouchscreen: Bool
    /// Its sensor's size (libinput), nil when unknown.
    public var size: PhysicalSize?

    /// The facts of the device at `path`.
    public init(path: String, name: String, output: String? = nil, isTouchscreen: Bool = false, size: PhysicalSize? = nil) {
        self.path = path
        self.name = name
        self.output = output
        self.isTouchscreen = isTouchscreen
        self.size = size
    }
}

/// Which screen of several an input device belongs to when the command line does not say (`PATH@NAME` does):
/// the screen showing on the connector udev names for it (`WL_OUTPUT`), else, for a touchscreen, the one screen
/// whose display is its size; anything else stays with the first screen (keyboards, remotes). Pure.
public enum InputRouting {
    /// One screen as the routing sees it: its name, its connectors, their displays' sizes and, for a span, each
    /// panel's part of the canvas.
    public struct ScreenFacts: Sendable, Equatable {
        /// The screen's name.
        public var name: String
        /// Its connectors (one, or a span's or mirror's).
        public var connectors: [String]
        /// Its displays' sizes by connector, where their EDIDs give them.
        public var sizes: [String: PhysicalSize]
        /// A span's panels: each connector's part of the canvas (empty for one display or a mirror).
        public var panels: [String: UnitRect]

        /// A screen named `name` on `connectors` whose displays measure `sizes`, a span's panels at `panels`.
        public init(name: String, connectors: [String], sizes: [String: PhysicalSize] = [:], panels: [String: UnitRect] = [:]) {
            self.name = name
            self.connectors = connectors
            self.sizes = sizes
            self.panels = panels
        }
    }

    /// Where one device goes and why.
    public struct Choice: Sendable, Equatable {
        /// The device.
        public var device: InputDeviceFacts
        /// The screen it goes to (nil: the first screen, as without a rule).
        public var screen: String?
        /// The connector whose display it is on (nil: not known).
        public var connector: String?
        /// Why, for the log: `udev WL_OUTPUT=HDMI-A-2`, `its 521x293 mm is the size of screen door's display (HDMI-A-1)`.
        public var reason: String

        /// `device` goes to `screen` (nil: the first), on `connector`'s display, for `reason`.
        public init(device: InputDeviceFacts, screen: String?, connector: String? = nil, reason: String) {
            self.device = device
            self.screen = screen
            self.connector = connector
            self.reason = reason
        }
    }

    /// Each device's screen, in the devices' order.
    public static func route(_ devices: [InputDeviceFacts], screens: [ScreenFacts]) -> [Choice] {
        devices.map { device in
            if let output = device.output {
                if let screen = screens.first(where: { $0.connectors.contains(output) }) {
                    return Choice(device: device, screen: screen.name, connector: output, reason: "udev WL_OUTPUT=\(output)")
                }
                return Choice(device: device, screen: nil, reason: "udev WL_OUTPUT=\(output) is no screen's connector")
            }
            if device.isTouchscreen, let size = device.size {
                let fits = screens.flatMap { screen in
                    screen.connectors.filter { screen.sizes[$0]?.matches(size) ?? false }.map { (screen: screen.name, connector: $0) }
                }
                if fits.count == 1, let fit = fits.first {
                    return Choice(device: device, screen: fit.screen, connector: fit.connector,
                                  reason: "its \(size) is the size of screen \(fit.screen)'s display (\(fit.connector))")
                }
                if fits.count > 1 {
                    return Choice(device: device, screen: nil,
                                  reason: "its \(size) fits \(fits.map(\.connector).joined(separator: " and ")): give --input-device PATH@NAME")
                }
            }
            return Choice(device: device, screen: nil, reason: "no WL_OUTPUT and no display of its size")
        }
    }

    /// Where each routed device's touches land on its screen's canvas: a device on one panel of a span covers that
    /// panel's part (device node → part); devices on one display or a mirror cover the whole canvas (left out).
    public static func panels(_ choices: [Choice], screens: [ScreenFacts]) -> [String: UnitRect] {
        var out: [String: UnitRect] = [:]
        for choice in choices {
            guard let name = choice.screen, let connector = choice.connector,
                  let rect = screens.first(where: { $0.name == name })?.panels[connector] else { continue }
            out[choice.device.path] = rect
        }
        return out
    }
}
