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
    /// Where items' sound played on the clock (for `record`, which mixes it into the file).
    public var soundSpans: [SoundSpan] = []

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
    /// Where long clips were left.
    public let resume: ResumeBook

    /// With `--untimed`: the clock the player moves itself, to each next video frame's time as soon as it is
    /// decoded (no pacing, no sound).
    public var untimedClock: VirtualClock?

    /// Whether items' sound goes to the audio device (false for `record`, which only notes where it plays).
    public var playsSound = true

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
        let book = ResumeBook()
        resume = book
        cache = DecodeCache(items: items, timeout: config.decodeTimeout, log: log,
                            decode: decode ?? Player.decoder(for: config, items: items, log: log, resume: book))
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
        composer?.waitForFrames = waitForDecodes
        composer?.viewHook = interaction.map { i in { i.views(sequence: $0, current: $1, geometry: $2, flat: $3, sphere: $4) } }
        self.output = output
    }

    /// The decoder for a config: pictures are decoded straight to the size they take on the canvas; spherical
    /// items (by name or override) whole, within the texture limit.
    /// Videos open their decoder thread (at the place a long clip was left, from `resume`) and decode their first
    /// frame here, ahead of their slot.
    public static func decoder(for config: PlayerConfig, items: [PlaylistItem] = [], log: Log = Log(level: .error),
                               resume: ResumeBook? = nil) -> DecodeCache.Decode {
        let canvas = config.size
        let fit = config.fit
        let maxZoom = config.kenBurns?.maxZoom ?? 1
        var overrides: [String: ProjectionOverride] = [:]
        for item in items { if let o = item.override { overrides[item.path] = o } }
        return { [overrides] path in
            let probed = Self.isPictureName(path) ? nil : try? MediaFile.probe(path)
            if let sound = probed, sound.kind == .audio {
                let length = min(sound.duration ?? 0, config.videoMax ?? .infinity)
                return DecodedItem(info: sound, picture: .clip(SoundPicture(path: path, length: length, canvas: canvas)))
            }
            if let info = probed, info.kind == .video {
                let start = info.duration.map { $0 >= ResumeBook.minimumLength ? resume?.start(for: path) ?? 0 : 0 } ?? 0
                return try MediaFile.openClip(path, info: info, log: log, startAt: start, maxLength: config.videoMax,
                                              timeout: config.decodeTimeout)
            }
            let view = ItemView.beforeDecode(path: path, itemOverride: overrides[path], config: config)
            return try MediaFile.decode(path, targetSize: {
                view.decodeSize(picture: $0) { FlatView.decodeSize(picture: $0, canvas: canvas, fit: fit, maxZoom: maxZoom) }
            })
        }
    }

    /// Whether a file's name says it is a picture (no probe needed to tell it from a clip or a sound file).
    static func isPictureName(_ path: String) -> Bool {
        MediaExtensions.isPicture(path)
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
        var playing: PlayingClip?
        var spans: [SoundSpan] = []
        let sound = ItemSound(settings: config.audio, log: log)
        composer.clockOverride = { [sound] slot in sound.clock(for: slot.sequence) }
        interaction?.volume = { [sound] request in
            switch request {
            case .volumeUp: sound.changeVolume(by: 10)
            case .volumeDown: sound.changeVolume(by: -10)
            case .mute: sound.toggleMute()
            default: break
            }
        }
        defer {
            sound.stop()
            playing?.leave(resume)
            composer.releaseAll()
        }
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
                playing?.leave(resume)
                playing = nil
                if let last = spans.last, last.length < 0 { spans[spans.count - 1].length = t - scene.currentTime - last.start }
                if let item = cache.item(scene.current.index), case .clip(let clip) = item.picture {
                    playing = PlayingClip(path: item.info.path, clip: clip, length: item.info.duration ?? 0)
                    let hasSound = item.info.streams.contains(where: { $0.type == "audio" })
                    if hasSound && untimedClock == nil {
                        spans.append(SoundSpan(path: item.info.path, start: t - scene.currentTime, mediaStart: clip.startTime, length: -1))
                    }
                    if untimedClock == nil, playsSound, hasSound {
                        sound.start(path: item.info.path, sequence: scene.current.sequence, at: clip.startTime)
                    } else {
                        sound.stop()
                    }
                } else {
                    sound.stop()
                }
            }
            sound.pause(scene.paused)  // the slideshow's pause holds the clip's sound, and so its frames
            if let p = playing {
                p.position = p.clip.startTime + scene.currentTime
                if p.endsEarly(at: scene.currentTime, slotLength: scene.current.length, log: log) { show.next() }
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
            if let p = playing, let pts = composer.shownPTS[scene.current.sequence], log.level >= .debug {
                let heard = sound.clock(for: scene.current.sequence).map { String(format: "%.4f", $0) } ?? "none"
                log.debug("presented \(p.path) frame \(String(format: "%.4f", pts)) s at clock \(String(format: "%.4f", clock.now)) s, audio \(heard) s")
            }
            if presented == 1 {
                firstFrameTime = clock.now
                onFirstFrame?()
            }
            if let untimed = untimedClock { advanceUntimed(untimed, scene: scene, playing: playing) }
        }
        if slots == 0 && show.isFinished && playing == nil {
            throw PlayerError("nothing playable: every item in the playlist was skipped")
        }
        let end = clock.now
        if let last = spans.last, last.length < 0 { spans[spans.count - 1].length = end - last.start }
        return PlayReport(framesPresented: presented, slotsShown: slots, endTime: end,
                          firstFrameTime: firstFrameTime, soundSpans: spans)
    }

    /// `--untimed`: moves the clock straight to the next video frame's time once it is decoded; past a still's
    /// slot (or in 1/30 s steps through a transition) when no clip is playing.
    private func advanceUntimed(_ clock: VirtualClock, scene: Scene, playing: PlayingClip?) {
        let left = scene.current.length - scene.currentTime
        if scene.outgoing == nil, let p = playing {
            let now = p.clip.startTime + scene.currentTime
            if let next = p.clip.peekFrame(timeout: config.decodeTimeout), next.pts > now {
                clock.advance(by: min(next.pts - now, max(left, 1e-6)))
            } else if p.clip.isFinished && p.clip.failure == nil {
                clock.advance(by: max(left, 1e-6))
            }  // a broken clip: the next turn ends its item (`endsEarly`)
            return
        }
        if scene.outgoing == nil && left > config.slideshow.transitionTime {
            clock.advance(by: max(1e-6, left - config.slideshow.transitionTime))
        } else {
            clock.advance(by: 1.0 / 30)
        }
    }
}

/// Where one item's sound played: from `start` on the player's clock, `length` seconds, starting at `mediaStart`
/// seconds of the file.
public struct SoundSpan: Sendable, Equatable {
    /// The file.
    public var path: String
    /// Clock seconds at which its slot began.
    public var start: Double
    /// Media seconds of the file heard at `start`.
    public var mediaStart: Double
    /// Seconds it played.
    public var length: Double
}

/// The clip on screen now: where it is, for resuming, and whether it ended before its slot.
final class PlayingClip {
    let path: String
    let clip: any ClipSource
    let length: Double
    var position: Double = 0
    private var reported = false

    init(path: String, clip: any ClipSource, length: Double) {
        self.path = path
        self.clip = clip
        self.length = length
        position = clip.startTime
    }

    /// Notes where a long clip was left.
    func leave(_ book: ResumeBook) { book.leave(path, at: position, length: length) }

    /// Whether the item must end now: its stream broke (one log line naming the file), or it ran out of frames
    /// more than a second before the slot's end (a container that overstates its length).
    func endsEarly(at t: Double, slotLength: Double, log: Log) -> Bool {
        guard !reported, clip.isFinished else { return false }
        if let failure = clip.failure {
            reported = true
            log.warn("\(failure.description); item ended at \(String(format: "%.2f", position)) s")
            return true
        }
        if slotLength - t > 1 {
            reported = true
            return true
        }
        return false
    }
}
