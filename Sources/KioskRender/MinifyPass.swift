/// The minification pre-pass. Bilinear sampling below half size aliases (a 1080p frame shown at 640×360 scored
/// 33 dB against ffmpeg's area scaler, 55 dB with this pass), so a flat layer whose picture is drawn at less than half
/// its size in either axis is first reduced to its drawn size by an area filter (Shaders/minify.frag over an RGBA
/// picture's sampling stage; Shaders/minify_yuv.frag over a video frame's planes, each at its own resolution, then
/// converted) and then drawn from that copy at 1:1 by its normal pass. Other projections keep their own filtering;
/// layers at 2× or less are drawn as before.
internal import CEGL
import KioskCore

/// The reduced copies of minified pictures, kept between frames while their sizes stay the same and released when
/// their layer goes. Create, use and drop it on the render thread only.
final class MinifyPass {
    /// Source texels per drawn pixel (on either axis) above which a flat layer is reduced first.
    static let threshold = 2.0
    /// The most source texels per output pixel one reduction averages on an axis (minify.frag's loop bound).
    static let maxRatio = 15

    /// Whether minified flat layers are reduced (off: plain bilinear, for comparisons).
    var enabled = true

    /// One picture's reductions: the targets of each stage, the last one of the drawn size.
    private struct Reduced {
        /// The picture reduced (weak: the layer owns it; a new picture at the same address is not this one).
        weak var picture: (any LayerPicture)?
        /// The stages' targets, largest first.
        var stages: [OffscreenTarget]
        /// Frames drawn since it was last used (0: used in the frame being drawn).
        var idle = 0
        /// The picture's content version the stages were drawn from (nil: not drawn yet).
        var drawnFrom: Int? = nil
    }

    /// Reductions by picture.
    private var reduced: [ObjectIdentifier: Reduced] = [:]

    /// The sizes a picture of `picture` pixels is reduced through to be drawn `drawn` pixels large (fractional), the
    /// last one the drawn size rounded; empty when neither axis is minified more than `threshold`×. Each stage
    /// divides by at most `maxRatio` on an axis.
    static func stageSizes(picture: PixelSize, drawn: (width: Double, height: Double)) -> [PixelSize] {
        guard drawn.width > 0, drawn.height > 0,
              Double(picture.width) > threshold * drawn.width || Double(picture.height) > threshold * drawn.height else { return [] }
        let goal = PixelSize(width: min(max(Int(saturating: drawn.width), 1), picture.width),
                             height: min(max(Int(saturating: drawn.height), 1), picture.height))
        var sizes: [PixelSize] = []
        var current = picture
        while current != goal {
            current = PixelSize(width: max(goal.width, (current.width + maxRatio - 1) / maxRatio),
                                height: max(goal.height, (current.height + maxRatio - 1) / maxRatio))
            sizes.append(current)
        }
        return sizes
    }

    /// The picture's drawn size in pixels for a flat layer of `transform` on a rect of `rect` pixels.
    static func drawnSize(_ transform: UVTransform, rect: PixelSize) -> (width: Double, height: Double) {
        (Double(rect.width) / abs(transform.scaleX), Double(rect.height) / abs(transform.scaleY))
    }

    /// For a flat layer minified more than `threshold`×, draws the reduced copy of its picture for a rect of `rect`
    /// pixels (binding other framebuffers: the caller binds its target again) and returns it; nil for any other layer.
    func reduce(_ layer: RenderLayer, rect: PixelSize, renderer: Renderer) throws -> Texture? {
        guard enabled, let flat = layer.pass as? FlatPass else { return nil }
        let picture = layer.texture
        let sizes = Self.stageSizes(picture: picture.size, drawn: Self.drawnSize(flat.transform, rect: rect))
        guard !sizes.isEmpty else { return nil }
        let key = ObjectIdentifier(picture)
        var entry = reduced[key].flatMap { $0.picture === picture ? $0 : nil } ?? Reduced(picture: picture, stages: [])
        if entry.stages.map(\.size) != sizes {
            entry.stages = []
            entry.stages = try sizes.map { try OffscreenTarget(context: renderer.context, size: $0, filter: GL_LINEAR) }
            entry.drawnFrom = nil
        }
        entry.idle = 0
        // A picture whose content did not change since its copy was made (a still, a paused clip) is not reduced
        // again; one that is drawn into (version 0) always is.
        let version = picture.contentVersion
        if version == 0 || entry.drawnFrom != version {
            var source: any LayerPicture = picture
            for target in entry.stages {
                try draw(source, into: target, renderer: renderer)
                source = target.texture
            }
            entry.drawnFrom = version
        }
        reduced[key] = entry
        return entry.stages.last?.texture
    }

    /// A frame was drawn: copies of pictures drawn neither in it nor in the frame before are released (so a copy
    /// survives one frame without its picture, as text looks do).
    func frameDrawn() {
        for key in reduced.keys { reduced[key]?.idle += 1 }
        reduced = reduced.filter { $0.value.idle <= 2 && $0.value.picture != nil }  // 1: used in this frame, 2: the one before
    }

    /// The number of pictures with a reduced copy now.
    var count: Int { reduced.count }

    /// One area-filter stage: `source` through its sampling stage into all of `target`.
    private func draw(_ source: any LayerPicture, into target: OffscreenTarget, renderer: Renderer) throws {
        let program = try renderer.program(fragmentPieces: PassRegistry.minifyPieces(sampler: source.samplerPieces))
        target.bind()
        glDisable(GLenum(GL_BLEND))
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        program.use()
        source.bind(to: program)
        program.set("u_pictureSize", Double(source.size.width), Double(source.size.height))
        program.set("u_canvasSize", Double(target.size.width), Double(target.size.height))
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }
}
