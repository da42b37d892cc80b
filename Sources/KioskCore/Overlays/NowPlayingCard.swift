/// The now-playing card shown over a sound file: its cover art (or the placeholder) in a square, its title,
/// artist, album, track and year, the time as `1:23 / 4:05`, and a progress bar; laid out for a landscape or a
/// portrait canvas.

/// What the card says, and where each part goes.
public struct NowPlayingCard: Sendable, Equatable {
    /// The title, or the item's name (the playlist's title or the file name) when the file has none.
    public var title: String
    /// The artist, if tagged.
    public var artist: String?
    /// The album, if tagged.
    public var album: String?
    /// The track as tagged (`3`, `3/12`).
    public var track: String?
    /// The year of the `date` tag.
    public var year: String?
    /// Seconds played.
    public var elapsed: Double
    /// The file's length in seconds (infinite when unknown).
    public var length: Double
    /// Whether the file has embedded cover art (otherwise the placeholder picture goes in the square).
    public var hasArtwork: Bool
    /// Where the parts go.
    public var layout: Layout

    /// Where each part of the card goes, in canvas fractions.
    public struct Layout: Sendable, Equatable {
        /// Whether the canvas is taller than wide: the square is above the text instead of left of it.
        public var portrait: Bool
        /// The square for the cover art or the placeholder.
        public var artwork: OverlayRect
        /// One rectangle per text line, top to bottom: the title, then each other line present.
        public var lines: [OverlayRect]
        /// The `elapsed / length` line.
        public var time: OverlayRect
        /// The progress bar.
        public var progress: OverlayRect
        /// How the lines align in their rectangles: left beside the square, centred below it.
        public var anchor: OverlayAnchor
    }

    /// Text size of the title, of the canvas height.
    public static let titleSize = 0.055
    /// Text size of the other lines and the time.
    public static let lineSize = 0.04
    /// A line's rectangle is this many times its text size high.
    public static let lineSpacing = 1.35
    /// The progress bar's height, of the canvas height.
    public static let barHeight = 0.008

    /// The card for a sound file called `name` with `metadata` (nil: not read), `elapsed` seconds into its
    /// `length`, on a canvas of `canvas` pixels whose overlays keep within `safeArea`.
    public init(name: String, metadata: ItemMetadata?, elapsed: Double, length: Double, hasArtwork: Bool,
                canvas: PixelSize, safeArea: OverlayRect) {
        title = metadata?.title ?? name
        artist = metadata?.artist
        album = metadata?.album
        track = metadata?.track
        year = metadata?.date.map { String($0.date.year) }
        self.elapsed = elapsed
        self.length = length
        self.hasArtwork = hasArtwork
        layout = Layout(lineCount: 0, canvas: canvas, safeArea: safeArea)
        layout = Layout(lineCount: 1 + otherLines.count, canvas: canvas, safeArea: safeArea)
    }

    /// The lines under the title, those present: the artist, the album, and `Track 3 · 2019`.
    public var otherLines: [String] {
        let trackYear = [track.map { "Track \($0)" }, year].compactMap { $0 }.joined(separator: " · ")
        return [artist, album, trackYear].compactMap { $0 }.filter { !$0.isEmpty }
    }

    /// `1:23 / 4:05`.
    public var timeText: String { DurationText.progress(elapsed, of: length) }

    /// How much of the bar is filled: elapsed over length, 0…1 (0 for an unknown length).
    public var fraction: Double {
        guard length.isFinite, length > 0 else { return 0 }
        return min(1, max(0, elapsed / length))
    }

    /// The card's texts: the title, the other lines, the time.
    public var texts: [OverlayText] {
        var out = [OverlayText(role: .cardTitle, text: title, anchor: layout.anchor, area: layout.lines[0],
                               sizeFraction: Self.titleSize, maxWidthFraction: layout.lines[0].width)]
        for (line, rect) in zip(otherLines, layout.lines.dropFirst()) {
            out.append(OverlayText(role: .cardLine, text: line, anchor: layout.anchor, area: rect,
                                   sizeFraction: Self.lineSize, maxWidthFraction: rect.width))
        }
        out.append(OverlayText(role: .cardTime, text: timeText, anchor: layout.anchor, area: layout.time,
                               sizeFraction: Self.lineSize, maxWidthFraction: layout.time.width))
        return out
    }

    /// The card's progress bar.
    public var bar: OverlayBar { OverlayBar(role: .cardProgress, rect: layout.progress, filled: fraction) }
}

extension NowPlayingCard.Layout {
    /// The layout for `lineCount` lines (the title included) on `canvas` within `safeArea`.
    ///
    /// Landscape: a square half the safe area's height, centred vertically; the text column to its right
    /// (the pair centred across the safe area), lines from the square's top, the time and the bar at its bottom.
    /// Portrait: a square 60 % of the safe area's width near its top, the centred lines, time and bar below it.
    public init(lineCount: Int, canvas: PixelSize, safeArea s: OverlayRect) {
        let aspect = Double(max(1, canvas.width)) / Double(max(1, canvas.height))
        let titlePitch = NowPlayingCard.titleSize * NowPlayingCard.lineSpacing
        let pitch = NowPlayingCard.lineSize * NowPlayingCard.lineSpacing
        let barHeight = NowPlayingCard.barHeight
        portrait = aspect < 1
        var lines: [OverlayRect] = []
        if portrait {
            let side = 0.6 * s.width
            artwork = OverlayRect(x: s.x + (s.width - side) / 2, y: s.y + 0.1 * s.height, width: side, height: side * aspect)
            let column = OverlayRect(x: s.x + 0.1 * s.width, y: artwork.maxY + 0.03, width: 0.8 * s.width, height: 0)
            var y = column.y
            for i in 0..<max(1, lineCount) {
                let h = i == 0 ? titlePitch : pitch
                lines.append(OverlayRect(x: column.x, y: y, width: column.width, height: h))
                y += h
            }
            time = OverlayRect(x: column.x, y: y + 0.01, width: column.width, height: pitch)
            progress = OverlayRect(x: column.x, y: time.maxY + 0.01, width: column.width, height: barHeight)
            anchor = .centre
        } else {
            let side = 0.5 * s.height
            let gap = 0.04 * s.width, columnWidth = 0.45 * s.width
            let group = side / aspect + gap + columnWidth
            artwork = OverlayRect(x: s.x + (s.width - group) / 2, y: s.y + (s.height - side) / 2, width: side / aspect, height: side)
            let x = artwork.maxX + gap
            var y = artwork.y
            for i in 0..<max(1, lineCount) {
                let h = i == 0 ? titlePitch : pitch
                lines.append(OverlayRect(x: x, y: y, width: columnWidth, height: h))
                y += h
            }
            progress = OverlayRect(x: x, y: artwork.maxY - barHeight, width: columnWidth, height: barHeight)
            time = OverlayRect(x: x, y: progress.y - 0.01 - pitch, width: columnWidth, height: pitch)
            anchor = .left
        }
        self.lines = lines
    }
}
