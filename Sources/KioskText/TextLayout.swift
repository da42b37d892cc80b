/// Lines of shaped text: word wrapping at spaces to a width (an over-long word broken between glyphs), at most a
/// number of lines with "…" ending the last when text is cut, each line aligned left, centred or right, baselines
/// from the font's ascender and line height. Turned into glyph quads (atlas rect + destination) in layout pixels.
import KioskCore

/// How lines sit within the block's width.
public enum TextAlignment: String, Sendable, CaseIterable {
    /// Flush left.
    case left
    /// Centred.
    case center
    /// Flush right.
    case right
}

/// Text broken into shaped lines. Layout coordinates: (0,0) is the top-left of the block, whose width is the
/// widest line's and whose height runs from the first line's ascender to the last line's descender.
public struct TextLayout {
    /// One line.
    public struct Line {
        /// Its text (with "…" when the text was cut there).
        public var text: String
        /// Its glyphs.
        public var run: ShapedRun
        /// Its width in pixels (the sum of advances).
        public var width: Double
        /// Where its pen starts, pixels from the block's left edge (whole pixels).
        public var x: Double
        /// Its baseline, pixels from the block's top (whole pixels).
        public var baseline: Double
    }

    /// The font it was shaped with.
    public let font: Font
    /// The lines, top first.
    public let lines: [Line]
    /// Whether text was left out (the last line then ends with "…").
    public let truncated: Bool
    /// What the text's bounds cut before layout (nil when it was within them): say it once, where it is shown.
    public let cut: TextCut?
    /// The block's width: the widest line's, pixels.
    public let width: Double
    /// The block's height, pixels.
    public let height: Double

    /// The ellipsis ending a cut line.
    public static let ellipsis = "…"

    /// Lays `text` out with `font`: lines break at "\n" and, when `maxWidth` is given, at spaces so each line fits
    /// (a word wider than that is broken between glyphs); with `maxLines`, text beyond that many lines is cut and
    /// the last line ends with "…". `features` go to HarfBuzz (e.g. `-kern`). Only what `bounds` lets through is
    /// shaped (see `cut`), so no text takes long or grows without end.
    public init(_ text: String, font: Font, maxWidth: Double? = nil, maxLines: Int? = nil,
                alignment: TextAlignment = .left, features: [String] = [], bounds: TextBounds = .standard) throws {
        let measure = Measure(font: font, features: features, maxWidth: maxWidth.map { max($0, 1) } ?? .infinity)
        let limit = min(max(maxLines ?? bounds.maxLines, 1), bounds.maxLines)
        let bounded = bounds.apply(text)
        cut = bounded.cut
        var texts: [String] = []
        for paragraph in bounded.text.split(separator: "\n", omittingEmptySubsequences: false) {
            try texts += measure.wrap(String(paragraph), stopAfter: limit + 1 - texts.count)
            if texts.count > limit { break }
        }
        truncated = texts.count > limit || bounded.cut?.reason != nil
        if texts.count > limit {
            texts = Array(texts.prefix(limit))
            texts[limit - 1] = try measure.ellipsised(texts[limit - 1])
        }
        let runs = try texts.map { try TextShaper.shape($0, font: font, features: features) }
        let widest = runs.map(\.advance).max() ?? 0
        let ascender = font.ascender.rounded(), step = font.lineHeight.rounded()
        let factor: Double = alignment == .left ? 0 : alignment == .center ? 0.5 : 1
        lines = zip(texts, runs).enumerated().map { i, line in
            Line(text: line.0, run: line.1, width: line.1.advance, x: ((widest - line.1.advance) * factor).rounded(),
                 baseline: ascender + Double(i) * step)
        }
        self.font = font
        width = widest
        height = lines.isEmpty ? 0 : ascender + Double(lines.count - 1) * step + font.descender.rounded()
    }

    /// The block's box in layout pixels: (0, 0) to the width and height rounded up.
    public var box: PixelRect {
        PixelRect(x: 0, y: 0, width: Int(saturating: width, rounding: .up), height: Int(saturating: height, rounding: .up))
    }

    /// One quad per glyph with ink, in layout pixels: each pen position rounded to a whole pixel, the glyph's
    /// bitmap hung from it; nil when the atlas is full at its largest size (reset it and ask again).
    public func glyphQuads(atlas: GlyphAtlas) throws -> [GlyphQuad]? {
        var quads: [GlyphQuad] = []
        for line in lines {
            var pen = line.x
            for g in line.run.glyphs {
                guard let placed = try atlas.glyph(g.id, font: font) else { return nil }
                defer { pen += g.advance }
                guard !placed.rect.isEmpty else { continue }
                let x = Int(saturating: pen + g.xOffset) + placed.left
                let y = Int(saturating: line.baseline - g.yOffset.rounded(), rounding: .towardZero) - placed.top
                quads.append(GlyphQuad(source: placed.rect,
                                       destination: PixelRect(x: x, y: y, width: placed.rect.width, height: placed.rect.height)))
            }
        }
        return quads
    }
}

/// Measuring and breaking with one font and width.
private struct Measure {
    let font: Font
    let features: [String]
    let maxWidth: Double

    /// The shaped width of `text`.
    func width(_ text: String) throws -> Double {
        try TextShaper.shape(text, font: font, features: features).advance
    }

    /// One paragraph broken into lines that fit (greedy, at spaces; runs of spaces fold into one); stops once it
    /// has `stopAfter` lines.
    func wrap(_ paragraph: String, stopAfter: Int) throws -> [String] {
        let words = paragraph.split(separator: " ").map(String.init)
        guard maxWidth.isFinite else { return [words.joined(separator: " ")] }
        var lines: [String] = [], current = ""
        for word in words {
            if lines.count >= stopAfter { break }
            let candidate = current.isEmpty ? word : current + " " + word
            if try width(candidate) <= maxWidth { current = candidate; continue }
            if !current.isEmpty { lines.append(current) }
            current = word
            while try width(current) > maxWidth, lines.count < stopAfter {
                let (head, tail) = try split(current)
                guard !tail.isEmpty else { break }
                lines.append(head)
                current = tail
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// A word cut after the most whole glyph clusters that fit (at least one), and the rest.
    func split(_ word: String) throws -> (String, String) {
        let run = try TextShaper.shape(word, font: font, features: features)
        let scalars = Array(word.unicodeScalars)
        var cut = 0, first = 0, advance = 0.0
        // Glyphs are in cluster order (left to right): a new cluster value starts a place to cut.
        for (i, g) in run.glyphs.enumerated() {
            if i > 0, g.cluster != run.glyphs[i - 1].cluster {
                if first == 0 { first = g.cluster }
                guard advance <= maxWidth else { break }
                cut = g.cluster
            }
            advance += g.advance
        }
        if cut == 0 { cut = first }
        if cut == 0 || cut >= scalars.count { return (word, "") }
        return (text(scalars[..<cut]), text(scalars[cut...]))
    }

    /// `line` shortened, whole clusters at a time, until it fits with "…" after it; then with the "…".
    func ellipsised(_ line: String) throws -> String {
        var scalars = Array(line.unicodeScalars)
        while true {
            while scalars.last == " " { scalars.removeLast() }
            let candidate = text(scalars[...]) + TextLayout.ellipsis
            if try scalars.isEmpty || width(candidate) <= maxWidth { return candidate }
            let run = try TextShaper.shape(text(scalars[...]), font: font, features: features)
            let lastCluster = run.glyphs.map(\.cluster).max() ?? 0
            scalars.removeSubrange(min(max(lastCluster, 0), scalars.count - 1)...)
        }
    }

    /// Scalars as a string.
    private func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars)
        return String(s)
    }
}
