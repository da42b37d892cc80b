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
    /// One screen as the routing sees it: its name, its connectors and their displays' sizes.
    public struct ScreenFacts: Sendable, Equatable {
        /// The screen's name.
        public var name: String
        /// Its connectors (one, or a span's or mirror's).
        public var connectors: [String]
        /// Its displays' sizes, where their EDIDs give them.
        public var sizes: [PhysicalSize]

        /// A screen named `name` on `connectors` whose displays measure `sizes`.
        public init(name: String, connectors: [String], sizes: [PhysicalSize] = []) {
            self.name = name
            self.connectors = connectors
            self.sizes = sizes
        }
    }

    /// Where one device goes and why.
    public struct Choice: Sendable, Equatable {
        /// The device.
        public var device: InputDeviceFacts
        /// The screen it goes to (nil: the first screen, as without a rule).
        public var screen: String?
        /// Why, for the log: `udev WL_OUTPUT=HDMI-A-2`, `its 521x293 mm is HDMI-A-2's`.
        public var reason: String
    }

    /// Each device's screen, in the devices' order.
    public static func route(_ devices: [InputDeviceFacts], screens: [ScreenFacts]) -> [Choice] {
        devices.map { device in
            if let output = device.output {
                if let screen = screens.first(where: { $0.connectors.contains(output) }) {
                    return Choice(device: device, screen: screen.name, reason: "udev WL_OUTPUT=\(output)")
                }
                return Choice(device: device, screen: nil, reason: "udev WL_OUTPUT=\(output) is no screen's connector")
            }
            if device.isTouchscreen, let size = device.size {
                let fits = screens.filter { $0.sizes.contains { $0.matches(size) } }
                if fits.count == 1, let screen = fits.first {
                    return Choice(device: device, screen: screen.name, reason: "its \(size) is the size of screen \(screen.name)'s display")
                }
                if fits.count > 1 {
                    return Choice(device: device, screen: nil,
                                  reason: "its \(size) fits \(fits.map(\.name).joined(separator: " and ")): give --input-device PATH@NAME")
                }
            }
            return Choice(device: device, screen: nil, reason: "no WL_OUTPUT and no display of its size")
        }
    }
}
