import KioskCore
import KioskRender

/// Turns the slideshow's `Scene` into what the renderer draws: a texture per visible slot (uploaded on the
/// render thread, updated when an animation moves to its next frame) and each layer's view and opacity.
final class SceneComposer {
    private struct SlotTexture {
        /// What the layer samples: `rgba` or `video`.
        let texture: any LayerPicture
        /// The RGBA texture of a still or an animation.
        let rgba: Texture?
        /// The planes of a clip's frame.
        let video: VideoTexture?
        /// The animation frame index, or the clip frame's time in milliseconds.
        var frame: Int
        /// How the slot's item is drawn (its projection), decided when its picture arrived.
        let view: ItemView
    }

    /// What a drawn frame looked like, to skip drawing identical frames.
    struct VisualKey: Equatable {
        var layers: [Int]  // sequence, frame index pairs flattened
        var progress: Double
        var motion: Double  // Ken Burns progress, or 0
        var view: [Double] = []  // the user's zoom, pan and turn, when input changed them
        var effect = ""  // the effect drawn, with its split
    }

    private var config: PlayerConfig
    private let context: GLContext
    private let playlist: LivePlaylist
    private var textures: [Int: SlotTexture] = [:]  // by slot sequence

    /// The canvas the frames are composed for: the config's size until the output's mode changes.
    var canvas: PixelSize

    /// Input's override of a layer's views: (slot sequence, is the current slot, geometry, flat, sphere) ->
    /// the views to draw with.
    var viewHook: ((Int, Bool, LayerGeometry, FlatView, SphereView) -> (FlatView, SphereView))?
    private var currentSequence = -1

    init(config: PlayerConfig, context: GLContext, playlist: LivePlaylist) {
        self.config = config
        canvas = config.size
        self.context = context
        self.playlist = playlist
    }

    /// The transition between items from now on.
    var transition: TransitionSpec {
        get { config.slideshow.transition }
        set { config.slideshow.transition = newValue }
    }

    /// The projection the slot of `sequence` is drawn with (`flat`, `equirect 360`, `fisheye 190 sbs`), once
    /// its picture has arrived.
    func projection(ofSlot sequence: Int) -> String? {
        guard let p = textures[sequence]?.view.decision.projection else { return nil }
        guard p.isSpherical else { return "flat" }
        var words = [p.kind.rawValue, String(format: "%g", p.inputFOV)]
        if p.stereo != .mono { words.append(p.stereo.rawValue) }
        return words.joined(separator: " ")
    }

    /// Builds the frame for `scene`; nil if a picture isn't available (then nothing is drawn).
    func frame(for scene: Scene, cache: DecodeCache) throws -> (RenderFrame, VisualKey)? {
        var layers: [RenderLayer] = []
        currentSequence = scene.current.sequence
        var key = VisualKey(layers: [], progress: scene.progress, motion: 0, effect: String(describing: effect))
        var visible = Set<Int>()
        var slots: [(Slot, Double, Double)] = []
        if let out = scene.outgoing { slots.append((out, scene.outgoingTime, 1)) }
        slots.append((scene.current, scene.currentTime, 1))
        var outgoing: RenderLayer?, incoming: RenderLayer?
        for (slot, time, opacity) in slots {
            guard let layer = try layer(for: slot, time: time, opacity: opacity, cache: cache, key: &key) else { continue }
            visible.insert(slot.sequence)
            if slot == scene.current { incoming = layer } else { outgoing = layer }
        }
        layers = TransitionLayers.layers(outgoing: outgoing, incoming: incoming, inChange: scene.outgoing != nil,
                                         progress: scene.progress,
                                         transition: TransitionLayers.transition(config, change: scene.current.sequence))
        // Textures of slots no longer on screen are released now, on the render thread.
        for sequence in textures.keys where !visible.contains(sequence) {
            textures[sequence] = nil
            shownPTS[sequence] = nil
        }
        guard !layers.isEmpty else { return nil }
        return (RenderFrame(background: config.background, layers: layers), key)
    }

    private func layer(for slot: Slot, time: Double, opacity: Double, cache: DecodeCache,
                       key: inout VisualKey) throws -> RenderLayer? {
        if case .timed = slot.timing { return try clipLayer(for: slot, time: time, opacity: opacity, cache: cache, key: &key) }
        let frameIndex = slot.timing.frameIndex(at: time, slotDuration: slot.duration)
        var entry = textures[slot.sequence]
        if entry == nil || entry?.frame != frameIndex {
            guard let item = cache.item(slot.id) else {
                // Evicted while still on screen can't happen (the player keeps visible items); draw what we have.
                guard let e = entry else { return nil }
                return layerFor(e, slot: slot, time: time, opacity: opacity, key: &key)
            }
            let image = Self.image(of: item.picture, frame: frameIndex)
            if let e = entry, let rgba = e.rgba {
                try rgba.update(with: e.view.picture(image, maxSide: context.maxTextureSize))
                entry?.frame = frameIndex
            } else {
                let view = itemView(item, slot: slot)
                let texture = try Texture(context: context, layerImage: view.picture(image, maxSide: context.maxTextureSize))
                entry = SlotTexture(texture: texture, rgba: texture, video: nil, frame: frameIndex, view: view)
            }
            textures[slot.sequence] = entry
        }
        guard let e = entry else { return nil }
        key.layers += [slot.sequence, frameIndex]
        return layerFor(e, slot: slot, time: time, opacity: opacity, key: &key)
    }

    /// How an item is drawn, from its metadata and the playlist's override.
    private func itemView(_ item: DecodedItem, slot: Slot) -> ItemView {
        ItemView(path: item.info.path, metadata: item.info.projection,
                 itemOverride: playlist.item(slot.id)?.override, config: config)
    }

    /// A clip's layer: the frame due at the slot's media time (late ones dropped, none repeated); the first frame
    /// as soon as the slot starts. A clip reused by a later slot (a one-item loop) starts over.
    private func clipLayer(for slot: Slot, time: Double, opacity: Double, cache: DecodeCache,
                           key: inout VisualKey) throws -> RenderLayer? {
        var entry = textures[slot.sequence]
        if let item = cache.item(slot.id), case .clip(let clip) = item.picture {
            if entry == nil, let owner = clipOwners[slot.id], owner != slot.sequence {
                clip.seek(to: clip.startTime + time)  // at its slot's time: ~0, or part-way with --sync-epoch
            }
            clipOwners[slot.id] = slot.sequence
            let due = clockOverride?(slot) ?? (clip.startTime + time)
            // one binding only, so that after the upload the storage has no other owner when it goes back
            var frame = waitForFrames ? Self.waitedFrame(clip, due: due, first: entry == nil)
                : entry == nil ? (clip.frame(at: due) ?? clip.nextFrame(timeout: 1)) : clip.frame(at: due)
            if frame != nil { entry = try upload(&frame!, of: clip, into: entry, item: item, slot: slot) }
        }
        guard let e = entry else { return nil }
        key.layers += [slot.sequence, e.frame]
        return layerFor(e, slot: slot, time: time, opacity: opacity, key: &key)
    }

    /// Uploads `frame` into the slot's texture (made on its first frame), then gives its storage back to `clip`
    /// for a later frame.
    private func upload(_ frame: inout VideoFrame, of clip: any ClipSource, into entry: SlotTexture?, item: DecodedItem,
                        slot: Slot) throws -> SlotTexture? {
        var entry = entry
        if let e = entry, let video = e.video {
            try video.update(with: frame)
        } else {
            let video = try VideoTexture(context: context, frame: frame)
            entry = SlotTexture(texture: video, rgba: nil, video: video, frame: 0, view: itemView(item, slot: slot))
        }
        entry?.frame = Int(saturating: frame.pts * 1000)
        textures[slot.sequence] = entry
        shownPTS[slot.sequence] = frame.pts
        clip.recycle(&frame)
        return entry
    }

    /// The time of the clip frame each slot shows now (for the presentation log).
    private(set) var shownPTS: [Int: Double] = [:]

    /// On a virtual clock (`record`, `--untimed`): wait for the decoder, so the frame drawn is exactly the one due
    /// however fast the machine is.
    var waitForFrames = false

    /// The newest frame due at `due`, waiting for the decoder to get there (the first frame in any case).
    private static func waitedFrame(_ clip: any ClipSource, due: Double, first: Bool) -> VideoFrame? {
        var latest: VideoFrame?
        while let head = clip.peekFrame(timeout: 10), head.pts <= due + 1e-6 || (first && latest == nil) {
            latest = clip.nextFrame(timeout: 0)
            if latest == nil { break }
        }
        return latest
    }

    /// Which slot last took frames from each item's clip, so a later slot restarts it. Pruned with the cache.
    private var clipOwners: [ItemID: Int] = [:]

    /// Forgets the clips of items the decode cache no longer keeps (their next visit decodes a fresh clip).
    func forget(keeping keep: Set<ItemID>) {
        for id in clipOwners.keys where !keep.contains(id) { clipOwners[id] = nil }
    }

    /// How many clips' owners are remembered (for tests).
    var rememberedClips: Int { clipOwners.count }

    /// The media time of a clip slot from elsewhere than the slot's own time (the item's audio clock), if any.
    var clockOverride: ((Slot) -> Double?)?

    private func layerFor(_ entry: SlotTexture, slot: Slot, time: Double, opacity: Double,
                          key: inout VisualKey) -> RenderLayer {
        let texture = entry.texture
        var flat = FlatView(fit: config.fit)
        var sphere = entry.view.startView(canvas: canvas)
        if entry.view.decision.projection.isSpherical {
            // 360/180 items pan their yaw slowly while they show.
            sphere = entry.view.view(at: time, panSpeed: config.panSpeed, canvas: canvas)
            if config.panSpeed != 0 { key.motion += time + Double(slot.sequence) }
        } else if let kb = config.kenBurns, slot.timing == .still {
            let p = slot.length > 0 ? min(1, time / slot.length) : 0
            flat = kb.view(forSlot: slot.sequence, progress: p, base: flat)
            key.motion += p + Double(slot.sequence)
        }
        if let hook = viewHook {
            let p = entry.view.decision.projection
            let geometry = LayerGeometry(picture: p.isSpherical ? texture.size : p.stereo.unsqueezed(eye: texture.size),
                                         canvas: canvas, spherical: p.isSpherical)
            (flat, sphere) = hook(slot.sequence, slot.sequence == currentSequence, geometry, flat, sphere)
            key.view += [flat.zoom, flat.center.x, flat.center.y, sphere.yaw, sphere.pitch, sphere.hFOV]
        }
        let pass = entry.view.pass(texture: texture.size, canvas: canvas, view: sphere, flat: flat)
        return RenderLayer(texture: texture, pass: pass, opacity: opacity, effect: effect)
    }

    /// The picture to show for an item at a frame index.
    static func image(of picture: DecodedPicture, frame: Int) -> RGBAImage {
        switch picture {
        case .still(let image): return image
        case .animation(let frames, _):
            return frames.image(at: frame)  // decoded ahead into the animation's window; clamped to its frames
        case .clip(let clip):
            // A clip drawn as a picture (not through the composer): a placeholder of its size in the background.
            return RGBAImage(size: clip.displaySize, fill: (0, 0, 0, 255))
        }
    }

    /// The picture effect drawn over every layer, its split where it is now (the player sets it each frame).
    var effect: any ShaderEffect = NoEffect()

    /// The picture shown while the playlist is empty (`--idle-image`), decoded at start.
    var idlePicture: RGBAImage?
    private var idleTexture: Texture?

    /// The frame shown while there is nothing to play: the background, and the idle picture fitted on it.
    /// Releases the textures of the slots that were on screen.
    func idleFrame() throws -> (frame: RenderFrame, key: VisualKey) {
        textures.removeAll()
        shownPTS.removeAll()
        var layers: [RenderLayer] = []
        if let image = idlePicture {
            let texture = try idleTexture ?? Texture(context: context, image: image)
            idleTexture = texture
            let pass = FlatPass(transform: FlatView(fit: .contain).transform(picture: texture.size, canvas: canvas))
            layers.append(RenderLayer(texture: texture, pass: pass))
        }
        return (RenderFrame(background: config.background, layers: layers),
                VisualKey(layers: [-1, canvas.width, canvas.height], progress: 1, motion: 0))
    }

    /// Releases every texture (before the GL context goes away).
    func releaseAll() {
        idleTexture = nil
        textures.removeAll()
        shownPTS.removeAll()
        clipOwners.removeAll()
    }
}
