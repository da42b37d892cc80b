import KioskCore

/// Targets over the text the player reads: playlists with `#EXTKIOSK:` lines, and config files through the
/// option tables of `kiosk play`.
enum TextTargets {
    /// A log that drops every line (the parsers warn about bad lines).
    static let quiet = Log(level: .error, sink: { _ in })

    static let all: [FuzzTarget] = [
        FuzzTarget(name: "m3u") { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            for item in M3U.entries(in: text, base: "/srv/kiosk", source: "fuzz.m3u", log: quiet) {
                check(item.path.hasPrefix("/"), "relative path '\(item.path)'")
                check(item.duration.map { $0.isFinite && $0 > 0 } ?? true, "duration \(String(describing: item.duration))")
                if let o = item.override {
                    check((try? o.validate()) != nil, "an invalid override was kept: \(o)")
                    let view = o.startView(canvas: PixelSize(width: 1920, height: 1080))
                    check([view.yaw, view.pitch, view.roll, view.hFOV, view.vFOV].allSatisfy(\.isFinite), "view \(view)")
                }
                _ = ProjectionResolver.decide(path: item.path, metadata: nil, override: item.override)
            }
        },
        FuzzTarget(name: "config") { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            guard let args = try? ConfigFile.expand(["--config", "kiosk.conf"], read: { _ in text }),
                  let options = try? ParsedOptions.parse(args, specs: CommandSpecs.play, command: "play") else { return }
            _ = try? CommandSpecs.config(from: options)
            _ = try? CommandSpecs.inputOptions(from: options)
            _ = try? CommandSpecs.projectionOverride(options)
        },
    ]
}
