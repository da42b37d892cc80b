/// The command-line options for projections, the sphere view, panning and effects (`play`, `record`, `snapshot`).

extension CommandSpecs {
    /// The projection override options, also taken by `probe`.
    public static let projectionFlags: [OptionSpec] = [
        OptionSpec("projection", .choice(ProjectionKind.allCases.map(\.rawValue)), "source projection, overriding detection (default: from metadata or name, else flat)"),
        OptionSpec("input-fov", .number(180...360), metavar: "DEG", "degrees the source covers: 360 or 180 (equirect), 180..220 (fisheye)"),
        OptionSpec("stereo", .choice(StereoLayout.allCases.map(\.rawValue)), "stereo packing of the source (default: detected, else mono)"),
        OptionSpec("eye", .choice(Eye.allCases.map(\.rawValue)), "which eye of stereo content to show (default left)"),
    ]

    /// Projection, view and effect options, appended to `play`, `record` and `snapshot`.
    public static let view: [OptionSpec] = projectionFlags + [
        OptionSpec("yaw", .number(-180...180), metavar: "DEG", "start view: turn right (v360's yaw, default 0)"),
        OptionSpec("pitch", .number(-90...90), metavar: "DEG", "start view: look up (v360's pitch, default 0)"),
        OptionSpec("roll", .number(-180...180), metavar: "DEG", "start view: roll (v360's roll, default 0)"),
        OptionSpec("fov", .text, metavar: "H|HxV", "view field of view in degrees, 20..120 (default 90, vertical from the aspect)"),
        OptionSpec("pan-speed", .number(-90...90), metavar: "DEG_PER_S", "slideshow pan of 360/180 items, yaw degrees per second (default 3, 0 = still)"),
        OptionSpec("effect", .text, metavar: "mosaic[:tile=N][:split=R]", "picture effect: mosaic tiles of N px (default 16) left of R (0..1, default 0.5; A..B sweeps it every period S s) with a W px bar on it (default 2, #FF0000; 0: none) that a drag moves"),
    ]

    /// Reads the view options into `config`; the error names the flag.
    static func applyView(_ o: ParsedOptions, to c: inout PlayerConfig) throws {
        var p = try projectionOverride(o)
        p.yaw = o.number("yaw")
        p.pitch = o.number("pitch")
        p.roll = o.number("roll")
        if let f = o.string("fov") {
            guard let fov = ProjectionOverride.parseFOV(f) else { throw UsageError("--fov: '\(f)' is not H or HxV with each in 20..120") }
            p.fov = fov
        }
        c.projection = p
        if let s = o.number("pan-speed") { c.panSpeed = s }
        if let e = o.string("effect") { c.effect = try PieceSpec.split(e, flag: "--effect") }
    }

    /// The projection flags as an override; the error names the flag.
    public static func projectionOverride(_ o: ParsedOptions) throws -> ProjectionOverride {
        var p = ProjectionOverride()
        if let v = o.string("projection") { p.kind = ProjectionKind(rawValue: v) }
        if let v = o.number("input-fov") { p.inputFOV = v }
        if let v = o.string("stereo") { p.stereo = StereoLayout(rawValue: v) }
        if let v = o.string("eye") { p.eye = Eye(rawValue: v) }
        do { try p.validate() } catch let e as UsageError { throw UsageError("--\(e.message)") }
        return p
    }
}
