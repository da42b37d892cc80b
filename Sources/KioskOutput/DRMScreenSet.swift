import KioskCore
import KioskRender
import KioskSeat

/// What one screen of several on a card asks for: its connector and mode (`options`) and its rotation.
public struct DRMScreenRequest: Sendable, Equatable {
    /// Card, connector, mode and commits.
    public var options: DRMOutputOptions
    /// The final pass's rotation.
    public var rotation: Rotation

    /// A screen on `options`' connector, turned by `rotation`.
    public init(options: DRMOutputOptions, rotation: Rotation = .none) {
        self.options = options
        self.rotation = rotation
    }
}

extension DRMDisplayOutput {
    /// Opens one output per screen on the connectors of one card (from `report`): one descriptor and master for
    /// all (`DRMCard`), a CRTC each (`CRTCAllocation`), each with its own GBM and EGL surfaces and `clocks[i]`
    /// (its own when missing). The first output's waits tend the others (`tendsAlso`). One line when a connector
    /// is missing (with the ones that exist), given twice, on another card, or when the card has too few CRTCs.
    /// The first screen's commit mode is every screen's.
    public static func open(screens: [DRMScreenRequest], report: DisplayReport,
                            opener: DeviceOpener = DirectOpener(group: "video"), clocks: [PresentationClock] = [],
                            log: Log = .shared) throws -> [DRMDisplayOutput] {
        guard let first = screens.first else { return [] }
        let selections = try screens.map { try report.select($0.options) }
        try checkOneCard(selections)
        let card = try DRMCard(path: selections[0].path, opener: opener, log: log)
        let crtcs = try card.crtcs(for: selections)
        var outputs: [DRMDisplayOutput] = []
        for (i, screen) in screens.enumerated() {
            let drm = try DRMOutput(selection: selections[i], card: card, crtc: crtcs[i], commit: first.options.commit, log: log)
            var options = screen.options
            options.devicePath = selections[i].path
            options.connectorName = selections[i].connector.name
            outputs.append(try DRMDisplayOutput(drm: drm, options: options, rotation: screen.rotation,
                                                clock: i < clocks.count ? clocks[i] : PresentationClock(), log: log))
        }
        outputs.first?.tendsAlso(outputs)
        return outputs
    }

    /// Throws one line when two selections share a connector or the connectors are on more than one card.
    static func checkOneCard(_ selections: [DisplaySelection]) throws {
        var seen: Set<String> = []
        for s in selections where !seen.insert(s.connector.name).inserted {
            throw DisplaySelectionError(description:
                "connector \(s.connector.name) is given to two screens (a mirror, A,B, is not built yet)")
        }
        let cards = selections.map(\.path).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        if cards.count > 1 {
            let placed = selections.map { "\($0.connector.name) on \($0.path)" }.joined(separator: ", ")
            throw DisplaySelectionError(description:
                "several screens over several cards are not built yet (issue 40): \(placed); give connectors of one card")
        }
    }
}
