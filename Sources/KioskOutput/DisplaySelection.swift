/// Choosing the card, connector and mode from the user's options. Pure: works on a `DisplayReport`.

/// A requested mode, `WxH` or `WxH@Hz`.
public struct ModeRequest: Sendable, Equatable, CustomStringConvertible {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Refresh in Hz, or nil for the best the size offers.
    public let refreshHz: Double?

    /// Creates a request.
    public init(width: Int, height: Int, refreshHz: Double? = nil) {
        self.width = width
        self.height = height
        self.refreshHz = refreshHz
    }

    /// Parses `WxH` or `WxH@Hz` (`1920x1080`, `1280x720@59.94`); nil if malformed.
    public init?(parsing text: String) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0 else { return nil }
        var hz: Double?
        if parts.count == 2 {
            guard let r = Double(parts[1]), r > 0, r.isFinite else { return nil }
            hz = r
        }
        self.init(width: w, height: h, refreshHz: hz)
    }

    /// `WxH` or `WxH@Hz`.
    public var description: String {
        guard let hz = refreshHz else { return "\(width)x\(height)" }
        return "\(width)x\(height)@\(hz == hz.rounded() ? String(Int(saturating: hz, rounding: .towardZero)) : String(hz))"
    }

    /// Whether `mode` satisfies the request (refresh within 0.5 Hz when one is asked for).
    public func matches(_ mode: DisplayMode) -> Bool {
        guard mode.width == width, mode.height == height else { return false }
        guard let hz = refreshHz else { return true }
        return abs(mode.refreshHz - hz) < 0.5
    }
}

/// How page flips are committed.
public enum CommitMode: String, Sendable, CaseIterable {
    /// Atomic where the driver accepts `DRM_CLIENT_CAP_ATOMIC`, legacy otherwise.
    case auto
    /// Atomic only; fails where unsupported.
    case atomic
    /// `drmModeSetCrtc` and `drmModePageFlip`.
    case legacy
}

/// The user's DRM options: `--drm-device`, `--drm-connector`, `--drm-mode`.
public struct DRMOutputOptions: Sendable, Equatable {
    /// A card path, or nil for the first card with a connected connector.
    public var devicePath: String?
    /// A connector name, or nil for the first connected one.
    public var connectorName: String?
    /// A mode, or nil for the preferred one.
    public var mode: ModeRequest?
    /// Atomic or legacy commits.
    public var commit: CommitMode

    /// Creates options; all defaults pick automatically.
    public init(devicePath: String? = nil, connectorName: String? = nil, mode: ModeRequest? = nil,
                commit: CommitMode = .auto) {
        self.devicePath = devicePath
        self.connectorName = connectorName
        self.mode = mode
        self.commit = commit
    }
}

/// The card, connector and mode chosen for the options.
public struct DisplaySelection: Sendable, Equatable {
    /// The card path.
    public let path: String
    /// The connector.
    public let connector: ConnectorReport
    /// Index of the chosen mode in `connector.modes` (the driver's mode list).
    public let modeIndex: Int

    /// The chosen mode.
    public var mode: DisplayMode { connector.modes[modeIndex] }
}

/// Why no display could be chosen; one line naming the device and what exists.
public struct DisplaySelectionError: Error, Equatable, CustomStringConvertible {
    /// The message.
    public let description: String
}

extension DisplayReport {
    /// Chooses card, connector and mode for `options`; errors list what exists.
    public func select(_ options: DRMOutputOptions) throws -> DisplaySelection {
        let card: CardReport
        if let path = options.devicePath {
            guard let c = cards.first(where: { $0.path == path }) else {
                let known = cards.map(\.path).joined(separator: ", ")
                throw DisplaySelectionError(description: "DRM device \(path) not found; cards: \(known.isEmpty ? "none" : known)")
            }
            if let error = c.error { throw DisplaySelectionError(description: "\(path): \(error)") }
            card = c
        } else if options.connectorName == nil {
            guard let c = cards.first(where: { $0.error == nil && $0.firstConnected != nil }) else {
                throw DisplaySelectionError(description: "no DRM card with a connected connector; \(summary)")
            }
            card = c
        } else {
            let name = options.connectorName ?? ""
            guard let c = cards.first(where: { $0.connectors.contains(where: { $0.name == name }) }) else {
                throw DisplaySelectionError(description: "connector \(name) not found; \(summary)")
            }
            card = c
        }
        let connector: ConnectorReport
        if let name = options.connectorName {
            guard let c = card.connectors.first(where: { $0.name == name }) else {
                throw DisplaySelectionError(description:
                    "connector \(name) not found on \(card.path); connectors: \(Self.list(card.connectors))")
            }
            connector = c
        } else {
            guard let c = card.firstConnected else {
                throw DisplaySelectionError(description:
                    "no connected connector on \(card.path); connectors: \(Self.list(card.connectors))")
            }
            connector = c
        }
        if connector.status == .disconnected || connector.modes.isEmpty {
            throw DisplaySelectionError(description: "connector \(connector.name) on \(card.path) has no display (\(connector.status.rawValue), \(connector.modes.count) modes)")
        }
        let index: Int?
        if let want = options.mode {
            let candidates = connector.modes.indices.filter { want.matches(connector.modes[$0]) }
            index = candidates.first(where: { connector.modes[$0].preferred })
                ?? candidates.max(by: { connector.modes[$0].refreshHz < connector.modes[$1].refreshHz })
            if index == nil {
                let offered = connector.modes.map(\.description).joined(separator: ", ")
                throw DisplaySelectionError(description:
                    "mode \(want) not offered by \(connector.name) on \(card.path); modes: \(offered)")
            }
        } else {
            index = connector.modes.firstIndex(where: \.preferred) ?? 0
        }
        return DisplaySelection(path: card.path, connector: connector, modeIndex: index ?? 0)
    }

    /// `card0: A (connected), B (disconnected); card1: ...`.
    private var summary: String {
        if cards.isEmpty { return "no DRM cards" }
        return "cards: " + cards.map { card in
            card.error.map { "\(card.path) (\($0))" } ?? "\(card.path): \(Self.list(card.connectors))"
        }.joined(separator: "; ")
    }

    private static func list(_ connectors: [ConnectorReport]) -> String {
        connectors.isEmpty ? "none" : connectors.map { "\($0.name) (\($0.status.rawValue))" }.joined(separator: ", ")
    }
}
