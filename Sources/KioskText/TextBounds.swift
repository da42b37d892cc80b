/// Bounds on what text reaches shaping and layout: at most so many characters (grapheme clusters), so many lines
/// and so many combining marks on one character. Text from outside (an IPC `show-text`, an EXIF caption) can be
/// megabytes, or one letter under 300,000 accents, which HarfBuzz shapes for minutes and which stack into a glyph
/// block taller than any texture. `TextLayout` applies them before it shapes anything, in one pass that stops at
/// the cut, so a layout's cost is bounded whatever the input.

/// The most text one layout takes.
public struct TextBounds: Sendable, Hashable {
    /// Characters (grapheme clusters, a line break counting as one) kept; the rest is cut, with "…".
    public var maxCharacters: Int
    /// Lines (text between line breaks) kept; the rest is cut, with "…".
    public var maxLines: Int
    /// Combining marks (Unicode Mn, Mc, Me) kept on one character; the rest are dropped.
    public var maxMarksPerCharacter: Int
    /// Unicode scalars kept in one character (marks included): a joined emoji needs fewer than 16.
    public var maxScalarsPerCharacter: Int

    /// Bounds; each at least 1.
    public init(maxCharacters: Int, maxLines: Int, maxMarksPerCharacter: Int, maxScalarsPerCharacter: Int = 16) {
        self.maxCharacters = max(1, maxCharacters)
        self.maxLines = max(1, maxLines)
        self.maxMarksPerCharacter = max(0, maxMarksPerCharacter)
        self.maxScalarsPerCharacter = max(1, maxScalarsPerCharacter)
    }

    /// On-screen messages, the clock and every text without bounds of its own.
    public static let standard = TextBounds(maxCharacters: 2_000, maxLines: 100, maxMarksPerCharacter: 4)
    /// Captions (a few lines under the picture).
    public static let caption = TextBounds(maxCharacters: 500, maxLines: 20, maxMarksPerCharacter: 4)

    /// `text` within these bounds, and what was cut from it (nil when nothing was).
    public func apply(_ text: String) -> BoundedText {
        var kept = String.UnicodeScalarView()
        var characters = 0, lines = 1, droppedMarks = 0, droppedScalars = 0
        var cutAt: TextCut.Reason?
        for character in text {
            if characters == maxCharacters { cutAt = .characters; break }
            if character.isNewline {
                if lines == maxLines { cutAt = .lines; break }
                lines += 1
            }
            characters += 1
            var marks = 0, scalars = 0
            for scalar in character.unicodeScalars {
                if Self.isMark(scalar) {
                    if marks == maxMarksPerCharacter { droppedMarks += 1; continue }
                    marks += 1
                }
                if scalars == maxScalarsPerCharacter { droppedScalars += 1; continue }
                scalars += 1
                kept.append(scalar)
            }
        }
        if cutAt != nil {
            while let last = kept.last, last == " " || last == "\n" || last == "\r" { kept.removeLast() }
            kept.append(contentsOf: TextLayout.ellipsis.unicodeScalars)
        }
        guard cutAt != nil || droppedMarks > 0 || droppedScalars > 0 else { return BoundedText(text: text, cut: nil) }
        let cut = TextCut(bytes: text.utf8.count, reason: cutAt, bounds: self, droppedMarks: droppedMarks,
                          droppedScalars: droppedScalars)
        return BoundedText(text: String(kept), cut: cut)
    }

    /// Whether `scalar` is a combining mark (nonspacing, spacing or enclosing).
    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }
}

/// Text after `TextBounds.apply`.
public struct BoundedText: Sendable, Equatable {
    /// What is laid out.
    public var text: String
    /// What was cut, nil when the text was within bounds.
    public var cut: TextCut?
}

/// What bounding cut from a text, said in one line.
public struct TextCut: Sendable, Equatable, CustomStringConvertible {
    /// Which bound ended the text early.
    public enum Reason: String, Sendable, Equatable {
        /// It had more characters than the bound.
        case characters
        /// It had more lines than the bound.
        case lines
    }

    /// The whole text's length in UTF-8 bytes.
    public var bytes: Int
    /// Why it ends early with "…"; nil when only marks or scalars were dropped.
    public var reason: Reason?
    /// The bounds that cut it.
    public var bounds: TextBounds
    /// Combining marks dropped past the bound on one character, over the kept part.
    public var droppedMarks: Int
    /// Other scalars dropped past the bound on one character, over the kept part.
    public var droppedScalars: Int

    /// E.g. `text of 600002 bytes cut: 299996 combining marks over 4 on one character dropped`.
    public var description: String {
        var parts: [String] = []
        switch reason {
        case .characters?: parts.append("ends with '…' after \(bounds.maxCharacters) characters (the most one text shows)")
        case .lines?: parts.append("ends with '…' after \(bounds.maxLines) lines (the most one text shows)")
        case nil: break
        }
        if droppedMarks > 0 {
            parts.append("\(droppedMarks) combining marks over \(bounds.maxMarksPerCharacter) on one character dropped")
        }
        if droppedScalars > 0 {
            parts.append("\(droppedScalars) code points over \(bounds.maxScalarsPerCharacter) in one character dropped")
        }
        return "text of \(bytes) bytes cut: " + parts.joined(separator: "; ")
    }
}
