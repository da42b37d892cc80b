/// The caption options of `kiosk play` and `kiosk record`: whether captions show, their format, where and for
/// how long. Errors are one line naming the flag.

/// Where on the screen the caption sits.
public enum CaptionPosition: String, Sendable, CaseIterable {
    /// Along the top edge.
    case top
    /// Along the bottom edge (the default).
    case bottom
}

/// How captions are shown; nil in `PlayerConfig` when they are off.
public struct CaptionSettings: Sendable, Equatable {
    /// What each caption says (default `{caption}`).
    public var format: CaptionFormat
    /// Where it sits (default bottom).
    public var position: CaptionPosition
    /// Seconds it stays after the item appears; nil: as long as the item.
    public var seconds: Double?

    /// Captions in `format` at `position`, staying `seconds` (nil: the whole item).
    public init(format: CaptionFormat = .standard, position: CaptionPosition = .bottom, seconds: Double? = nil) {
        self.format = format
        self.position = position
        self.seconds = seconds
    }
}

extension CommandSpecs {
    /// The caption options, appended to `play` and `record`.
    public static let captions: [OptionSpec] = [
        OptionSpec("captions", .flag, "show each item's caption: playlist, NAME.txt, XMP/IPTC/EXIF description or tags"),
        OptionSpec("caption", .text, metavar: "FORMAT",
                   "caption text from fields (implies --captions): {caption} {title} {artist} {album} {track} "
                   + "{date} {date:%d %B %Y} {filename} {folder} {index} {count}; {{ and }} for braces (default {caption})"),
        OptionSpec("caption-position", .choice(CaptionPosition.allCases.map(\.rawValue)), "where the caption sits (default bottom)"),
        OptionSpec("caption-time", .number(0.1...86_400), metavar: "S", "seconds the caption stays (default: as long as the item)"),
    ]

    /// The caption settings the options ask for, nil when captions are off; the error names the flag.
    public static func captionSettings(_ o: ParsedOptions) throws(UsageError) -> CaptionSettings? {
        guard o.has("captions") || o.has("caption") else {
            for flag in ["caption-position", "caption-time"] where o.has(flag) {
                throw UsageError("--\(flag) needs --captions or --caption FORMAT")
            }
            return nil
        }
        var settings = CaptionSettings()
        if let text = o.string("caption") {
            do {
                settings.format = try CaptionFormat(parsing: text)
            } catch {
                throw UsageError("--caption: '\(text)': \(error)")
            }
        }
        if let p = o.string("caption-position"), let position = CaptionPosition(rawValue: p) { settings.position = position }
        settings.seconds = o.number("caption-time")
        return settings
    }
}
