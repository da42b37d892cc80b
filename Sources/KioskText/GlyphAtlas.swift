/// The glyph atlas: one 8-bit coverage bitmap holding every glyph drawn so far, packed in shelves, kept across
/// frames so a glyph is rasterised once per font and size. It grows (up to its largest size) when full; when it
/// cannot grow it is cleared and refilled with what the current text needs.
import KioskCore
import Synchronization

/// Where a glyph's coverage sits in the atlas and how it hangs from the pen position.
public struct AtlasGlyph: Sendable, Equatable {
    /// Its pixels in the atlas (empty for a glyph without ink, such as a space).
    public var rect: PixelRect
    /// From the pen position to the bitmap's left edge, pixels right.
    public var left: Int
    /// From the baseline to the bitmap's top edge, pixels up.
    public var top: Int
}

/// A CPU glyph atlas (one byte a pixel). Use it on one thread at a time, with the fonts that fill it.
public final class GlyphAtlas {
    /// What a glyph is cached under.
    private struct Key: Hashable {
        var font: Int, glyph: UInt32, size64: Int
    }

    /// A row of glyphs of about the same height.
    private struct Shelf {
        var y: Int, height: Int, nextX: Int
    }

    /// Unique among atlases: the renderer keeps one texture per atlas.
    public let id: Int
    /// The bitmap's size now.
    public private(set) var size: PixelSize
    /// The size it may grow to.
    public let maximumSize: PixelSize
    /// Bumped on every change to the pixels.
    public private(set) var generation = 0
    /// How many times it was cleared because it was full at its largest size.
    public private(set) var resets = 0

    /// Zero pixels kept between glyphs, so no filter reads a neighbour.
    private let gap = 1
    private var pixels: [UInt8]
    private var shelves: [Shelf] = []
    private var glyphs: [Key: AtlasGlyph] = [:]
    private var changes: [AtlasChange] = []
    private var historyStart = 0
    /// How many change records a snapshot carries; an older copy is refreshed whole.
    private let historyLimit = 256

    private static let nextID = Atomic<Int>(1)

    /// An empty atlas of `size` that may grow to `maximumSize` (each side at most 8192).
    public init(size: PixelSize = PixelSize(width: 1024, height: 1024),
                maximumSize: PixelSize = PixelSize(width: 2048, height: 2048)) {
        let first = PixelSize(width: min(max(size.width, 16), 8192), height: min(max(size.height, 16), 8192))
        self.size = first
        self.maximumSize = PixelSize(width: min(max(maximumSize.width, first.width), 8192),
                                     height: min(max(maximumSize.height, first.height), 8192))
        pixels = [UInt8](repeating: 0, count: first.width * first.height)
        id = GlyphAtlas.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// How many glyphs it holds.
    public var glyphCount: Int { glyphs.count }

    /// The snapshot the renderer draws from (shares the bytes until the atlas next changes).
    public var image: GlyphAtlasImage {
        GlyphAtlasImage(atlasID: id, generation: generation, size: size, pixels: pixels, changes: changes,
                        historyStart: historyStart)
    }

    /// The glyph `glyph` of `font`, rasterised and packed on first use; nil when it does not fit even at the
    /// largest size (the caller may `reset()` and ask again).
    public func glyph(_ glyph: UInt32, font: Font) throws -> AtlasGlyph? {
        let key = Key(font: font.id, glyph: glyph, size64: Int(saturating: font.pixelSize * 64))
        if let found = glyphs[key] { return found }
        let bitmap = try font.rasterise(glyph: glyph)
        guard bitmap.width > 0, bitmap.height > 0 else {
            let empty = AtlasGlyph(rect: PixelRect(x: 0, y: 0, width: 0, height: 0), left: bitmap.left, top: bitmap.top)
            glyphs[key] = empty
            return empty
        }
        guard let rect = place(width: bitmap.width, height: bitmap.height) else { return nil }
        for row in 0..<rect.height {
            let to = (rect.y + row) * size.width + rect.x
            pixels.replaceSubrange(to..<to + rect.width, with: bitmap.pixels[row * rect.width..<(row + 1) * rect.width])
        }
        record(rows: rect.y..<rect.maxY)
        let placed = AtlasGlyph(rect: rect, left: bitmap.left, top: bitmap.top)
        glyphs[key] = placed
        return placed
    }

    /// Clears every glyph (the next snapshot is refreshed whole).
    public func reset() {
        pixels = [UInt8](repeating: 0, count: size.width * size.height)
        shelves = []
        glyphs = [:]
        resets += 1
        record(rows: 0..<size.height)
    }

    /// A free spot of `width` x `height` (plus the gap), on a shelf of about that height, a new shelf, or after
    /// growing; nil when full at the largest size.
    private func place(width: Int, height: Int) -> PixelRect? {
        let w = width + gap, h = height + gap
        while true {
            // The lowest fitting shelf that wastes at most a third of its height.
            if let i = shelves.indices.first(where: {
                shelves[$0].height >= h && shelves[$0].height * 2 <= h * 3 + 4 && shelves[$0].nextX + w <= size.width
            }) {
                let x = shelves[i].nextX
                shelves[i].nextX += w
                return PixelRect(x: x, y: shelves[i].y, width: width, height: height)
            }
            let top = shelves.last.map { $0.y + $0.height } ?? 0
            if top + h <= size.height, w <= size.width {
                shelves.append(Shelf(y: top, height: h, nextX: w))
                return PixelRect(x: 0, y: top, width: width, height: height)
            }
            guard grow() else { return nil }
        }
    }

    /// Doubles the shorter side (height first) within the largest size, keeping the pixels; false when it can't.
    private func grow() -> Bool {
        var next = size
        if size.height <= size.width, size.height < maximumSize.height {
            next.height = min(size.height * 2, maximumSize.height)
        } else if size.width < maximumSize.width {
            next.width = min(size.width * 2, maximumSize.width)
        } else if size.height < maximumSize.height {
            next.height = min(size.height * 2, maximumSize.height)
        } else {
            return false
        }
        var grown = [UInt8](repeating: 0, count: next.width * next.height)
        for row in 0..<size.height {
            grown.replaceSubrange(row * next.width..<row * next.width + size.width,
                                  with: pixels[row * size.width..<(row + 1) * size.width])
        }
        pixels = grown
        size = next
        record(rows: 0..<next.height)
        return true
    }

    /// A new generation that changed `rows`.
    private func record(rows: Range<Int>) {
        generation += 1
        changes.append(AtlasChange(generation: generation, rows: rows))
        if changes.count > historyLimit {
            historyStart = changes[0].generation
            changes.removeFirst()
        }
    }
}
