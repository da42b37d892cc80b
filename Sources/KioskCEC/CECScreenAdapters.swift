import Foundation

/// Which HDMI-CEC adapter each screen of several gets (issue 40): the one its own `cec` option names, or with
/// `auto` the one the kernel ties to its display's connector (a span's or mirror's first). An adapter is one
/// screen's: the first screen to ask for it gets it, and a later one is refused in one line. With several screens
/// `auto` never guesses an adapter tied to no connector (a USB adapter): which TV it reaches is not known, so a
/// screen's section names it (`cec = /dev/cecN`). A player of one screen keeps `CECAdapterChoice`'s rules.
/// It opens no device (it only follows symbolic links in paths); `CECAdapter.list` and `CECAdapter.connector` give
/// it what there is.
public enum CECScreenAdapters {
    /// What one screen asks for.
    public struct Wish: Sendable {
        /// The screen's name.
        public var screen: String
        /// Its `cec` option: `auto`, `off` or a path.
        public var option: String
        /// The DRM card number and connector id of its display (nil: none, as on a headless canvas).
        public var connector: (card: UInt32, connector: UInt32)?

        /// Screen `screen`'s wish `option`, on the display at `connector`.
        public init(screen: String, option: String, connector: (card: UInt32, connector: UInt32)?) {
            self.screen = screen
            self.option = option
            self.connector = connector
        }
    }

    /// An adapter there is: its path, and the DRM connector the kernel ties it to (nil: none said).
    public struct Adapter: Sendable {
        /// `/dev/cecN`.
        public var path: String
        /// Its connector, when the kernel says (`CEC_ADAP_G_CONNECTOR_INFO`).
        public var connector: (card: UInt32, connector: UInt32)?

        /// The adapter at `path`, tied to `connector`.
        public init(path: String, connector: (card: UInt32, connector: UInt32)?) {
            self.path = path
            self.connector = connector
        }
    }

    /// What one screen gets.
    public enum Outcome: Sendable, Equatable {
        /// The adapter at this path.
        case adapter(String)
        /// None, and nothing to say: `off`, or `auto` with no display to tie an adapter to (a headless canvas).
        case none
        /// None, for the reason this line gives (it starts `cec: `): its screen's power is DPMS alone.
        case refused(String)
    }

    /// Each screen's outcome, in `wishes`' order (the first screen first). `adapters`: the adapters there are
    /// (nil: not looked for, when no screen asks for `auto` on a display). `sameAdapter` says whether two paths are
    /// one device (by default: the same path once symbolic links are followed).
    public static func choose(_ wishes: [Wish], adapters: [Adapter]?,
                              sameAdapter: (String, String) -> Bool = sameDevice) -> [Outcome] {
        var taken: [(path: String, screen: String)] = []
        return wishes.map { wish in
            let path: String
            switch wish.option {
            case "off":
                return .none
            case "auto":
                guard let connector = wish.connector else { return .none }
                let display = "card \(connector.card), connector \(connector.connector)"
                guard let adapters, !adapters.isEmpty else {
                    return .refused("cec: no HDMI-CEC adapter (/dev/cec*) for its display (\(display)): the screen's power is DPMS alone")
                }
                guard let tied = adapters.first(where: { $0.connector.map { $0 == connector } ?? false }) else {
                    return .refused("cec: no HDMI-CEC adapter is tied to its display (\(display)): the screen's power is DPMS alone "
                                    + "(cec = /dev/cecN in its [screen \(wish.screen)] section names one)")
                }
                path = tied.path
            default:
                path = wish.option
            }
            if let owner = taken.first(where: { sameAdapter($0.path, path) }) {
                return .refused("cec: \(path) is screen \(owner.screen)'s already: the screen's power is DPMS alone")
            }
            taken.append((path, wish.screen))
            return .adapter(path)
        }
    }

    /// Whether paths `a` and `b` are one device: the same path, or the same once symbolic links are followed
    /// (`/dev/serial/by-id/…` and the node it names).
    public static func sameDevice(_ a: String, _ b: String) -> Bool {
        func resolved(_ p: String) -> String { URL(fileURLWithPath: p).resolvingSymlinksInPath().path }
        return a == b || resolved(a) == resolved(b)
    }
}
