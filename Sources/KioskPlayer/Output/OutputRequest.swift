import Foundation
import KioskCore
import KioskOutput
import KioskRender

/// Where `kiosk play` shows frames: `--output auto|drm|headless` with the DRM options and `--rotate`.
public struct OutputRequest: Sendable, Equatable {
    /// Which output.
    public enum Kind: String, Sendable, CaseIterable {
        /// The display when a usable card with a connected connector exists, else headless.
        case auto
        /// The display; failing to open it is an error.
        case drm
        /// The offscreen canvas.
        case headless
    }

    /// Which output.
    public var kind: Kind
    /// Card, connector, mode.
    public var drm: DRMOutputOptions
    /// The final pass's rotation on a display.
    public var rotation: Rotation
    /// Every connector of a span or mirror, left to right (empty: `drm`'s connector alone).
    public var connectors: [String] = []
    /// One connector, a span or a mirror.
    public var shape: DRMScreenShape = .single

    /// Creates a request.
    public init(kind: Kind = .auto, drm: DRMOutputOptions = DRMOutputOptions(), rotation: Rotation = .none) {
        self.kind = kind
        self.drm = drm
        self.rotation = rotation
    }

    /// Builds a request from the option values (`--output`, `--drm-device`, `--drm-connector`, `--drm-mode`,
    /// `--rotate`); throws a `UsageError` for a malformed mode or rotation.
    public init(output: String?, device: String?, connector: String?, mode: String?, rotate: String?) throws {
        let kind = try output.map { name -> Kind in
            guard let k = Kind(rawValue: name) else {
                throw UsageError("--output: '\(name)' is not one of \(Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return k
        } ?? .auto
        let request = try mode.map { text -> ModeRequest in
            guard let m = ModeRequest(parsing: text) else {
                throw UsageError("--drm-mode: '\(text)' is not WxH or WxH@Hz (e.g. 1920x1080, 1280x720@60)")
            }
            return m
        }
        let rotation = try rotate.map { text -> Rotation in
            guard let degrees = Int(text), let r = Rotation(degrees: degrees) else {
                throw UsageError("--rotate: '\(text)' is not 0, 90, 180 or 270")
            }
            return r
        } ?? Rotation.none
        self.init(kind: kind, drm: DRMOutputOptions(devicePath: device, connectorName: connector, mode: request),
                  rotation: rotation)
    }

    /// Commits frames as `name` says (`--drm-commit auto|atomic|legacy`; nil or another word: auto).
    public mutating func commit(_ name: String?) {
        drm.commit = name.flatMap(CommitMode.init(rawValue:)) ?? .auto
    }

    /// Shows on `placement`'s connectors (`--screen NAME:CONNECTORS:SOURCE`): one, a span or a mirror.
    public mutating func place(_ placement: ScreenConnectors) {
        drm.connectorName = placement.names.first
        switch placement {
        case .single: (connectors, shape) = ([], .single)
        case .span(let names, let bezel): (connectors, shape) = (names, .span(bezel: bezel))
        case .mirror(let names): (connectors, shape) = (names, .mirror)
        }
    }

    /// The canvas a screen of `size` per display composes on here: a span's panels side by side with the bezel
    /// between two; one display's and a mirror's `size`.
    public func canvas(forDisplay size: PixelSize) -> PixelSize {
        guard case .span(let bezel) = shape, connectors.count > 1 else { return size }
        return ScreenConnectors.span(connectors, bezel: bezel).canvas(outputSize: size).size
    }

    /// The display to use, from `report`: the selection, or why there is none (one line). `drm` makes the
    /// reason an error; `auto` falls back on it.
    func chooseDisplay(_ report: DisplayReport, directory: String) -> Result<DisplaySelection, PlayerError> {
        if report.cards.isEmpty {
            let named = drm.devicePath.map { "DRM device \($0) not found: " } ?? "no DRM device: "
            return .failure(PlayerError(named + "\(directory) has no cards (no DRM driver loaded?)"))
        }
        do {
            return .success(try report.select(drm))
        } catch {
            return .failure(PlayerError("\(error)"))
        }
    }
}

/// `kiosk outputs`: the cards, connectors, status and modes.
public enum OutputsReport {
    /// The report's text; throws (one line) when there are no cards in `directory`.
    public static func text(directory: String = "/dev/dri") throws -> String {
        let report = DRMDevice.report(directory: directory)
        guard !report.cards.isEmpty else {
            throw PlayerError("no DRM cards in \(directory) (no DRM driver loaded, or no display hardware)")
        }
        return report.description
    }
}
