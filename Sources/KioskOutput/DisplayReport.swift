import KioskCore
/// What `kiosk outputs` prints: the DRM cards, their connectors and modes. Plain values, no C.

/// One display mode a connector offers.
public struct DisplayMode: Sendable, Equatable, CustomStringConvertible {
    /// Active width in pixels.
    public let width: Int
    /// Active height in pixels.
    public let height: Int
    /// Vertical refresh in Hz, from the pixel clock and totals.
    public let refreshHz: Double
    /// Whether the display marks it preferred.
    public let preferred: Bool

    /// Creates a mode.
    public init(width: Int, height: Int, refreshHz: Double, preferred: Bool) {
        self.width = width
        self.height = height
        self.refreshHz = refreshHz
        self.preferred = preferred
    }

    /// `WxH@Hz` with the refresh rounded to two decimals (trailing zeros dropped).
    public var name: String {
        let hz = (refreshHz * 100).rounded() / 100
        let hzText = hz == hz.rounded() ? String(Int(saturating: hz, rounding: .towardZero)) : String(hz)
        return "\(width)x\(height)@\(hzText)"
    }

    /// The name, with ` (preferred)` when preferred.
    public var description: String { preferred ? "\(name) (preferred)" : name }
}

/// Whether a display is attached to a connector.
public enum ConnectorStatus: String, Sendable, Equatable {
    /// A display is attached.
    case connected
    /// Nothing attached.
    case disconnected
    /// The driver cannot tell.
    case unknown
}

/// One connector of a card.
public struct ConnectorReport: Sendable, Equatable, CustomStringConvertible {
    /// The KMS object id.
    public let id: UInt32
    /// The name users pass to `--drm-connector`, e.g. `HDMI-A-1`, `Virtual-1`.
    public let name: String
    /// Attached or not.
    public let status: ConnectorStatus
    /// The modes offered, in the driver's order.
    public let modes: [DisplayMode]
    /// The display's picture size in millimetres from its EDID (nil when it gives none): a touchscreen of the same
    /// size belongs to it.
    public let millimetres: PhysicalSize?

    /// Creates a connector report.
    public init(id: UInt32, name: String, status: ConnectorStatus, modes: [DisplayMode], millimetres: PhysicalSize? = nil) {
        self.id = id
        self.name = name
        self.status = status
        self.modes = modes
        self.millimetres = millimetres
    }

    /// The preferred mode, else the first.
    public var preferredMode: DisplayMode? { modes.first(where: \.preferred) ?? modes.first }

    /// `NAME status, N modes`.
    public var description: String { "\(name) \(status.rawValue), \(modes.count) modes" }
}

/// One DRM card, or why it could not be read.
public struct CardReport: Sendable, Equatable {
    /// The device path, e.g. `/dev/dri/card0`.
    public let path: String
    /// The kernel driver name (`bochs-drm`, `virtio_gpu`, `i915`...), empty if unknown.
    public let driver: String
    /// Its connectors.
    public let connectors: [ConnectorReport]
    /// Why the card could not be read, if it could not.
    public let error: String?

    /// Creates a card report.
    public init(path: String, driver: String, connectors: [ConnectorReport], error: String? = nil) {
        self.path = path
        self.driver = driver
        self.connectors = connectors
        self.error = error
    }

    /// The first connector with a display attached.
    public var firstConnected: ConnectorReport? { connectors.first(where: { $0.status == .connected }) }
}

/// All DRM cards of the machine.
public struct DisplayReport: Sendable, Equatable, CustomStringConvertible {
    /// The cards, in `/dev/dri/cardN` order.
    public let cards: [CardReport]

    /// Creates a report.
    public init(cards: [CardReport]) { self.cards = cards }

    /// Text for `kiosk outputs`: a line per card, an indented line per connector with its modes.
    public var description: String {
        if cards.isEmpty { return "no DRM cards" }
        var lines: [String] = []
        for card in cards {
            if let error = card.error {
                lines.append("\(card.path): \(error)")
                continue
            }
            lines.append("\(card.path) (\(card.driver))")
            for c in card.connectors {
                let modes = c.modes.map(\.description).joined(separator: ", ")
                lines.append("  \(c.name) \(c.status.rawValue)" + (modes.isEmpty ? "" : ": \(modes)"))
            }
        }
        return lines.joined(separator: "\n")
    }
}
