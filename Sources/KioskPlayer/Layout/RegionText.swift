import Foundation
import KioskCore
import KioskMedia
import KioskRender

/// Text media in their regions (`smilText`, `text/plain` files): the text is laid out once by kiosk's text stack
/// (fontconfig, HarfBuzz, FreeType) into a strip, a texture, and each frame shows the part of the strip that its
/// time says. A crawl moves right to left and a scroll bottom to top at `textRate`; the position is a pure
/// function of the medium's time (sub-pixel: the strip is sampled between texels, so it glides rather than
/// steps). A file is read again at the end of each pass when it changed on disk.
final class RegionText {
    private let painter: OverlayPainter
    private let context: GLContext
    private let log: Log

    /// One medium's strip.
    private struct Strip {
        let texture: Texture
        let size: PixelSize
        /// The text it shows, the file's stamp when read, and the pass it was made for.
        let text: String
        let stamp: FileStamp?
        let pass: Int
        /// The region size it was laid out for.
        let region: PixelSize
    }
    private var strips: [Int: Strip] = [:]

    init(context: GLContext, config: PlayerConfig, log: Log) throws {
        painter = try OverlayPainter(family: config.overlays.font, boxOpacity: 0, log: log)
        self.context = context
        self.log = log
    }

    /// What `entry` (a text medium) draws in a region `rect` (screen pixels) at z `z` with `opacity`, its file
    /// `path` if it has one, `scale` screen pixels per layout pixel: its band and its strip, and how far it has
    /// moved (for the frame key).
    func draw(_ entry: RegionShowing.Entry, path: String?, in rect: PixelRect, z: Int, opacity: Double, scale: Double)
        throws -> (layers: [RenderLayer], overlays: [RenderOverlay], motion: Double) {
        let style = entry.media.textStyle ?? SMILTextStyle()
        var overlays: [RenderOverlay] = []
        if let band = style.background, band.alpha > 0 {
            overlays.append(RenderOverlay(.solid(LayoutComposer.premultiplied(band)), rect: rect, opacity: opacity, z: z))
        }
        guard rect.width > 0, rect.height > 0 else { return ([], overlays, 0) }
        let font = max(6, (style.fontSize.map { $0 * scale } ?? Double(rect.height) * (style.mode == .crawl ? 0.5 : 0.1)))
        let rate = style.rate * scale
        // the pass: the strip crossing the region once; a file changed on disk is read again at the next one
        var strip = try self.strip(entry, path: path, style: style, font: font, region: rect.size, pass: strips[entry.media.index]?.pass ?? 0)
        let travel = style.mode == .crawl ? Double(rect.width + strip.size.width) : Double(rect.height + strip.size.height)
        let passLength = travel / max(rate, 1e-6)
        let pass = style.mode == .still ? 0 : Int(saturating: entry.offset / passLength, rounding: .down)
        if pass != strip.pass { strip = try self.strip(entry, path: path, style: style, font: font, region: rect.size, pass: pass) }
        let into = style.mode == .still ? 0 : entry.offset - Double(pass) * passLength
        // where the strip's top-left corner is, in the region (fractional pixels)
        var x: Double, y: Double
        switch style.mode {
        case .crawl:
            x = Double(rect.width) - into * rate
            y = (Double(rect.height) - Double(strip.size.height)) / 2
        case .scroll:
            x = Self.aligned(style.align, strip: strip.size.width, region: rect.width)
            y = Double(rect.height) - into * rate
        case .still:
            x = Self.aligned(style.align, strip: strip.size.width, region: rect.width)
            y = (Double(rect.height) - Double(strip.size.height)) / 2
        }
        x += Double(rect.x)
        y += Double(rect.y)
        // the pixels whose centres fall on the strip, within the region
        let x0 = max(Double(rect.x), (x).rounded(.up)), x1 = min(Double(rect.x + rect.width), (x + Double(strip.size.width)).rounded(.down))
        let y0 = max(Double(rect.y), (y).rounded(.up)), y1 = min(Double(rect.y + rect.height), (y + Double(strip.size.height)).rounded(.down))
        guard x1 > x0, y1 > y0 else { return ([], overlays, into) }
        let visible = PixelRect(x: Int(saturating: x0, rounding: .towardZero), y: Int(saturating: y0, rounding: .towardZero), width: Int(saturating: x1 - x0, rounding: .towardZero), height: Int(saturating: y1 - y0, rounding: .towardZero))
        let w = Double(strip.size.width), h = Double(strip.size.height)
        let t = UVTransform(scaleX: Double(visible.width) / w, scaleY: Double(visible.height) / h,
                            offsetX: (x0 - x) / w, offsetY: (y0 - y) / h)
        let layer = RenderLayer(texture: strip.texture, pass: FlatPass(transform: t), opacity: opacity, rect: visible, z: z + 1)
        return ([layer], overlays, into * rate)
    }

    /// Forgets the strips of media no longer shown.
    func forget(keeping keep: Set<Int>) { strips = strips.filter { keep.contains($0.key) } }

    /// The strip for `entry` at `pass`: the one made before when it is still right (the same pass, or a text
    /// that has not changed), else laid out again.
    private func strip(_ entry: RegionShowing.Entry, path: String?, style: SMILTextStyle, font: Double, region: PixelSize,
                       pass: Int) throws -> Strip {
        let index = entry.media.index
        if let s = strips[index], s.region == region, s.pass == pass || path == nil { return s }
        let stamp = path.flatMap { FileStamp(path: $0) }
        if let s = strips[index], s.region == region, s.stamp == stamp {
            let kept = Strip(texture: s.texture, size: s.size, text: s.text, stamp: s.stamp, pass: pass, region: region)
            strips[index] = kept
            return kept
        }
        var text = entry.media.text ?? ""
        if let path {
            do {
                text = try TextMediaFile.read(path)
                if strips[index] != nil { log.info("layout: \(path) changed: read again for its next pass") }
            } catch {
                log.warn("\(error)")
                text = strips[index]?.text ?? ""
            }
        }
        let image = try raster(style.mode == .crawl ? text.replacingOccurrences(of: "\n", with: "   ·   ") : text, style: style,
                               font: font, width: style.mode == .crawl ? nil : region.width)
        let made = Strip(texture: try Texture(context: context, image: image), size: image.size, text: text, stamp: stamp, pass: pass,
                         region: region)
        strips[index] = made
        return made
    }

    /// `text` laid out at `font` pixels (one line, or wrapped at `width`) and drawn in its colour on transparent
    /// pixels, with two pixels of margin so that the strip's edges sample nothing.
    private func raster(_ text: String, style: SMILTextStyle, font: Double, width: Int?) throws -> RGBAImage {
        let side = min(context.maxTextureSize, 16_384)
        let lines = max(1, text.split(separator: "\n").count)
        let canvas = width.map { PixelSize(width: max(1, $0), height: min(side, Int(saturating: font * 1.5, rounding: .towardZero) * lines * 4 + 16)) }
            ?? PixelSize(width: side, height: Int(saturating: font * 1.6, rounding: .up) + 8)
        let anchor: OverlayAnchor = width == nil ? .topLeft : (style.align == .center ? .top : style.align == .right ? .topRight : .topLeft)
        let block = OverlayText(role: .caption, text: text, anchor: anchor, area: UnitRect(x: 0, y: 0, width: 1, height: 1),
                                sizeFraction: font / Double(canvas.height), maxLines: width == nil ? 1 : 400, maxWidthFraction: 1,
                                box: false)
        var quads: [GlyphQuad] = [], atlas: GlyphAtlasImage?
        for o in try painter.overlays(for: OverlayScene(texts: [block]), canvas: canvas) {
            if case .text(let d) = o.content {
                quads += d.quads
                atlas = d.atlas
            }
        }
        guard let atlas, !quads.isEmpty else { return RGBAImage(size: PixelSize(width: 4, height: 4), fill: (0, 0, 0, 0)) }
        let ink = quads.reduce(quads[0].destination) { $0.union($1.destination) }
        let margin = 2
        let left = width == nil ? ink.x : 0
        let size = PixelSize(width: (width ?? ink.width) + 2 * margin, height: ink.height + 2 * margin)
        let (r, g, b) = (UInt8(clamping: Int(saturating: style.color.red * 255)), UInt8(clamping: Int(saturating: style.color.green * 255)),
                         UInt8(clamping: Int(saturating: style.color.blue * 255)))
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
        for q in quads {
            for row in 0..<q.source.height {
                let sy = q.source.y + row, dy = q.destination.y - ink.y + margin + row
                guard sy >= 0, sy < atlas.size.height, dy >= 0, dy < size.height else { continue }
                for col in 0..<q.source.width {
                    let sx = q.source.x + col, dx = q.destination.x - left + margin + col
                    guard sx >= 0, sx < atlas.size.width, dx >= 0, dx < size.width else { continue }
                    let cover = Double(atlas.pixels[sy * atlas.size.width + sx]) * style.color.alpha
                    let i = (dy * size.width + dx) * 4
                    let a = max(Double(pixels[i + 3]), cover)
                    (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = (r, g, b, UInt8(clamping: Int(saturating: min(255, a.rounded()), rounding: .towardZero)))
                }
            }
        }
        return RGBAImage(size: size, pixels: pixels)
    }

    /// Where a strip `strip` pixels wide starts in a region `region` wide.
    private static func aligned(_ align: SMILTextStyle.Align, strip: Int, region: Int) -> Double {
        switch align {
        case .left: return 0
        case .center: return Double(region - strip) / 2
        case .right: return Double(region - strip)
        }
    }
}
