import Foundation
import KioskCore
import KioskRender

/// Turns a layout's regions, each with what it shows at one time, into one frame: the root layout's
/// background, then per region (in z-order, ties in document order) its background and its pictures, each
/// picture placed by the SMIL fit and alignment in its region and cut to it. Each region draws through a
/// `SceneComposer` of its own, its region's size, so stills, animations, clips and transitions are drawn as the
/// full-screen slideshow draws them; all regions read from one decode cache.
final class LayoutComposer {
    /// One region as drawn.
    private struct RegionDrawer {
        let region: SMILRegion
        /// Its rectangle on the screen (cut to the root layout).
        var frame: LayoutRect
        /// Its z: the background at `z`, its pictures at `z + 1`.
        let z: Int
        let composer: SceneComposer

        /// Its opacity, 0...1.
        var opacity: Double { min(max(region.opacity, 0), 1) }

        /// A picture layer of the region, at its z and faded by its opacity.
        func stacked(_ layer: RenderLayer) -> RenderLayer {
            var layer = layer
            layer.opacity *= opacity
            layer.z = z + 1
            return layer
        }
    }

    /// What a drawn frame looked like: each region's scene key, in region order.
    struct VisualKey: Equatable {
        var regions: [SceneComposer.VisualKey?]
        /// The slow zoom's progress of each still with the `ken-burns` param.
        var motion: [Double] = []
        /// The brushes shown (by medium index).
        var brushes: [Int] = []
    }

    private(set) var document: SMILDocument
    private(set) var placement: LayoutPlacement
    /// The slow zoom's paths (`--seed`) for stills with the `ken-burns` param.
    private let kenBurns: KenBurns
    private var drawers: [RegionDrawer]

    /// Composes `document` for a screen of `config.size`, drawing with `context`; `playlist` holds one item per
    /// medium of the document (ids are the media's `index`).
    convenience init(document: SMILDocument, config: PlayerConfig, context: GLContext, playlist: LivePlaylist) {
        self.init(document: document, config: config) { regionConfig in
            let composer = SceneComposer(config: regionConfig, context: context, playlist: playlist)
            composer.waitForFrames = true
            return composer
        }
    }

    /// The full-screen slideshow's one-region layout (`SlideshowLayout`): region `main` over the composer's
    /// canvas, drawn by `composer`, the player's own. Its pictures are placed by the composer itself (`--fit`,
    /// zoom and pan, projections, Ken Burns), where a SMIL region places them by its fit.
    convenience init(slideshow composer: SceneComposer, config: PlayerConfig) {
        self.init(document: SlideshowLayout.document(size: composer.canvas, background: config.background), config: config) { _ in
            composer
        }
        placesPictures = false
    }

    /// Lays `document`'s regions out on `config.size`, each drawn by the composer `make` gives for its size.
    private init(document: SMILDocument, config: PlayerConfig, make: (PlayerConfig) -> SceneComposer) {
        // a layout without a root-layout size is laid out on the screen's own pixels
        var document = document
        if document.rootLayout.width <= 0 || document.rootLayout.height <= 0 {
            document.rootLayout.width = Double(config.size.width)
            document.rootLayout.height = Double(config.size.height)
        }
        self.document = document
        kenBurns = KenBurns(seed: config.slideshow.seed)
        let placed = LayoutPlacement(root: document.rootLayout, screen: config.size)
        placement = placed
        let ordered = document.regions.enumerated().sorted { ($0.element.zIndex, $0.offset) < ($1.element.zIndex, $1.offset) }
        drawers = ordered.enumerated().map { rank, entry in
            let frame = placed.screenFrame(of: entry.element, in: document.rootLayout)
            var regionConfig = config
            regionConfig.size = frame.pixels.size
            regionConfig.kenBurns = nil
            return RegionDrawer(region: entry.element, frame: frame, z: 10 + 2 * rank, composer: make(regionConfig))
        }
    }

    /// Whether pictures are placed in their regions by the SMIL fit and alignment (false for the slideshow's
    /// region, whose composer places them).
    private var placesPictures = true

    /// The region named `name`, as laid out.
    func frame(ofRegion name: String) -> LayoutRect? { drawers.first { $0.region.name == name }?.frame }

    /// Region `name`'s opacity, 0...1.
    func opacity(ofRegion name: String) -> Double { drawers.first { $0.region.name == name }?.opacity ?? 1 }

    /// The regions whose rectangle holds screen point (`x`, `y`), the one drawn on top first.
    func regions(atX x: Double, y: Double) -> [String] {
        drawers.reversed().filter { d in
            let f = d.frame
            return x >= f.x && x < f.x + f.width && y >= f.y && y < f.y + f.height
        }.map(\.region.name)
    }

    /// The z of region `name`'s pictures (what is drawn over them, its caption, takes it too, after them).
    func pictureZ(ofRegion name: String) -> Int? { drawers.first { $0.region.name == name }.map { $0.z + 1 } }

    /// Whether the composers wait for each clip frame due (a virtual clock) or take what has arrived (real time).
    var waitForFrames: Bool {
        get { drawers.first?.composer.waitForFrames ?? true }
        set { for d in drawers { d.composer.waitForFrames = newValue } }
    }

    /// The frame for `showings` (by region name; a region missing from it shows its background), its pictures
    /// from `cache`. `paths` gives each medium's file. With `only`, just those regions are drawn (backgrounds
    /// and pictures), without the root layout's background: a layout going out, over the one coming in.
    func frame(showings: [String: RegionShowing], cache: DecodeCache, stillDuration: Double, only: Set<String>? = nil,
               path: (SMILMedia) -> String) throws -> (RenderFrame, VisualKey) {
        var frame = RenderFrame(background: .black, layers: [])
        let root = document.rootLayout.backgroundColor
        if only == nil {
            frame.overlays.append(RenderOverlay(.solid(Self.premultiplied(root)), rect: placement.canvas.pixels, z: 0))
        }
        var key = VisualKey(regions: [])
        for d in drawers where only?.contains(d.region.name) ?? true {
            backdrop(of: d, into: &frame)
            if let current = showings[d.region.name]?.current, current.media.kind == .brush {
                // a brush: its colour over the whole region, where its pictures would be
                let colour = current.media.color ?? .black
                frame.overlays.append(RenderOverlay(.solid(Self.premultiplied(colour)), rect: d.frame.pixels, opacity: d.opacity, z: d.z + 1))
                key.regions.append(nil)
                key.brushes.append(current.media.index)
                continue
            }
            if showings[d.region.name]?.current?.media.kind == .text {  // drawn by RegionText, over the backdrop
                key.regions.append(nil)
                continue
            }
            guard let showing = showings[d.region.name], let current = showing.current,
                  let scene = Self.scene(showing, current: current, cache: cache, stillDuration: stillDuration, path: path) else {
                key.regions.append(nil)
                continue
            }
            let composer = d.composer
            if let t = showing.transition {
                composer.transition = t.mapping.spec
                // fadeToColor and fadeFromColor fade through the transition's fadeColor, over the region's background
                if t.mapping.spec.name == "fade", showing.outgoing != nil, t.fadeColor.alpha > 0 {
                    frame.overlays.append(RenderOverlay(.solid(Self.premultiplied(t.fadeColor)), rect: d.frame.pixels,
                                                        opacity: d.opacity, z: d.z))
                }
            }
            guard let (drawn, sceneKey) = try composer.frame(for: scene, cache: cache) else {
                key.regions.append(nil)
                continue
            }
            key.regions.append(sceneKey)
            // the composer gives the outgoing layer first during a change, then the incoming one
            let entries = drawn.layers.count == 2 ? [showing.outgoing ?? current, current] : [current]
            for (n, layer) in drawn.layers.enumerated() {
                let entry = entries[min(n, entries.count - 1)]
                let zoom = kenBurnsView(entry, cache: cache, stillDuration: stillDuration)
                if let zoom { key.motion.append(zoom.progress) }
                guard let placed = place(layer, media: entry.media, in: d, cache: cache, view: zoom?.view) else { continue }
                frame.layers.append(d.stacked(placed))
            }
        }
        return (frame, key)
    }

    /// The slideshow's frame: `scene` (the playlist's) in region `main`, over the root layout's background
    /// (`--background`, the frame's own clear colour); nil while its picture is not in. The region follows the
    /// composer's canvas, which changes with the display's mode.
    func frame(slideshow scene: Scene, cache: DecodeCache) throws -> (RenderFrame, VisualKey)? {
        guard !placesPictures, var d = drawers.first else { return nil }
        let canvas = d.composer.canvas
        if d.frame.pixels.size != canvas {
            document.rootLayout.width = Double(canvas.width)
            document.rootLayout.height = Double(canvas.height)
            placement = LayoutPlacement(root: document.rootLayout, screen: canvas)
            d.frame = placement.screenFrame(of: d.region, in: document.rootLayout)
            drawers[0] = d
        }
        guard let (drawn, sceneKey) = try d.composer.frame(for: scene, cache: cache) else { return nil }
        var frame = drawn
        let pictures = frame.layers
        frame.layers = []
        backdrop(of: d, into: &frame)
        frame.layers += pictures.map(d.stacked)
        return (frame, VisualKey(regions: [sceneKey]))
    }

    /// Region `d`'s background, if it has one, under its pictures.
    private func backdrop(of d: RegionDrawer, into frame: inout RenderFrame) {
        guard let bg = d.region.backgroundColor, bg.alpha > 0 else { return }
        frame.overlays.append(RenderOverlay(.solid(Self.premultiplied(bg)), rect: d.frame.pixels, opacity: d.opacity, z: d.z))
    }

    /// `layer` placed in its region: a flat picture by the medium's fit and alignment, cut to the region (the
    /// layer's rect is the visible part of the picture, so the region's background shows around it); any other
    /// projection fills the region. nil when nothing of it is visible.
    private func place(_ layer: RenderLayer, media: SMILMedia, in d: RegionDrawer, cache: DecodeCache,
                       view: FlatView?) -> RenderLayer? {
        var layer = layer
        guard layer.pass is FlatPass else {
            layer.rect = d.frame.pixels
            return layer
        }
        let fit = media.fit ?? d.region.fit
        let align = media.mediaAlign ?? d.region.mediaAlign
        // the medium's own size (hidden and meetBest show it at that size), turned as its EXIF orientation says
        let info = cache.item(ItemID(media.index))?.info
        let size = info.map { $0.orientation >= 5 ? PixelSize(width: $0.height, height: $0.width)
                                                  : PixelSize(width: $0.width, height: $0.height) } ?? layer.texture.size
        let local = fit.placement(picture: size, region: d.frame, align: align, scale: placement.scale)
        let onScreen = LayoutRect(x: d.frame.x + local.x, y: d.frame.y + local.y, width: local.width, height: local.height)
        let visible = onScreen.intersection(d.frame).pixels
        guard !visible.isEmpty, onScreen.width > 0, onScreen.height > 0 else { return nil }
        // layer canvas fraction s over the visible rect R: picture u = (R.x + s * R.w - P.x) / P.w
        var t = UVTransform(scaleX: Double(visible.width) / onScreen.width, scaleY: Double(visible.height) / onScreen.height,
                            offsetX: (Double(visible.x) - onScreen.x) / onScreen.width,
                            offsetY: (Double(visible.y) - onScreen.y) / onScreen.height)
        if let view {  // the slow zoom inside the placed picture: placed fraction -> the zoomed window of the picture
            let z = view.transform(picture: size, canvas: PixelSize(width: max(1, Int(saturating: onScreen.width)),
                                                                     height: max(1, Int(saturating: onScreen.height))))
            t = UVTransform(scaleX: t.scaleX * z.scaleX, scaleY: t.scaleY * z.scaleY,
                            offsetX: t.offsetX * z.scaleX + z.offsetX, offsetY: t.offsetY * z.scaleY + z.offsetY)
        }
        layer.pass = FlatPass(transform: t)
        layer.rect = visible
        return layer
    }

    /// The slow zoom and pan of `entry` when its medium is a still with the `ken-burns` param: kiosk's Ken Burns
    /// path for its showing (seeded by `--seed` and the showing), at its progress through the showing's length
    /// (`--duration` for one with no end); nil for any other medium.
    private func kenBurnsView(_ entry: RegionShowing.Entry, cache: DecodeCache,
                              stillDuration: Double) -> (view: FlatView, progress: Double)? {
        guard entry.media.kenBurns, case .ready(let timing) = cache.availability(ItemID(entry.media.index)),
              timing == .still else { return nil }
        let length = entry.length.isFinite && entry.length > 0 ? entry.length : stillDuration
        let progress = min(1, max(0, entry.offset / length))
        return (kenBurns.view(forSlot: entry.activation, progress: progress, base: FlatView(fit: .fill)), progress)
    }

    /// The region's scene: its medium (and the one going out) as slots of the composer, timed by the decode
    /// cache's timing of each; nil while the current one has not been decoded.
    private static func scene(_ showing: RegionShowing, current: RegionShowing.Entry, cache: DecodeCache,
                              stillDuration: Double, path: (SMILMedia) -> String) -> Scene? {
        func slot(_ e: RegionShowing.Entry) -> Slot? {
            guard case .ready(let timing) = cache.availability(ItemID(e.media.index)) else { return nil }
            // a still lasts its showing (so a slow zoom runs over its dur), or --duration when it has no end
            let still = e.length.isFinite && e.length > 0 ? e.length : stillDuration
            return Slot(id: ItemID(e.media.index), path: path(e.media), sequence: e.activation, timing: timing,
                        length: timing.slotLength(forDuration: still), duration: still)
        }
        guard let now = slot(current) else { return nil }
        let out = showing.outgoing.flatMap { o in slot(o).map { (o, $0) } }
        return Scene(current: now, currentTime: current.offset, outgoing: out?.1, outgoingTime: out?.0.offset ?? 0,
                     progress: out == nil ? 1 : showing.progress, paused: false)
    }

    /// A layout colour, premultiplied.
    static func premultiplied(_ c: LayoutColor) -> PremultipliedColor {
        PremultipliedColor(red: c.red * c.alpha, green: c.green * c.alpha, blue: c.blue * c.alpha, alpha: c.alpha)
    }

    /// Frees every region's textures (on the render thread).
    func releaseAll() { for d in drawers { d.composer.releaseAll() } }

    /// Forgets the clips of media the cache no longer keeps.
    func forget(keeping keep: Set<ItemID>) { for d in drawers { d.composer.forget(keeping: keep) } }
}
