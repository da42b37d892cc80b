/// An explicit per-item projection and start view: from an `#EXTKIOSK:` playlist line or command-line flags.

/// The parts of a projection and view that were given explicitly; the rest comes from detection.
public struct ProjectionOverride: Sendable, Equatable {
    /// The keys of the `#EXTKIOSK:` line, in the order docs/projections.md lists them.
    public static let keys = ["projection", "input-fov", "stereo", "eye", "yaw", "pitch", "roll", "fov", "effect"]

    /// `projection=flat|equirect|fisheye`.
    public var kind: ProjectionKind?
    /// `input-fov=DEG` (180–360 for equirect: 360 full, 180 half; 180–220 for fisheye).
    public var inputFOV: Double?
    /// `stereo=mono|sbs|tb|hsbs|htb`.
    public var stereo: StereoLayout?
    /// `eye=left|right`.
    public var eye: Eye?
    /// `yaw=DEG`.
    public var yaw: Double?
    /// `pitch=DEG`.
    public var pitch: Double?
    /// `roll=DEG`.
    public var roll: Double?
    /// `fov=H` or `fov=HxV`, degrees.
    public var fov: (h: Double, v: Double?)?
    /// `effect=NAME[:OPTION]...` (e.g. `effect=mosaic:split=0.2..0.8:period=6`): the picture effect while this item
    /// shows, in place of the player's; its options are checked when it is drawn.
    public var effect: EffectSpec?

    /// Nothing overridden.
    public init() {}

    /// Whether it overrides the projection itself (not just the view).
    public var overridesProjection: Bool { kind != nil || inputFOV != nil || stereo != nil || eye != nil }

    /// Whether it overrides the start view.
    public var overridesView: Bool { yaw != nil || pitch != nil || roll != nil || fov != nil }

    /// Parses `key=value` pairs separated by commas (`projection=equirect,input-fov=180,eye=right,yaw=30`).
    /// The error names the key or value that is wrong.
    public init(parsing text: String) throws {
        self.init()
        for pair in text.split(separator: ",") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard kv.count == 2, !kv[1].isEmpty else { throw UsageError("'\(pair)' is not key=value") }
            try set(kv[0], kv[1])
        }
    }

    /// Sets one key from its text value; the error names the key and value.
    public mutating func set(_ key: String, _ value: String) throws {
        func number(_ range: ClosedRange<Double>) throws -> Double {
            guard let v = Double(value), v.isFinite, range.contains(v) else {
                throw UsageError("\(key): '\(value)' is not a number in \(Int(range.lowerBound))...\(Int(range.upperBound))")
            }
            return v
        }
        switch key {
        case "projection":
            guard let k = ProjectionKind(rawValue: value) else {
                throw UsageError("projection: '\(value)' is not one of \(ProjectionKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            kind = k
        case "input-fov":
            inputFOV = try number(1...360)
        case "stereo":
            guard let s = StereoLayout(rawValue: value) else {
                throw UsageError("stereo: '\(value)' is not one of \(StereoLayout.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            stereo = s
        case "eye":
            guard let e = Eye(rawValue: value) else { throw UsageError("eye: '\(value)' is not left or right") }
            eye = e
        case "yaw": yaw = try number(-180...180)
        case "pitch": pitch = try number(-90...90)
        case "roll": roll = try number(-180...180)
        case "fov":
            guard let f = Self.parseFOV(value) else {
                throw UsageError("fov: '\(value)' is not H or HxV with each in 20...120")
            }
            fov = f
        case "effect":
            effect = try EffectSpec.split(value, flag: "effect")
        default:
            throw UsageError("unknown key '\(key)' (known: \(Self.keys.joined(separator: ", ")))")
        }
    }

    /// Parses `H` or `HxV`, each within `SphereView.fovRange`.
    public static func parseFOV(_ text: String) -> (h: Double, v: Double?)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        let values = parts.compactMap { Double($0) }
        guard values.count == parts.count, (1...2).contains(values.count),
              values.allSatisfy({ SphereView.fovRange.contains($0) }) else { return nil }
        return (values[0], values.count == 2 ? values[1] : nil)
    }

    /// This override with `other`'s values on top wherever `other` gives one.
    public func merged(with other: ProjectionOverride?) -> ProjectionOverride {
        guard let other else { return self }
        var m = self
        m.kind = other.kind ?? kind
        m.inputFOV = other.inputFOV ?? inputFOV
        m.stereo = other.stereo ?? stereo
        m.eye = other.eye ?? eye
        m.yaw = other.yaw ?? yaw
        m.pitch = other.pitch ?? pitch
        m.roll = other.roll ?? roll
        m.fov = other.fov ?? fov
        m.effect = other.effect ?? effect
        return m
    }

    /// Checks that the projection it asks for can be shown: an equirect covers 360 or 180 degrees, a fisheye
    /// 180–220. The error names the value.
    public func validate() throws {
        guard let f = inputFOV else { return }
        switch kind {
        case .fisheye?:
            guard ItemProjection.fisheyeFOVs.contains(f) else { throw UsageError("input-fov: a fisheye covers 180...220 degrees, not \(f)") }
        default:
            guard (180...360).contains(f) else { throw UsageError("input-fov: an equirect covers 180...360 degrees, not \(f)") }
        }
    }

    /// The start view it asks for on a canvas of `canvas` size: v360's defaults (all angles 0) where it gives none,
    /// the horizontal field of view 90 when none is given, and the vertical one from the canvas aspect when only
    /// the horizontal one is given. Clamped to the view's limits.
    public func startView(canvas: PixelSize) -> SphereView {
        let h = fov?.h ?? SphereView.defaultFOV
        let v = fov?.v ?? SphereView.verticalFOV(horizontal: h, aspect: canvas.aspect)
        return SphereView(yaw: yaw ?? 0, pitch: pitch ?? 0, roll: roll ?? 0, hFOV: h, vFOV: v).clamped
    }

    /// Equality of the given values.
    public static func == (a: ProjectionOverride, b: ProjectionOverride) -> Bool {
        a.kind == b.kind && a.inputFOV == b.inputFOV && a.stereo == b.stereo && a.eye == b.eye && a.yaw == b.yaw
            && a.pitch == b.pitch && a.roll == b.roll && a.fov?.h == b.fov?.h && a.fov?.v == b.fov?.v && a.effect == b.effect
    }
}

/// Decides an item's projection: an explicit override, else the file's metadata, else its name, else flat.
public enum ProjectionResolver {
    /// The decision for a file at `path` with `metadata` (nil when not probed) and an `override`.
    /// The override's projection fields win over what was detected; fields it leaves out keep the detected values.
    public static func decide(path: String, metadata: ProjectionMetadata?, override: ProjectionOverride?) -> ProjectionDecision {
        var decision: ProjectionDecision
        if let m = metadata, let kind = m.kind {
            // With the eyes stored right first, the left eye is the second half.
            decision = ProjectionDecision(projection: ItemProjection(kind: kind, inputFOV: m.inputFOV, stereo: m.stereo ?? .mono,
                                                                     eye: m.swappedEyes ? .right : .left),
                                          source: .metadata)
        } else if let m = metadata, m.unsupported != nil || m.stereo != nil {
            decision = ProjectionDecision(projection: ItemProjection(kind: .flat, stereo: m.stereo ?? .mono,
                                                                     eye: m.swappedEyes ? .right : .left),
                                          source: .metadata, unsupported: m.unsupported)
        } else if let named = ProjectionDetector.detect(path: path) {
            decision = ProjectionDecision(projection: named, source: .name)
        } else {
            decision = ProjectionDecision(projection: .flat, source: .none)
        }
        guard let o = override else { return decision }
        if o.overridesProjection {
            var p = decision.projection
            if let k = o.kind, k != p.kind { p = ItemProjection(kind: k, stereo: p.stereo, eye: p.eye) }
            // An input field of view alone turns a flat item into an equirect of that coverage.
            if o.kind == nil, o.inputFOV != nil, p.kind == .flat { p = ItemProjection(kind: .equirect, stereo: p.stereo, eye: p.eye) }
            if let f = o.inputFOV { p.inputFOV = f }
            if let s = o.stereo { p.stereo = s }
            if let e = o.eye { p.eye = e }
            decision = ProjectionDecision(projection: p, source: .override)
        }
        return decision
    }
}
