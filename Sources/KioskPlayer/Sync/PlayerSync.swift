import Foundation
import KioskCore
import KioskRender

/// `--sync-epoch` in the player: the wall clock each frame is shown at, the timeline read at it, clips kept at the
/// timeline's media time (a late start or a clock step seeks), and the presentation log that tests compare.
final class PlayerSync {
    /// The timeline of the playlist as it was at start.
    let timeline: WallTimeline
    /// The playlist's ids, by timeline index.
    let ids: [ItemID]
    /// The playlist's version the timeline was made from: a new playlist (a load, a schedule's window, a watched
    /// folder's change) makes a new timeline, the same on every player given the same items.
    private(set) var playlistVersion: Int
    private let realtime: RealtimeClock
    /// Monotonic seconds minus the player clock's seconds, taken at the first frame.
    private var clockToMonotonic: Double?
    /// The slot and media offset of the last frame, and the player time of it: a jump beyond this much
    /// (a late start, a clock step) seeks the clip.
    private var last: (slot: Int, offset: Double, t: Double)?
    private static let jumpTolerance = 0.25

    /// The timeline for `items` (lengths from their headers) from `epoch`.
    init(epoch: Double, items: [PlaylistItem], ids: [ItemID], playlistVersion: Int, config: PlayerConfig, log: Log) throws {
        let lengths = SyncLengths.lengths(of: items, config: config, log: log)
        do {
            timeline = try WallTimeline(epoch: epoch, lengths: lengths, shuffle: config.slideshow.shuffle,
                                        seed: config.slideshow.seed)
        } catch {
            throw PlayerError(error.description)
        }
        self.ids = ids
        self.playlistVersion = playlistVersion
        realtime = RealtimeClock.fromEnvironment()
        log.info(String(format: "sync: %d items, a pass of %.3f s from epoch %.3f%@", lengths.count, timeline.passLength,
                        epoch, config.slideshow.shuffle ? ", shuffled by seed \(config.slideshow.seed)" : ""))
    }

    /// Carries over what `old` learned of the clocks and the clip on screen, for a timeline made anew.
    func continues(_ old: PlayerSync) {
        clockToMonotonic = old.clockToMonotonic
        last = old.last
    }

    /// Marks the playlist's version `version` as seen, when no timeline could be made of it.
    func saw(_ version: Int) { playlistVersion = version }

    /// The wall time (CLOCK_REALTIME seconds) of player time `t` on `clock`: `t` in monotonic time, plus the
    /// wall clock's offset from the monotonic clock read now (so a step of the wall clock counts at once).
    func wallTime(at t: Double, clock: Clock) -> Double {
        let toMonotonic = clockToMonotonic ?? (MonotonicClock.seconds() - clock.now)
        clockToMonotonic = toMonotonic
        return t + toMonotonic + realtime.offsetFromMonotonic()
    }

    /// Keeps the clip on screen at the timeline's media time: when the slot started before this player showed it
    /// (a late start) or the offset jumped (a clock step), the clip seeks there; otherwise its frames are simply
    /// chosen by the offset, which runs with the wall clock. True when the clip was moved (its sound must follow).
    @discardableResult
    func keepInStep(_ playing: PlayingClip?, scene: Scene, at t: Double, log: Log) -> Bool {
        defer { last = (scene.current.sequence, scene.currentTime, t) }
        let expected: Double
        if let last, last.slot == scene.current.sequence {
            expected = last.offset + (t - last.t)
        } else {
            expected = 0
        }
        guard abs(scene.currentTime - expected) > Self.jumpTolerance else { return false }
        if let last, last.slot == scene.current.sequence {
            log.info(String(format: "sync: the wall clock moved %+.3f s; re-aligned at %.3f s of slot %d", scene.currentTime - expected,
                            scene.currentTime, scene.current.sequence))
        }
        guard let p = playing, !p.clip.holdsOneFrame else { return false }
        p.clip.seek(to: p.clip.startTime + scene.currentTime)
        return true
    }

    /// The presentation log (debug): the wall time a frame is shown at, its slot and item, the slot's offset and
    /// the clip frame's media time.
    func logPresented(_ scene: Scene, wall: Double, framePTS: Double?, log: Log) {
        guard log.level >= .debug else { return }
        let index = ids.firstIndex(of: scene.current.id) ?? -1
        log.debug(String(format: "sync: presented wall %.9f slot %d item %d offset %.4f frame %@", wall, scene.current.sequence,
                         index, scene.currentTime, framePTS.map { String(format: "%.4f", $0) } ?? "-"))
    }
}

extension Screen {
    /// The scene at `t`: read off the wall-clock timeline with `--sync-epoch`, else the slideshow's own.
    func scene(at t: Double) -> Scene? {
        guard var sync else { return show.update(at: t, availability: cache.availability) }
        if sync.playlistVersion != show.playlist.version, let epoch = config.sync.epoch {
            let ids = show.playlist.ids
            do {
                let made = try PlayerSync(epoch: epoch, items: ids.compactMap { show.playlist.item($0) }, ids: ids,
                                          playlistVersion: show.playlist.version, config: config, log: log)
                made.continues(sync)
                sync = made
                self.sync = made
            } catch {
                // nothing left to play: the old timeline's items are gone, so nothing shows until items come
                sync.saw(show.playlist.version)
                log.warn("\(error)")
            }
        }
        let wall = sync.wallTime(at: t, clock: clock)
        frameWall = wall
        return show.follow(sync.timeline, ids: sync.ids, wall: wall, availability: cache.availability)
    }

    /// Where the wall lands on an output of `size` (the whole output without `--wall`).
    func wallPlacement(on size: PixelSize) -> WallPlacement {
        config.sync.wall?.placement(on: size) ?? .whole(size)
    }

    /// `frame`, composed on the wall, moved onto an output of `size` with `overlays` (composed on the wall too):
    /// unchanged without `--wall`.
    func onScreen(_ frame: RenderFrame, overlays: [RenderOverlay], size: PixelSize) -> RenderFrame {
        var f = frame
        f.overlays += overlays
        return Player.onScreen(f, wall: config.sync.wall, size: size)
    }

    /// The media time a clip's sound starts at for `scene`: part-way into its slot with `--sync-epoch`.
    func soundStart(_ clip: any ClipSource, scene: Scene) -> Double {
        sync == nil ? clip.startTime : clip.startTime + scene.currentTime
    }

}

extension Player {
    /// `frame`, composed on `wall` (pictures and overlays), moved onto an output of `size`; unchanged without a wall.
    static func onScreen(_ frame: RenderFrame, wall: WallLayout?, size: PixelSize) -> RenderFrame {
        guard let wall else { return frame }
        let placement = wall.placement(on: size)
        var f = frame
        f.layers = frame.layers.map(placement.moved)
        f.overlays = frame.overlays.map(placement.moved)
        return f
    }

    /// The config the decoder works with: pictures decoded for the wall's size on this output; with
    /// `--sync-epoch`, long clips start at their beginning, not where an earlier run left them.
    static func decodeConfig(_ config: PlayerConfig) -> PlayerConfig {
        var c = config
        if let wall = config.sync.wall { c.size = wall.placement(on: config.size).canvas }
        return c
    }
}

extension WallPlacement {
    /// A picture layer of the wall, on the output.
    func moved(_ layer: RenderLayer) -> RenderLayer {
        var l = layer
        l.rect = onScreen(layer.rect)
        return l
    }

    /// An overlay composed on the wall, on the output (text moves with its rect).
    func moved(_ overlay: RenderOverlay) -> RenderOverlay { overlay.offsetBy(offsetX, offsetY) }
}

extension RenderOverlay {
    /// The overlay `dx`, `dy` pixels further right and down (its text moves with its rect): a wall's overlays on
    /// the output, a region's caption on the screen.
    func offsetBy(_ dx: Int, _ dy: Int) -> RenderOverlay {
        var o = self
        o.rect = rect.offsetBy(dx, dy)
        if case .text(let drawing) = content { o.content = .text(drawing.offsetBy(dx, dy)) }
        return o
    }
}
