import KioskCore

/// `kiosk probe` output: one JSON object per line, fields in a fixed order.
public enum ProbeReport {
    /// The JSON line for a file that was read; projection fields as decided with `override` (command line).
    public static func line(_ info: MediaInfo, override: ProjectionOverride? = nil) -> String {
        var fields: [(String, String)] = [
            ("path", quote(info.path)),
            ("kind", quote(info.kind.rawValue)),
            ("width", String(info.width)),
            ("height", String(info.height)),
            ("frames", String(info.frames)),
        ]
        fields.append(("duration", info.duration.map(number) ?? "null"))
        fields.append(("loops", String(info.loops)))
        fields.append(("orientation", String(info.orientation)))
        let d = ProjectionResolver.decide(path: info.path, metadata: info.projection, override: override)
        fields.append(("projection", quote(d.unsupported ?? d.projection.kind.rawValue)))
        fields.append(("stereo", quote(d.projection.stereo.rawValue)))
        fields.append(("input_fov", d.projection.isSpherical ? number(d.projection.inputFOV) : "null"))
        fields.append(("source", quote(d.source.rawValue)))
        if info.kind == .video || info.kind == .audio {
            fields.append(("video_codec", info.streams.first { $0.type == "video" }.map { quote($0.codec) } ?? "null"))
            fields.append(("audio_codec", info.streams.first { $0.type == "audio" }.map { quote($0.codec) } ?? "null"))
            fields.append(("rotation", String(info.rotation)))
            fields.append(("streams", "[" + info.streams.map(stream).joined(separator: ",") + "]"))
        }
        return object(fields)
    }

    /// One stream as a JSON object.
    private static func stream(_ s: MediaStream) -> String {
        if s.type == "video" {
            return object([("type", quote(s.type)), ("codec", quote(s.codec)), ("width", String(s.width)), ("height", String(s.height))])
        }
        return object([("type", quote(s.type)), ("codec", quote(s.codec)), ("sample_rate", String(s.sampleRate)),
                       ("channels", String(s.channels))])
    }

    /// The JSON line for a file that could not be read.
    public static func line(path: String, error: String) -> String {
        object([("path", quote(path)), ("error", quote(error))])
    }

    private static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(quote($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A number with at most 6 decimals and no exponent.
    static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        let rounded = (d * 1_000_000).rounded() / 1_000_000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(saturating: rounded, rounding: .towardZero)) }
        return String(rounded)
    }

    /// A JSON string literal.
    static func quote(_ s: String) -> String { JSONValue.quoted(s) }
}
