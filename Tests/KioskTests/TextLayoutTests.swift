// Fonts, shaping and layout without GL: fontconfig lookups and the fallback warning, HarfBuzz kerning and
// ligatures, wrapping, the ellipsis, alignment, the safe area, and the glyph atlas's cache and generations.
import Foundation
import KioskCore
import KioskText
import XCTest

/// Collects log lines (the sink runs under the log's lock).
private final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var all: [String] = []
    func add(_ line: String) { lock.lock(); all.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return all }
}

final class TextLayoutTests: XCTestCase {
    func font(_ size: Double) throws -> Font {
        try Font(file: FontFile(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"), pixelSize: size)
    }

    // MARK: - Fonts

    func testFamilyIsFoundByFontconfig() throws {
        let lines = Lines()
        let log = Log(level: .debug, sink: { lines.add($0) })
        let regular = try FontLocator.locate("DejaVu Sans", log: log)
        XCTAssertEqual(regular.path, "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        let bold = try FontLocator.locate("dejavu sans:bold", log: log)
        XCTAssertEqual(bold.path, "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
        XCTAssertEqual(lines.lines, [], "a family that is installed is used without a word")
    }

    func testMissingFamilyFallsBackToTheDefaultWithOneWarning() throws {
        let lines = Lines()
        let log = Log(level: .debug, sink: { lines.add($0) })
        let found = try FontLocator.locate("No Such Family", log: log)
        XCTAssertEqual(found.path, "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        XCTAssertEqual(lines.lines.count, 1, "\(lines.lines)")
        let line = lines.lines.first ?? ""
        XCTAssertTrue(line.hasPrefix("kiosk: warn: "), line)
        XCTAssertTrue(line.contains("No Such Family"), line)
        XCTAssertTrue(line.contains("DejaVu Sans"), line)
        // With a style, the default keeps it.
        let bold = try FontLocator.locate("No Such Family:bold", log: log)
        XCTAssertEqual(bold.path, "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
        XCTAssertEqual(lines.lines.count, 2)
    }

    func testBadFontFileIsATypedErrorNamingTheCall() throws {
        XCTAssertThrowsError(try Font(file: FontFile(path: "/nonexistent/font.ttf"), pixelSize: 20)) { error in
            let text = "\(error)"
            XCTAssertTrue(error is TextError, text)
            XCTAssertTrue(text.hasPrefix("FT_New_Face(/nonexistent/font.ttf#0)"), text)
        }
        XCTAssertThrowsError(try Font(file: FontFile(path: "/etc/hostname"), pixelSize: 20)) {
            XCTAssertTrue("\($0)".contains("FT_New_Face"), "\($0)")
        }
        XCTAssertThrowsError(try font(0))
    }

    // MARK: - Shaping

    func testKerningAndLigaturesAreOnByDefault() throws {
        let f = try font(48)
        let kerned = try TextShaper.shape("AVATAR", font: f)
        let plain = try TextShaper.shape("AVATAR", font: f, features: ["-kern"])
        XCTAssertEqual(kerned.glyphs.count, 6)
        // DejaVu kerns A-V, V-A, A-T, T-A: several pixels narrower at 48 px.
        XCTAssertLessThan(kerned.advance, plain.advance - 8, "kerned \(kerned.advance), not \(plain.advance)")
        let fi = try TextShaper.shape("fi", font: f)
        XCTAssertEqual(fi.glyphs.count, 1, "the fi ligature")
        XCTAssertNotEqual(fi.glyphs.first?.id, f.glyph(for: "f"))
        XCTAssertEqual(try TextShaper.shape("fi", font: f, features: ["-liga"]).glyphs.count, 2)
        XCTAssertEqual(try TextShaper.shape("ffl", font: f).glyphs.count, 1, "the ffl ligature")
        XCTAssertThrowsError(try TextShaper.shape("x", font: f, features: ["not a feature!"]))
    }

    func testAdvancesMatchHbShape() throws {
        // hb-shape --font-size=3072 DejaVuSans.ttf AVATAR (48 px in 1/64 px):
        // [A=0+1906|V=1+1906|A=2+1864|T=3+1639|A=4+2102|R=5+2135]
        let run = try TextShaper.shape("AVATAR", font: try font(48))
        for (glyph, expected) in zip(run.glyphs, [1906.0, 1906, 1864, 1639, 2102, 2135]) {
            XCTAssertEqual(glyph.advance * 64, expected, accuracy: 1)
        }
        XCTAssertEqual(run.glyphs.map(\.cluster), [0, 1, 2, 3, 4, 5])
    }

    // MARK: - Layout

    func testWrapsAtSpacesToTheWidth() throws {
        let f = try font(20)
        let text = "the quick brown fox jumps over the lazy dog"
        let one = try TextLayout(text, font: f)
        XCTAssertEqual(one.lines.count, 1)
        let width = one.width / 2.5
        let wrapped = try TextLayout(text, font: f, maxWidth: width)
        XCTAssertGreaterThanOrEqual(wrapped.lines.count, 3)
        XCTAssertFalse(wrapped.truncated)
        for line in wrapped.lines {
            XCTAssertLessThanOrEqual(line.width, width, line.text)
            XCTAssertFalse(line.text.hasPrefix(" ") || line.text.hasSuffix(" "), line.text)
        }
        XCTAssertEqual(wrapped.lines.map(\.text).joined(separator: " "), text, "no word lost or split")
        // Greedy: each line but the last could not take the next word.
        for (a, b) in zip(wrapped.lines, wrapped.lines.dropFirst()) {
            let next = String(b.text.split(separator: " ")[0])
            XCTAssertGreaterThan(try TextShaper.shape(a.text + " " + next, font: f).advance, width)
        }
        // Baselines a line height apart.
        XCTAssertEqual(wrapped.lines[1].baseline - wrapped.lines[0].baseline, f.lineHeight.rounded())
        XCTAssertEqual(try TextLayout("a\nb\n\nc", font: f).lines.map(\.text), ["a", "b", "", "c"])
    }

    func testOverlongWordIsBrokenBetweenGlyphs() throws {
        let f = try font(20)
        let word = "Donaudampfschifffahrtsgesellschaft"
        let layout = try TextLayout("A " + word, font: f, maxWidth: 120)
        XCTAssertGreaterThan(layout.lines.count, 2)
        for line in layout.lines { XCTAssertLessThanOrEqual(line.width, 120, line.text) }
        XCTAssertEqual(layout.lines.map(\.text).joined(), "A" + word)
        // Narrower than one glyph: one cluster a line, never an endless loop.
        XCTAssertEqual(try TextLayout("WWW", font: f, maxWidth: 1).lines.map(\.text), ["W", "W", "W"])
    }

    func testEllipsisEndsTheLastAllowedLine() throws {
        let f = try font(20)
        let text = "one two three four five six seven eight nine ten eleven twelve"
        let layout = try TextLayout(text, font: f, maxWidth: 110, maxLines: 2)
        XCTAssertEqual(layout.lines.count, 2)
        XCTAssertTrue(layout.truncated)
        let last = try XCTUnwrap(layout.lines.last)
        XCTAssertTrue(last.text.hasSuffix(TextLayout.ellipsis), last.text)
        XCTAssertFalse(last.text.hasSuffix(" " + TextLayout.ellipsis), last.text)
        XCTAssertLessThanOrEqual(last.width, 110)
        // The ellipsis is a glyph of the font, shaped with the line.
        XCTAssertEqual(last.run.glyphs.last?.id, f.glyph(for: "…"))
        let fits = try TextLayout("one two", font: f, maxWidth: 110, maxLines: 2)
        XCTAssertFalse(fits.truncated)
        XCTAssertEqual(fits.lines.map(\.text), ["one two"])
        // One line allowed, a long word: the word is cut and ends with the ellipsis.
        let cut = try TextLayout("Donaudampfschifffahrtsgesellschaft", font: f, maxWidth: 80, maxLines: 1)
        XCTAssertEqual(cut.lines.count, 1)
        XCTAssertTrue(cut.lines[0].text.hasSuffix("…"))
        XCTAssertLessThanOrEqual(cut.lines[0].width, 80)
    }

    func testAlignmentOffsetsLinesWithinTheBlock() throws {
        let f = try font(20)
        let text = "a wide first line\nshort"
        let left = try TextLayout(text, font: f, alignment: .left)
        let centre = try TextLayout(text, font: f, alignment: .center)
        let right = try TextLayout(text, font: f, alignment: .right)
        XCTAssertEqual(left.lines.map(\.x), [0, 0])
        let short = left.lines[1].width, wide = left.width
        XCTAssertEqual(centre.lines[0].x, 0)
        XCTAssertEqual(centre.lines[1].x, ((wide - short) / 2).rounded())
        XCTAssertEqual(right.lines[1].x, (wide - short).rounded())
        XCTAssertEqual(right.lines[0].x, 0)
    }

    func testSafeAreaAndAnchorsPlaceTheBlock() throws {
        let canvas = PixelSize(width: 1920, height: 1080)
        let safe = TextPlacement(anchor: .bottom, margin: 10, overscan: 5).safeArea(canvas: canvas)
        XCTAssertEqual(safe, PixelRect(x: 106, y: 64, width: 1708, height: 952))
        XCTAssertEqual(TextSize.pixels(fractionOfHeight: 0.05, canvasHeight: 1080), 54)
        XCTAssertEqual(TextSize.pixels(fractionOfHeight: 0, canvasHeight: 1080), 1)
        let builder = TextBlockBuilder()
        let f = try font(40)
        let style = TextStyle(outlineWidth: 0, shadow: nil, background: TextBackground(padding: 10))
        for anchor in TextAnchor.allCases {
            let placement = TextPlacement(anchor: anchor, margin: 10, overscan: 5)
            let d = try builder.build("Clock 12:45", font: f, style: style, placement: placement, canvas: canvas)
            // The box (text + padding) touches the safe area's edges the anchor names, and stays inside.
            XCTAssertGreaterThanOrEqual(d.box.x, safe.x, "\(anchor)")
            XCTAssertLessThanOrEqual(d.box.maxX, safe.maxX, "\(anchor)")
            XCTAssertGreaterThanOrEqual(d.box.y, safe.y, "\(anchor)")
            XCTAssertLessThanOrEqual(d.box.maxY, safe.maxY, "\(anchor)")
            switch anchor {
            case .topLeft: XCTAssertEqual([d.box.x, d.box.y], [safe.x, safe.y])
            case .bottomRight: XCTAssertEqual([d.box.maxX, d.box.maxY], [safe.maxX, safe.maxY])
            case .bottom: XCTAssertEqual(d.box.maxY, safe.maxY); XCTAssertLessThanOrEqual(abs((d.box.x + d.box.maxX) - (safe.x + safe.maxX)), 1)
            default: break
            }
        }
        // A long caption wraps to the safe area's width.
        let long = try builder.build(String(repeating: "words and more ", count: 30), font: f, placement: TextPlacement(overscan: 5),
                                     canvas: canvas)
        let area = TextPlacement(overscan: 5).safeArea(canvas: canvas)
        XCTAssertGreaterThanOrEqual(long.inkBounds.x, area.x)
        XCTAssertLessThanOrEqual(long.inkBounds.maxX, area.maxX)
    }

    // MARK: - Atlas

    func testCachedGlyphsAreNotRasterisedAgainAndTheGenerationMovesOnlyForNewOnes() throws {
        let f = try font(32)
        let atlas = GlyphAtlas()
        let layout = try TextLayout("Harbour harbour", font: f)
        _ = try layout.glyphQuads(atlas: atlas)
        let rasterised = f.rasterisedGlyphs, generation = atlas.generation
        XCTAssertEqual(rasterised, Set("Harbour harbour".unicodeScalars).count, "each glyph once")
        XCTAssertGreaterThan(generation, 0)
        _ = try layout.glyphQuads(atlas: atlas)
        _ = try TextLayout("bar", font: f).glyphQuads(atlas: atlas)
        XCTAssertEqual(f.rasterisedGlyphs, rasterised)
        XCTAssertEqual(atlas.generation, generation, "no new glyph, no new generation")
        let before = atlas.image
        _ = try TextLayout("Harbour at dawn", font: f).glyphQuads(atlas: atlas)
        XCTAssertGreaterThan(atlas.generation, generation)
        let after = atlas.image
        let rows = try XCTUnwrap(after.rowsChanged(since: before.generation))
        XCTAssertLessThan(rows.count, after.size.height / 4, "only the new glyphs' rows")
        XCTAssertNil(after.rowsChanged(since: after.generation))
        XCTAssertEqual(after.rowsChanged(since: -5), 0..<after.size.height)
        // The same glyph at another size is another entry.
        _ = try TextLayout("H", font: try font(33)).glyphQuads(atlas: atlas)
        XCTAssertGreaterThan(atlas.generation, after.generation)
    }

    func testFullAtlasGrowsThenResetsAndStillHoldsTheText() throws {
        let atlas = GlyphAtlas(size: PixelSize(width: 64, height: 64), maximumSize: PixelSize(width: 128, height: 128))
        let builder = TextBlockBuilder(atlas: atlas)
        let f = try builder.font(FontFile(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"), pixelSize: 24)
        var grew = false
        // Seeded: the same sequence of strings every run.
        var seed: UInt64 = 42
        for _ in 0..<40 {
            var text = ""
            for _ in 0..<8 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text.unicodeScalars.append(Unicode.Scalar(UInt8(33 + (seed >> 33) % 94)))
            }
            let drawing = try builder.build(text, font: f, style: .plain(TextStyle.white), canvas: PixelSize(width: 800, height: 100))
            grew = grew || drawing.atlas.size.width > 64
            // Every quad of the drawing points at its glyph's pixels in the drawing's own atlas snapshot.
            for quad in drawing.quads {
                XCTAssertLessThanOrEqual(quad.source.maxX, drawing.atlas.size.width)
                XCTAssertLessThanOrEqual(quad.source.maxY, drawing.atlas.size.height)
                var ink = 0
                for y in quad.source.y..<quad.source.maxY {
                    for x in quad.source.x..<quad.source.maxX { ink += Int(drawing.atlas.pixels[y * drawing.atlas.size.width + x]) }
                }
                XCTAssertGreaterThan(ink, 0, "\(text): a quad over empty atlas pixels")
            }
        }
        XCTAssertTrue(grew)
        XCTAssertGreaterThan(atlas.resets, 0, "94 glyphs at 24 px do not fit 128x128")
        XCTAssertEqual(atlas.size, PixelSize(width: 128, height: 128))
        // A block that cannot fit even in an empty atlas is an error, not a crash.
        let huge = try builder.font(FontFile(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"), pixelSize: 200)
        XCTAssertThrowsError(try builder.build("WM", font: huge, canvas: PixelSize(width: 800, height: 400))) {
            XCTAssertTrue("\($0)".contains("GlyphAtlas"), "\($0)")
        }
    }
}
