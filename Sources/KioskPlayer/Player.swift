import Foundation
import KioskCore
import KioskInput
import KioskMedia
import KioskOutput
import KioskRender

/// Why a run of the player failed.
public struct PlayerError: Error, CustomStringConvertible, Sendable {
    /// One line.
    public var description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

/// How a run of the player ended.
public struct PlayReport: Sendable {
    /// Frames presented.
    public var framesPresented: Int
    /// Slots shown (items, counting repeats).
    public var slotsShown: Int
    /// The clock's time at the end.
    public var endTime: Double
    /// The clock's time when the first frame had been presented, if one was.
    public var firstFrameTime: Double?

    /// Frames presented per second after the first one (start-up excluded), if at least two were.
    public var presentedFPS: Double? {
        guard let first = firstFrameTime, framesPresented > 1, endTime > first else { return nil }
        return Double(framesPresented - 1) / (endTime - first)
    }
}

/// The player: each frame it asks the slideshow what is on screen at the clock's time, makes sure the
/// pictures are decoded (ahead of time, on background threads), draws the scene and presents it.
public final class Player {
    private let config: PlayerConfig
    private var output: Output?
    private let clock: Clock
    private let log: Log
    private let show: Slideshow
    private let cache: DecodeCache
    private var renderer: Renderer?
    private var composer: SceneComposer?
    /// With a virtual clock the player waits for decodes instead of holding the current item, so the result
    /// is the same however fast the machine is.
    private let waitForDecodes: Bool

    /// Called once, right after the first frame has been presented.
    public var onFirstFrame: (() -> Void)?

    /// Input: read once per frame; it drives the slideshow and the current item's view.
    /// Display hotplug events (a udev monitor on the drm subsystem), checked once a frame.
    public var hotplug: DisplayHotplugMonitor?

    public var interaction: InteractionController? {
        didSet { composer?.viewHook = interaction.map { i in { i.views(sequence: $0, current: $1, geometry: $2, flat: $3, sphere: $4) } } }
    }

    /// Builds a player over `items` on `clock` and starts decoding the first item at once, so the decode
    /// overlaps the output's start-up. Frames go to the output given to `attach`.
    public init(items: [PlaylistItem], config: PlayerConfig, clock: Clock, log: Log,
                waitForDecodes: Bool, decode: DecodeCache.Decode? = nil) {
        self.config = config
        self.clock = clock
        self.log = log
        self.waitForDecodes = waitForDecodes
        show = Slideshow(items: items, options: config.slideshow)
        cache = DecodeCache(items: items, timeout: config.decodeTimeout, log: log,
                            decode: decode ?? Player.decoder(for: config, items: items))
        if let first = show.upcoming { cache.request(first) }
    }

    /// Builds a player over `items` drawing into `output` on `clock`.
    public convenience init(items: [PlaylistItem], config: PlayerConfig, output: Output, clock: Clock, log: Log,
                            waitForDecodes: Bool, decode: DecodeCache.Decode? = nil) throws {
        self.init(items: items, config: config, clock: clock, log: log, waitForDecodes: waitForDecodes, decode: decode)
        try attach(output)
    }

    /// Sets the output frames go to (on the render thread: its GL context must be current here).
    public func attach(_ output: Output) throws {
        renderer = try Renderer(context: output.context)
        composer = SceneComposer(config: config, context: output.context, items: show.items)
        composer?.viewHook = interaction.map { i in { i.views(sequence: $0, current: $1, geometry: $2, flat: $3, sphere: $4) } }
        self.output = output
    }

    /// The decoder for a config: pictures are decoded straight to the size they take on the canvas; spherical
    /// items (by name or override) whole, within the texture limit.
    public static func decoder(for config: PlayerConfig, items: [PlaylistItem] = []) -> DecodeCache.Decode {
        let canvas = config.size
        let fit = config.fit
        let maxZoom = config.kenBurns?.maxZoom ?? 1
        var overrides: [String: ProjectionOverride] = [:]
        for item in items { if let o = item.override { overrides[item.path] = o } }
        return { [overrides] path in
            let view = ItemView.beforeDecode(path: path, itemOverride: overrides[path], config: config)
            return try MediaFile.decode(path, targetSize: {
                view.decodeSize(picture: $0) { FlatView.decodeSize(picture: $0, canvas: canvas, fit: fit, maxZoom: maxZoom) }
            })
        }
    }

    /// The slideshow being played (for events: next, previous, pause).
    public var slideshow: Slideshow { show }

    /// Plays until the playlist ends (`--no-loop`), `length` seconds pass, or `shouldStop` says so.
    /// Throws when nothing in the playlist can be shown.
    public func run(length: Double?, shouldStop: () -> Bool = { false }) throws -> PlayReport {
        guard let output, let renderer, let composer else { throw PlayerError("the player has no output") }
        var presented = 0
        var slots = 0
        var lastKey: SceneComposer.VisualKey?
        var lastSequence = -1
        var lastGeneration = output.generation
        var firstFrameTime: Double?
        defer { composer.releaseAll() }
        while !shouldStop() {
            let t = clock.now
            if let length, t >= length { break }
            if waitForDecodes {
                if let c = show.currentIndex { cache.wait(for: c) }
                if let u = show.upcoming { cache.wait(for: u) }
            }
            if let u = show.upcoming { cache.request(u) }
            if hotplug?.changed() == true { output.displayChanged() }
            if let input = interaction {
                input.canvas = output.size
                input.frame(at: t, slideshow: show)
                if input.quitRequested { break }
            }
            guard let scene = show.update(at: t, availability: cache.availability) else {
                if show.isFinished { break }
                // the first picture is still decoding: wake as soon as it is ready
                if let u = show.upcoming { cache.wait(for: u, limit: 0.02) } else { output.idle() }
                continue
            }
            if scene.current.sequence != lastSequence {
                lastSequence = scene.current.sequence
                slots += 1
                log.info("showing \(show.items[scene.current.index].path) at \(String(format: "%.3f", t)) s")
            }
            var keep: Set<Int> = [scene.current.index]
            if let o = scene.outgoing { keep.insert(o.index) }
            if let u = show.upcoming { keep.insert(u) }
            cache.evict(keeping: keep)
            composer.canvas = output.size   // a display's mode can change while playing
            guard let (frame, key) = try composer.frame(for: scene, cache: cache) else {
                output.idle()
                continue
            }
            if !output.isAvailable {
                output.idle()   // the display is lost: wait for it, draw nothing
                continue
            }
            if key == lastKey && output.generation == lastGeneration && !output.needsEveryFrame {
                output.idle()
                continue
            }
            try renderer.draw(frame, into: output.target, rotation: output.rotation)
            lastGeneration = output.generation
            _ = try output.present()
            lastKey = key
            presented += 1
            if presented == 1 {
                firstFrameTime = clock.now
                onFirstFrame?()
            }
        }
        if slots == 0 && show.isFinished {
            throw PlayerError("nothing playable: every item in the playlist was skipped")
        }
        return PlayReport(framesPresented: presented, slotsShown: slots, endTime: clock.now,
                          firstFrameTime: firstFrameTime)
    }
}
