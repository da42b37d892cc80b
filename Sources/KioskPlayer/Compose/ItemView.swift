import Foundation
import KioskCore
import KioskMedia
import KioskRender

/// How one item is drawn: its projection decision, and the pass and effect for a view of it. Used by the
/// slideshow's composer and by `snapshot`, so both draw an item the same way.
struct ItemView {
    /// The decided projection.
    let decision: ProjectionDecision
    /// The command line's override with the item's own on top.
    let override: ProjectionOverride

    /// The decision for a file: the item's `#EXTKIOSK:` override over the command line's, over metadata and name.
    init(path: String, metadata: ProjectionMetadata?, itemOverride: ProjectionOverride?, config: PlayerConfig) {
        override = config.projection.merged(with: itemOverride)
        decision = ProjectionResolver.decide(path: path, metadata: metadata, override: override)
    }

    /// The decision before decoding, which sets the decode size: from the override and name, and for a JPEG
    /// nothing else marks, from its Photo Sphere XMP (a quick probe of the file's head).
    static func beforeDecode(path: String, itemOverride: ProjectionOverride?, config: PlayerConfig) -> ItemView {
        let named = ItemView(path: path, metadata: nil, itemOverride: itemOverride, config: config)
        let ext = (path as NSString).pathExtension.lowercased()
        guard named.decision.source == .none, ext == "jpg" || ext == "jpeg",
              let metadata = (try? MediaFile.probe(path))?.projection else { return named }
        return ItemView(path: path, metadata: metadata, itemOverride: itemOverride, config: config)
    }

    /// The view a spherical item starts at on a canvas of `canvas` size.
    func startView(canvas: PixelSize) -> SphereView { override.startView(canvas: canvas) }

    /// The view `seconds` into the item's slot: the start view panned by `panSpeed` degrees of yaw per second.
    func view(at seconds: Double, panSpeed: Double, canvas: PixelSize) -> SphereView {
        startView(canvas: canvas).panned(yawBy: panSpeed * seconds)
    }

    /// The pass drawing a texture of `texture` size: a sphere projection through `view`, or flat through `flat`
    /// (for stereo content, the flat crop of the eye shown).
    func pass(texture: PixelSize, canvas: PixelSize, view: SphereView, flat: FlatView) -> any ShaderPass {
        let p = decision.projection
        switch p.kind {
        case .equirect: return EquirectProjection(view: view, projection: p)
        case .fisheye: return FisheyeProjection(view: view, projection: p)
        case .flat:
            // The texture holds only the eye shown (see `picture(_:)`).
            let shown = p.stereo.unsqueezed(eye: texture)
            return FlatPass(transform: flat.transform(picture: shown, canvas: canvas))
        }
    }

    /// The pixels to upload for a decoded picture: for the flat crop of one eye, only that eye; never larger than
    /// `maxSide` (the driver's texture limit: a large panorama is scaled down rather than failing to upload).
    func picture(_ image: RGBAImage, maxSide: Int) throws -> RGBAImage {
        let p = decision.projection
        let shown = p.kind == .flat && p.stereo != .mono ? image.cropped(to: p.eyeRect) : image
        let side = max(shown.size.width, shown.size.height)
        guard maxSide > 0, side > maxSide else { return shown }
        let s = Double(maxSide) / Double(side)
        return try Scaler.scale(shown, to: PixelSize(width: max(1, min(maxSide, Int(saturating: Double(shown.size.width) * s))),
                                                     height: max(1, min(maxSide, Int(saturating: Double(shown.size.height) * s)))))
    }

    /// The size to decode a picture of `picture` size to: whole (within limits) for a sphere, else `flatSize`.
    /// A flat crop of one eye is sized for the eye: the whole picture is decoded at the scale the eye needs.
    func decodeSize(picture: PixelSize, flatSize: (PixelSize) -> PixelSize) -> PixelSize {
        let p = decision.projection
        if p.isSpherical { return ItemProjection.decodeSize(picture: picture) }
        guard p.stereo != .mono else { return flatSize(picture) }
        let eye = p.stereo.eyeDisplaySize(picture: picture)
        let wanted = flatSize(eye)
        let s = min(1, max(Double(wanted.width) / Double(eye.width), Double(wanted.height) / Double(eye.height)))
        return PixelSize(width: max(1, Int(saturating: Double(picture.width) * s)),
                         height: max(1, Int(saturating: Double(picture.height) * s)))
    }

    /// The effect chosen on the command line, or none (also when its spec is invalid: the command line is checked
    /// by `RenderChoices.validate` before anything plays).
    static func effect(_ config: PlayerConfig) -> any ShaderEffect {
        guard let spec = config.effect, let effect = try? PassRegistry.effect(spec) else { return NoEffect() }
        return effect
    }
}
