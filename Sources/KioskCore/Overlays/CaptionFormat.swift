/// The text shown as an item's caption, written with fields in braces as picframe writes it:
/// `{caption}`, `{title} · {artist}`, `{date:%d %B %Y} - {folder}`, `{index}/{count}`.

/// A parse error in a caption format: what is wrong and at which column (1-based, in characters).
public struct CaptionFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The column of the character the error is about.
    public var column: Int
    /// What is wrong, naming the field or conversion.
    public var reason: String

    /// Creates the error.
    public init(column: Int, _ reason: String) {
        self.column = column
        self.reason = reason
    }

    /// `column N: reason`.
    public var description: String { "column \(column): \(reason)" }
}

/// A parsed caption format. Fields:
/// - `{caption}` the item's caption (`ItemMetadata.caption`; the default format is `{caption}` alone),
/// - `{title}`, `{artist}`, `{album}`, `{track}`,
/// - `{date}` (`%Y-%m-%d`, or `%Y` / `%Y-%m` for a date given only to the year or month) or
///   `{date:FORMAT}` with `CaptionDateFormat`'s conversions (`{date:%d %B %Y}` → `24 December 2026`),
/// - `{filename}` the name without its extension, `{folder}` the name of the folder it is in,
/// - `{index}` the item's place in the playlist (from 1) and `{count}` the playlist's length.
///
/// `{{` and `}}` write a brace. Any other text is written as it stands.
///
/// Empty fields and their separators: a text between two fields that is only a separator (spaces, with at most
/// one of `· • - – — , / | ;`) is written only when a non-empty field comes before it and a non-empty field
/// after it, with nothing but empty fields in between; when several such separators are left between two
/// non-empty fields, the last one is written (`{title} - {artist}, {album}` without an artist gives
/// `Title, Album`). Other text is always written. The result is trimmed. A format with fields that all came
/// out empty gives no caption (nil), and so does an empty result; a format without fields is shown as written.
public struct CaptionFormat: Sendable, Equatable {
    /// A field a format may name.
    public enum Field: String, Sendable, CaseIterable {
        /// The item's caption.
        case caption
        /// Its title.
        case title
        /// Its artist.
        case artist
        /// Its album.
        case album
        /// Its date.
        case date
        /// Its track number.
        case track
        /// The file name without its extension.
        case filename
        /// The name of the folder it is in.
        case folder
        /// Its place in the playlist, from 1.
        case index
        /// The playlist's length.
        case count
    }

    /// One piece of a format.
    enum Piece: Sendable, Equatable {
        /// Text written as it stands (braces unescaped).
        case text(String)
        /// A field; `date` carries its format when one was given.
        case field(Field, date: CaptionDateFormat?)
    }

    /// The format as written.
    public let source: String
    /// The pieces in order; no two texts follow each other.
    let pieces: [Piece]

    /// `{caption}`: the item's caption and nothing else.
    public static let standard = CaptionFormat(source: "{caption}", pieces: [.field(.caption, date: nil)])

    private init(source: String, pieces: [Piece]) {
        self.source = source
        self.pieces = pieces
    }

    /// Parses `text`. The error names the unknown field, the unclosed or lone brace, or the bad date conversion,
    /// with its column.
    public init(parsing text: String) throws(CaptionFormatError) {
        let chars = Array(text)
        var pieces: [Piece] = []
        var literal = ""
        var i = 0
        func flush() {
            if !literal.isEmpty { pieces.append(.text(literal)); literal = "" }
        }
        while i < chars.count {
            let c = chars[i]
            if c == "}" {
                guard i + 1 < chars.count, chars[i + 1] == "}" else {
                    throw CaptionFormatError(column: i + 1, "a lone '}' (write '}}' for a brace)")
                }
                literal.append("}")
                i += 2
                continue
            }
            guard c == "{" else { literal.append(c); i += 1; continue }
            if i + 1 < chars.count, chars[i + 1] == "{" {
                literal.append("{")
                i += 2
                continue
            }
            guard let close = chars[(i + 1)...].firstIndex(where: { $0 == "}" || $0 == "{" }), chars[close] == "}" else {
                throw CaptionFormatError(column: i + 1, "'{' is not closed (write '{{' for a brace)")
            }
            let inside = String(chars[(i + 1)..<close])
            let colon = inside.firstIndex(of: ":")
            let name = colon.map { String(inside[..<$0]) } ?? inside
            guard let field = Field(rawValue: name) else {
                throw CaptionFormatError(column: i + 2, "unknown field {\(name)} (known: "
                                         + Field.allCases.map { "{\($0.rawValue)}" }.joined(separator: " ") + ")")
            }
            var dateFormat: CaptionDateFormat?
            if let colon {
                let spec = String(inside[inside.index(after: colon)...])
                guard field == .date else {
                    throw CaptionFormatError(column: i + 2 + name.count, "{\(name)} takes no format (only {date:FORMAT} does)")
                }
                if !spec.isEmpty { dateFormat = try CaptionDateFormat(parsing: spec, column: i + 3 + name.count) }
            }
            flush()
            pieces.append(.field(field, date: dateFormat))
            i = close + 1
        }
        flush()
        self.init(source: text, pieces: pieces)
    }

    /// The fields the format names, in order (repeats included).
    public var fields: [Field] {
        pieces.compactMap { if case .field(let f, _) = $0 { return f } else { return nil } }
    }

    /// The caption for an item with `metadata`, at `index` (from 1) of `count`; nil when it comes out empty
    /// (see the type's rule for empty fields).
    public func render(_ metadata: ItemMetadata, index: Int, count: Int) -> String? {
        let parts: [CaptionJoin.Part] = pieces.map { piece in
            switch piece {
            case .text(let t): return .text(t)
            case .field(let f, let format): return .field(Self.value(of: f, format: format, metadata, index: index, count: count))
            }
        }
        return CaptionJoin.join(parts)
    }

    /// One field's text for an item ("" when the item has none).
    static func value(of field: Field, format: CaptionDateFormat?, _ m: ItemMetadata, index: Int, count: Int) -> String {
        switch field {
        case .caption: return m.caption ?? ""
        case .title: return m.title ?? ""
        case .artist: return m.artist ?? ""
        case .album: return m.album ?? ""
        case .track: return m.track ?? ""
        case .date:
            guard let d = m.date else { return "" }
            return (format ?? CaptionDateFormat.standard(for: d.precision)).format(d)
        case .filename: return m.filename
        case .folder: return m.folder
        case .index: return String(index)
        case .count: return String(count)
        }
    }
}
