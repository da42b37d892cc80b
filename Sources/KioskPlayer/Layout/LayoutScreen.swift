import Foundation
import KioskCore
import KioskMedia
import KioskRender

/// A SMIL layout as frames: at each time the timeline says what every region shows, the decode cache (one for
/// all regions, under one budget) is asked for those media and, ahead, for those of the timeline's next change,
/// media no region needs any more are let go, and the composer builds the frame. What `snapshot`, the benchmark
/// and (with the loop's modes) `play` and `record` draw a layout through.
public final class LayoutScreen {
    /// The layout.
    public let file: SMILFile
    /// Its timeline, stills lasting `--duration`.
    public var timeline: SMILTimeline { clocks.timeline }
    private let media: LayoutMedia
    private let cache: DecodeCache
    private let composer: LayoutComposer
    private let stillDuration: Double
    /// Whether each frame waits for the decodes it needs (a virtual clock: the same frames however fast the
    /// machine is) or draws what has arrived (real time: a region shows its background until its medium is in).
    public let waitsForDecodes: Bool

    /// A screen of `config.size` drawing `file` with `context` (on the render thread), its body beginning at
    /// `anchor` on the wall clock (nil: now, in the system's zone).
    public init(file: SMILFile, config: PlayerConfig, context: GLContext, waitsForDecodes: Bool,
                anchor: SMILTimeline.WallAnchor? = nil, log: Log) {
        self.file = file
        stillDuration = config.slideshow.duration
        screenHeight = config.size.height
        hasWallclocks = file.document.hasWallclockBegins
        let timeline = file.timeline(stillDuration: stillDuration, anchor: anchor)
        for line in timeline.wallclockProblems { log.warn(line) }
        clocks = RegionClocks(timeline: timeline, loops: false)
        media = LayoutMedia(file: file)
        self.waitsForDecodes = waitsForDecodes
        LocalMediaPolicy.apply(config)
        composer = LayoutComposer(document: file.document, config: config, context: context, playlist: media.playlist)
        composer.waitForFrames = waitsForDecodes
        cache = DecodeCache(playlist: media.playlist, timeout: config.decodeTimeout, log: log,
                            decode: Self.regionDecoder(file: file, composer: composer, config: config, log: log))
        if file.document.mediaInDocumentOrder.contains(where: { $0.kind == .text }) {
            do {
                texts = try RegionText(context: context, config: config, log: log)
            } catch {
                log.warn("layout: text media are not drawn: \(error)")
            }
        }
    }

    /// Decodes each medium to the size its region takes on the screen (not the screen's): a photo in a 640x720 side
    /// region is decoded to cover 640x720. A file shown in several regions is decoded for the largest.
    private static func regionDecoder(file: SMILFile, composer: LayoutComposer, config: PlayerConfig, log: Log) -> DecodeCache.Decode {
        var wanted: [String: (size: PixelSize, fit: FitMode, kenBurns: Bool)] = [:]
        for m in file.document.mediaInDocumentOrder {
            guard let path = file.paths[m.index] else { continue }
            let region = file.document.regions.first { $0.name == (m.region ?? file.document.regions.first?.name) }
            let frame = region.flatMap { composer.frame(ofRegion: $0.name)?.pixels.size } ?? config.size
            let fit: FitMode = switch m.fit ?? region?.fit ?? .meet {
            case .slice: .cover
            case .fill: .fill
            case .meet, .meetBest, .hidden: .contain
            }
            let size = PixelSize(width: max(1, frame.width), height: max(1, frame.height))
            let kenBurns = m.kenBurns || (wanted[path]?.kenBurns ?? false)
            if let have = wanted[path], have.size.width * have.size.height >= size.width * size.height {
                wanted[path]?.kenBurns = kenBurns  // the larger region's size, with the zoom either asks for
                continue
            }
            wanted[path] = (size, fit, kenBurns)
        }
        var decoders: [String: DecodeCache.Decode] = [:]
        for (path, w) in wanted {
            var c = Player.decodeConfig(config)
            c.size = w.size
            c.fit = w.fit
            c.kenBurns = w.kenBurns ? KenBurns(seed: config.slideshow.seed) : nil  // decoded for its deepest zoom
            decoders[path] = Player.decoder(for: c, log: log)
        }
        let whole = Player.decoder(for: Player.decodeConfig(config), log: log)
        let byPath = decoders
        return { item in try (byPath[item.path] ?? whole)(item) }
    }

    deinit { composer.releaseAll() }

    /// The text media (by index): drawn by `texts`, never decoded.
    private lazy var textMedia: Set<Int> = Set(file.document.mediaInDocumentOrder.filter { $0.kind == .text }.map(\.index))
    /// Draws them; nil for a layout without text (or without a font).
    private var texts: RegionText?

    private let hasWallclocks: Bool

    /// Places the layout's wallclock begins anew for a body beginning at `start` (the layout starts, or starts
    /// again), or lists their repeats further ahead once layout time `t` nears the end of those listed. Nothing
    /// to do for a layout without wallclock begins.
    public func placeWallclocks(start: Date, zone: TimeZone, at t: Double = 0) {
        guard hasWallclocks else { return }
        var anchor = timeline.anchor
        var fired = timeline.fired
        if anchor.start != start || anchor.zone != zone {
            anchor = SMILTimeline.WallAnchor(start: start, zone: zone)
            fired = []  // a new start: the layout's clock begins again
        } else if t > anchor.horizon - 86_400 {
            anchor.horizon = t + 2 * 86_400
        } else {
            return
        }
        // its problems were said at the start
        clocks.timeline = file.timeline(stillDuration: stillDuration, anchor: anchor, fired: fired)
    }

    /// The outside triggers the layout's elements begin on.
    public lazy var listens: Set<SMILEventBegin.Trigger> = Set(file.document.outsideTriggers)
    /// The keys its `accesskey()` begins wait on (they go to the layout, not the key map).
    public lazy var accessKeys: Set<Character> = Set(listens.compactMap { if case .accessKey(let c) = $0 { c } else { nil } })
    /// Whether any element begins on a tap (`id.activateEvent`): taps then go to the layout.
    public lazy var hearsTaps: Bool = listens.contains { if case .activate = $0 { true } else { false } }

    /// The layout starts again: the triggers of the pass before are forgotten.
    public func startsAgain() {
        guard !timeline.fired.isEmpty else { return }
        clocks.timeline = file.timeline(stillDuration: stillDuration, anchor: timeline.anchor)
    }

    /// A trigger at layout time `t`: the timeline is worked out again with it (what it begins, begins at `t`
    /// plus its offset; the past stays as it was).
    public func fire(_ triggers: [SMILFiredEvent.Trigger], at t: Double) {
        let fired = timeline.fired + triggers.map { SMILFiredEvent($0, at: t) }
        clocks.timeline = file.timeline(stillDuration: stillDuration, anchor: timeline.anchor, fired: fired)
    }

    /// The ids a tap at screen point (`x`, `y`) at layout time `t` activates: of the medium showing in the top
    /// region there that shows one, then of each container around it, outermost last.
    public func activated(atX x: Double, y: Double, at t: Double) -> [String] {
        let shown = clocks.byRegion(at: t)
        for name in composer.regions(atX: x, y: y) {
            guard let a = shown[name] else { continue }
            return (a.media.id.map { [$0] } ?? []) + (containers[a.media.index] ?? [])
        }
        return []
    }

    /// The media (by index) that interrupt: begun by a wallclock, syncbase or event begin, or inside an element
    /// that is.
    public lazy var interrupting: Set<Int> = file.document.interruptingMedia

    /// The ids of the containers around each medium (by index), innermost first.
    private lazy var containers: [Int: [String]] = {
        var out: [Int: [String]] = [:]
        func walk(_ c: SMILContainer, around: [String]) {
            let ids = (c.id.map { [$0] } ?? []) + around
            for child in c.children {
                switch child {
                case .media(let m): out[m.index] = ids
                case .container(let inner): walk(inner, around: ids)
                }
            }
        }
        walk(file.document.body, around: [])
        return out
    }()

    /// Draws each medium's `caption` param in its region; nil: none are drawn (`--no-overlays`, or no font).
    var captions: RegionCaptions?
    private let screenHeight: Int

    /// Each region's own clock over the timeline (`playlist-next REGION` moves one on).
    public var clocks: RegionClocks

    /// Whether the layout starts again at the end of its body (the media of its start are then decoded ahead
    /// near the end, as those of any other change, and regions sent past the end wrap into it).
    public var loops: Bool {
        get { clocks.loops }
        set { clocks.loops = newValue }
    }

    /// The frame at `t` seconds on the layout's clock, and a key that is equal for frames that look the same.
    /// The media of the timeline's next change are asked for ahead. Regions in `hidden` are not drawn (the layout
    /// going out still shows its item there); what they begin with is decoded ahead.
    public func frame(at t: Double, hiding hidden: Set<String> = []) throws -> (frame: RenderFrame, key: LayoutFrameKey) {
        var ahead: Set<Int> = []
        let end = timeline.duration
        if let next = clocks.nextChange(after: t), next < end {
            ahead = Set(clocks.byRegion(at: next).values.map(\.media.index))
        } else if loops, end.isFinite {
            ahead = Set(clocks.byRegion(at: 0).values.map(\.media.index))
        }
        guard !hidden.isEmpty else { return try frame(showings: clocks.showings(at: t), ahead: ahead) }
        ahead.formUnion(timeline.byRegion(at: 0).filter { hidden.contains($0.key) }.values.map(\.media.index))
        return try frame(showings: clocks.showings(at: t).filter { !hidden.contains($0.key) }, ahead: ahead)
    }

    /// The frame showing `showings` (by region name), with the media `ahead` (by index) decoding for what comes
    /// next; media in neither are let go. Text media are drawn by `texts`, not decoded. With `only`, just those
    /// regions are drawn, over nothing (a layout going out, drawn over the one coming in).
    public func frame(showings: [String: RegionShowing], ahead: Set<Int> = [],
                      only: Set<String>? = nil) throws -> (frame: RenderFrame, key: LayoutFrameKey) {
        let shown = Set(showings.values.flatMap { [$0.current, $0.outgoing].compactMap { $0?.media.index } })
        let now = shown.subtracting(textMedia)
        let ahead = ahead.subtracting(textMedia)
        if waitsForDecodes {
            // one at a time, in media order: the same frames, and a peak of one photo's decode buffers, not all at once
            for i in now.sorted() where file.paths[i] != nil {
                cache.request(ItemID(i))
                cache.wait(for: ItemID(i))
            }
        }
        for i in now.union(ahead) where file.paths[i] != nil { cache.request(ItemID(i)) }
        let keep = Set(now.union(ahead).map { ItemID($0) })
        cache.evict(keeping: keep)
        composer.forget(keeping: keep)
        var (frame, key) = try composer.frame(showings: showings, cache: cache, stillDuration: stillDuration, only: only,
                                              path: media.path)
        if let captions {
            frame.overlays += try captions.overlays(showings, screenHeight: screenHeight, frame: composer.frame(ofRegion:),
                                                    z: composer.pictureZ(ofRegion:))
        }
        isComplete = now.allSatisfy { i in file.paths[i] == nil || cache.item(ItemID(i)) != nil || cache.failure(ItemID(i)) != nil }
        var motion: [Double] = []
        if let texts {
            for (name, showing) in showings.sorted(by: { $0.key < $1.key }) {
                guard let entry = showing.current, entry.media.kind == .text, let rect = composer.frame(ofRegion: name)?.pixels,
                      let z = composer.pictureZ(ofRegion: name) else { continue }
                let drawn = try texts.draw(entry, path: file.paths[entry.media.index], in: rect, z: z - 1,
                                           opacity: composer.opacity(ofRegion: name), scale: composer.placement.scale)
                frame.layers += drawn.layers
                frame.overlays += drawn.overlays
                motion.append(drawn.motion)
            }
            texts.forget(keeping: shown.intersection(textMedia))
        }
        return (frame, LayoutFrameKey(key: key, text: motion))
    }

    /// Whether the last frame had every medium it shows decoded (or failed, its region showing its background);
    /// false while one is still decoding.
    public private(set) var isComplete = true

    /// The layout time after `t` when its frame next changes by itself: the timeline's next change while every
    /// region shows a still, nil (every frame) while a clip or an animation plays, a transition runs or a medium is
    /// still decoding, and
    /// `.infinity` when nothing will change again.
    public func nextChange(after t: Double) -> Double? {
        for showing in clocks.showings(at: t).values {
            if showing.outgoing != nil { return nil }
            guard let entry = showing.current, !entry.frozen else { continue }
            if textMedia.contains(entry.media.index) {
                if entry.media.textStyle?.mode ?? .still != .still { return nil }  // a ticker moves every frame
                continue
            }
            let id = ItemID(entry.media.index)
            if entry.media.kenBurns { return nil }  // a still moving slowly: every frame
            switch cache.item(id)?.picture {
            case .clip?, .animation?: return nil
            case .still?: continue
            case nil where file.paths[entry.media.index] != nil && cache.failure(id) == nil: return nil  // still decoding
            case nil: continue  // no file, or it failed: the region's background
            }
        }
        return clocks.nextChange(after: t) ?? .infinity
    }

    /// The sound the screen plays at `t`: a screen has one loudspeaker, so of the regions (in the layout's
    /// order) the first showing a clip or a sound file that has sound, playing (not frozen) with a `soundLevel`
    /// above 0, is heard; nil when none is. Only regions `among` says are looked at.
    public func voice(at t: Double, among: (String) -> Bool = { _ in true }) -> LayoutVoice? {
        let shown = clocks.byRegion(at: t)
        for region in file.document.regions where among(region.name) {
            guard let a = shown[region.name], !a.frozen, a.media.soundLevel > 0, let path = file.paths[a.media.index],
                  case .timed? = file.lengths[a.media.index], file.sounding.contains(a.media.index) else { continue }
            return LayoutVoice(region: region.name, path: path, activation: a.activation, offset: a.offset, level: a.media.soundLevel)
        }
        return nil
    }
}

/// What a layout frame looked like: equal for frames that draw the same (the redraw test).
public struct LayoutFrameKey: Equatable {
    let key: LayoutComposer.VisualKey
    /// How far each text medium shown has moved.
    var text: [Double] = []
}

/// The region heard at one time, and where in its medium.
public struct LayoutVoice: Equatable {
    /// The region's name.
    public var region: String
    /// The medium's file.
    public var path: String
    /// Tells this showing from the medium's other showings (a repeat starts its sound again).
    public var activation: Int
    /// Seconds into the medium.
    public var offset: Double
    /// Its `soundLevel` (a fraction, above 0).
    public var level: Double
}
