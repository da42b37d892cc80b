import KioskCore
import KioskRender
import KioskSeat

/// How one screen's connectors show its canvas.
public enum DRMScreenShape: Sendable, Equatable {
    /// One connector.
    case single
    /// One canvas across the connectors, left to right, with `bezel` pixels hidden between two panels.
    case span(bezel: Int)
    /// The same canvas on each connector.
    case mirror
}

/// What one screen of several on a card asks for: its connectors and mode (`options`: its first connector, and
/// `connectors` for a span or mirror) and its rotation.
public struct DRMScreenRequest: Sendable, Equatable {
    /// Card, first connector, mode and commits.
    public var options: DRMOutputOptions
    /// The final pass's rotation.
    public var rotation: Rotation
    /// Every connector of a span or mirror, left to right (empty: `options`' connector alone).
    public var connectors: [String]
    /// One connector, a span or a mirror.
    public var shape: DRMScreenShape

    /// A screen on `options`' connector (and `connectors` when it is a span or mirror), turned by `rotation`.
    public init(options: DRMOutputOptions, rotation: Rotation = .none, connectors: [String] = [], shape: DRMScreenShape = .single) {
        self.options = options
        self.rotation = rotation
        self.connectors = connectors
        self.shape = shape
    }
}

extension DRMDisplayOutput {
    /// Opens one output per screen on the connectors of one card (from `report`): one descriptor and master for
    /// all (`DRMCard`), a CRTC per connector (`CRTCAllocation`), each screen with its own GBM and EGL surfaces and
    /// `clocks[i]` (its own when missing). A span's or mirror's connectors scan out one surface (`DRMOutput`'s
    /// parts), at one mode size all of them offer. The first output's waits tend the others (`tendsAlso`). One line
    /// when a connector is missing (with the ones that exist), given twice, on another card, when the card has too
    /// few CRTCs, or when a span's or mirror's displays share no mode size. The first screen's commit mode is every
    /// screen's.
    public static func open(screens: [DRMScreenRequest], report: DisplayReport,
                            opener: DeviceOpener = DirectOpener(group: "video"), clocks: [PresentationClock] = [],
                            log: Log = .shared) throws -> [DRMDisplayOutput] {
        guard let first = screens.first else { return [] }
        let groups = try screens.map { try selections(for: $0, report: report) }
        let flat = groups.flatMap { $0 }
        try checkOneCard(flat)
        let card = try DRMCard(path: flat[0].path, opener: opener, log: log)
        var crtcs = try card.crtcs(for: flat)[...]
        var outputs: [DRMDisplayOutput] = []
        for (i, screen) in screens.enumerated() {
            let group = groups[i]
            let ownCRTCs = Array(crtcs.prefix(group.count))
            crtcs = crtcs.dropFirst(group.count)
            let (canvas, columns) = layout(group, shape: screen.shape)
            let parts = group.indices.map { DRMOutputPart(selection: group[$0], crtc: ownCRTCs[$0], x: columns[$0]) }
            let drm = try DRMOutput(parts: parts, canvas: canvas, card: card, commit: first.options.commit, log: log)
            var options = screen.options
            options.devicePath = group[0].path
            options.connectorName = group[0].connector.name
            outputs.append(try DRMDisplayOutput(drm: drm, options: options, rotation: screen.rotation,
                                                clock: i < clocks.count ? clocks[i] : PresentationClock(), log: log))
        }
        outputs.first?.tendsAlso(outputs)
        return outputs
    }

    /// The selections of one screen's connectors: each as `options` choose it; a span's or mirror's moved to one
    /// mode size all offer (the first connector's choice when every one offers it, else the first of its modes
    /// that every one offers). One line when they share none, or when a span or mirror is turned.
    static func selections(for screen: DRMScreenRequest, report: DisplayReport) throws -> [DisplaySelection] {
        let names = screen.connectors.isEmpty ? [screen.options.connectorName] : screen.connectors.map { Optional($0) }
        let chosen = try names.map { name -> DisplaySelection in
            var options = screen.options
            options.connectorName = name
            return try report.select(options)
        }
        guard chosen.count > 1 else { return chosen }
        let joined = chosen.map(\.connector.name).joined(separator: screen.shape == .mirror ? "," : "+")
        if screen.rotation != .none {
            throw DisplaySelectionError(description: "\(joined): a span or mirror is not turned (--rotate); each panel shows its part upright")
        }
        return try ModeAgreement.commonSize(chosen, label: joined)
    }

    /// A screen's canvas and each connector's first column in it: a span's panels side by side with `bezel`
    /// pixels between two; a mirror's all at 0; nil canvas for one connector (its mode's size).
    static func layout(_ group: [DisplaySelection], shape: DRMScreenShape) -> (PixelSize?, [Int]) {
        guard group.count > 1, let mode = group.first?.mode else { return (nil, [0]) }
        switch shape {
        case .span(let bezel):  // the geometry `kiosk snapshot` and `record` cut a span's parts with
            let canvas = ScreenConnectors.span(group.map(\.connector.name), bezel: bezel)
                .canvas(outputSize: PixelSize(width: mode.width, height: mode.height))
            return (canvas.size, canvas.parts.map(\.rect.x))
        case .mirror, .single:
            return (PixelSize(width: mode.width, height: mode.height), group.map { _ in 0 })
        }
    }

    /// Throws one line when two selections share a connector or the connectors are on more than one card.
    static func checkOneCard(_ selections: [DisplaySelection]) throws {
        var seen: Set<String> = []
        for s in selections where !seen.insert(s.connector.name).inserted {
            throw DisplaySelectionError(description: "connector \(s.connector.name) is given to two screens")
        }
        let cards = selections.map(\.path).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        if cards.count > 1 {
            let placed = selections.map { "\($0.connector.name) on \($0.path)" }.joined(separator: ", ")
            throw DisplaySelectionError(description:
                "several screens over several cards are not built yet (issue 40): \(placed); give connectors of one card")
        }
    }
}

/// One mode size for the displays of a span or mirror (their panels must line up, and one surface feeds them).
enum ModeAgreement {
    /// `chosen` moved to one size: unchanged when they agree; else the first of the first display's modes (its
    /// choice first) that every display offers, each at its own first mode of that size. One line naming `label`
    /// and each display's sizes when there is none.
    static func commonSize(_ chosen: [DisplaySelection], label: String) throws -> [DisplaySelection] {
        let sizes = chosen.map { PixelSize(width: $0.mode.width, height: $0.mode.height) }
        if Set(sizes.map { "\($0)" }).count == 1 { return chosen }
        let lead = chosen[0]
        let order = [lead.modeIndex] + lead.connector.modes.indices.filter { $0 != lead.modeIndex }
        for index in order {
            let want = lead.connector.modes[index]
            let picks = chosen.map { s in
                s.connector.modes.firstIndex { $0.width == want.width && $0.height == want.height }
            }
            if picks.allSatisfy({ $0 != nil }) {
                return zip(chosen, picks).map { DisplaySelection(path: $0.path, connector: $0.connector, modeIndex: $1 ?? 0) }
            }
        }
        let offered = chosen.map { s in
            "\(s.connector.name) " + s.connector.modes.map { "\($0.width)x\($0.height)" }
                .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.joined(separator: " ")
        }.joined(separator: "; ")
        throw DisplaySelectionError(description: "\(label): the displays share no mode size (\(offered))")
    }
}
