import KioskCore

/// What a grid tile needs to know of its item, from a probe of the file's headers (no picture is decoded): its
/// kind for the filter chips, its length and projection for the badges.
public enum TileFactsProbe {
    /// The facts of the file at `path`, its projection decided with the playlist's `override` as the player
    /// decides it. Throws the probe's one-line error.
    public static func facts(path: String, override: ProjectionOverride?, limits: DecodeLimits = .standard) throws -> TileFacts {
        facts(of: try MediaFile.probe(path, limits: limits), override: override)
    }

    /// The facts a probe's `info` gives.
    public static func facts(of info: MediaInfo, override: ProjectionOverride?) -> TileFacts {
        let decision = ProjectionResolver.decide(path: info.path, metadata: info.projection, override: override)
        let length = info.kind == .image ? nil : info.duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        return TileFacts(kind: info.kind, duration: length, projection: decision.projection.kind,
                         stereo: decision.projection.stereo, probed: true)
    }
}
