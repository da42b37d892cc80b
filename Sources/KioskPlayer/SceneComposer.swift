import KioskCore
import KioskRender

/// Turns the slideshow's `Scene` into what the renderer draws: a texture per visible slot (uploaded on the
/// render thread, updated when an animation moves to its next frame) and each layer's view and opacity.
final class SceneComposer {
    private struct SlotTexture {
        let texture: Texture
        var frame: Int
    }

    /// What a drawn frame looked like, to skip drawing identical frames.
    struct VisualKey: Equatable {
        var layers: [Int]  // sequence, frame index pairs flattened
        var progress: Double
        var motion: Double  // Ken Burns progress, or 0
    }

    private let config: PlayerConfig
    private let context: GLContext
    private var textures: [Int: SlotTexture] = [:]  // by slot sequence

    /// The canvas the frames are composed for: the config's size until the output's mode changes.
    var canvas: PixelSize

    init(config: PlayerConfig, context: GLContext) {
        self.config = config
        canvas = config.size
        self.context = context
    }

    /// Builds the frame for `scene`; nil if a picture isn't available (then nothing is drawn).
    func frame(for scene: Scene, cache: DecodeCache) throws -> (RenderFrame, VisualKey)? {
        var layers: [RenderLayer] = []
        var key = VisualKey(layers: [], progress: scene.progress, motion: 0)
        var visible = Set<Int>()
        var slots: [(Slot, Double, Double)] = []
        if let out = scene.outgoing { slots.append((out, scene.outgoingTime, 1)) }
        let crossfade = scene.outgoing != nil && config.slideshow.transition == .crossfade
        slots.append((scene.current, scene.currentTime, crossfade ? scene.progress : 1))
        for (slot, time, opacity) in slots {
            guard let layer = try layer(for: slot, time: time, opacity: opacity, cache: cache, key: &key) else { continue }
            visible.insert(slot.sequence)
            layers.append(layer)
        }
        // Textures of slots no longer on screen are released now, on the render thread.
        for sequence in textures.keys where !visible.contains(sequence) { textures[sequence] = nil }
        guard !layers.isEmpty else { return nil }
        return (RenderFrame(background: config.background, layers: layers), key)
    }

    private func layer(for slot: Slot, time: Double, opacity: Double, cache: DecodeCache,
                       key: inout VisualKey) throws -> RenderLayer? {
        let frameIndex = slot.timing.frameIndex(at: time, slotDuration: slot.duration)
        var entry = textures[slot.sequence]
        if entry == nil || entry?.frame != frameIndex {
            guard let item = cache.item(slot.index) else {
                // Evicted while still on screen can't happen (the player keeps visible items); draw what we have.
                guard let e = entry else { return nil }
                return layerFor(texture: e.texture, slot: slot, time: time, opacity: opacity, key: &key)
            }
            let image = Self.image(of: item.picture, frame: frameIndex)
            if let e = entry {
                try e.texture.update(with: image)
                entry?.frame = frameIndex
            } else {
                entry = SlotTexture(texture: try Texture(context: context, image: image), frame: frameIndex)
            }
            textures[slot.sequence] = entry
        }
        guard let e = entry else { return nil }
        key.layers += [slot.sequence, frameIndex]
        return layerFor(texture: e.texture, slot: slot, time: time, opacity: opacity, key: &key)
    }

    private func layerFor(texture: Texture, slot: Slot, time: Double, opacity: Double,
                          key: inout VisualKey) -> RenderLayer {
        var view = FlatView(fit: config.fit)
        if let kb = config.kenBurns, slot.timing == .still {
            let p = slot.length > 0 ? min(1, time / slot.length) : 0
            view = kb.view(forSlot: slot.sequence, progress: p, base: view)
            key.motion += p + Double(slot.sequence)
        }
        let transform = view.transform(picture: texture.size, canvas: canvas)
        return RenderLayer(texture: texture, pass: FlatPass(transform: transform), opacity: opacity)
    }

    /// The picture to show for an item at a frame index.
    static func image(of picture: DecodedPicture, frame: Int) -> RGBAImage {
        switch picture {
        case .still(let image): return image
        case .animation(let frames, _):
            let i = min(max(0, frame), frames.count - 1)
            return frames[i].image
        }
    }

    /// Releases every texture (before the GL context goes away).
    func releaseAll() { textures.removeAll() }
}
