import Foundation
import KioskCore
import KioskMedia
import KioskRender

/// The overview grid on the player's side: the core's `GridState` while it is open, the thumbnails it loads
/// (visible tiles first, on background threads, through the memory and disk caches) and the facts the filter
/// chips need (probed in the background for every item). The frame loop asks it once a turn for the frame to
/// draw; textures live only for the tiles on screen. Render thread only, except the loaders' callbacks.
final class GridScreen {
    /// Rows loaded ahead above and below the visible ones.
    static let marginRows = 2

    /// The grid's state while it is open; nil while closed.
    private(set) var state: GridState?
    /// The chip the grid opens with (kept between opens).
    private(set) var filter: GridFilter = .all
    private let settings: GridSettings
    private let log: Log
    private let timeout: Double
    private let limits: DecodeLimits
    private let stateDirectory: String?
    /// Loads thumbnails of one side; made again when the tile size changes.
    private var store: ThumbnailStore?
    /// Probes every item's kind, length and projection for the chips and badges.
    private var prober: GridFactsProber?
    /// Textures of the tiles on screen, by request (path and projection); the requests whose upload failed.
    private var textures: [ThumbnailRequest: Texture] = [:]
    private var uploadFailed = Set<ThumbnailRequest>()
    /// The disk cache, made at the first open and kept (nil: none, or not made yet).
    private var disk: ThumbnailDiskCache?
    private var diskMade = false
    /// The playlist version and facts count the entries were built from.
    private var built = (version: -1, facts: -1)
    /// Wakes the frame loop (a thumbnail or a fact arrived).
    var wake: @Sendable () -> Void = {}
    /// Text (chip labels, badges) is drawn by an overlay painter of its own, so `--no-overlays` keeps the grid's labels.
    private var painter: OverlayPainter?
    private var paintFailure: String?
    /// When it opened (player time), the loaders' figures then, and whether "ready" has been said since.
    private var opened: (at: Double, stats: ThumbnailStats?, saidReady: Bool) = (0, nil, true)

    /// A grid with `settings`; decodes within `timeout` and `limits`; the disk cache defaults under `stateDirectory`
    /// when `$XDG_CACHE_HOME` and `$HOME` are unset.
    init(settings: GridSettings, timeout: Double, limits: DecodeLimits, stateDirectory: String?, font: String, log: Log) {
        self.settings = settings
        self.timeout = timeout
        self.limits = limits
        self.stateDirectory = stateDirectory
        self.log = log
        do {
            painter = try OverlayPainter(family: font, boxOpacity: 0.6, log: log)
        } catch {
            log.warn("grid: \(error); drawing the tiles without labels")
        }
    }

    /// Whether the grid is open.
    var isOpen: Bool { state != nil }

    /// Opens the grid over `playlist` on `canvas`, the focus on `current`, at player time `t`.
    func open(_ playlist: LivePlaylist, current: ItemID?, canvas: PixelSize, at t: Double) {
        var s = GridState(entries: entries(playlist), current: current, canvas: canvas, columns: settings.columns, at: t)
        if filter != .all { _ = s.handle(.filter(filter), at: t) }
        state = s
        if store?.side != s.layout.tileSide { startLoaders(side: s.layout.tileSide) }
        prober?.probe(playlist.ids.compactMap { playlist.item($0) })
        opened = (t, store?.stats, false)
        built = (playlist.version, facts: -1)  // facts that land before the first step are taken then
    }

    /// Closes it; its textures go at once, its queued thumbnail work is dropped (the caches stay).
    func close() {
        if state != nil, let now = store?.stats {
            log.info("grid: thumbnails since it opened: \(Self.delta(now, since: opened.stats))")
        }
        state = nil
        textures.removeAll()
        store?.want([])
        prober?.probe([])  // what is probed stays; the rest waits for the next open
    }

    /// Ends its loaders (the player is ending).
    func stop() {
        close()
        store?.stop()
        prober?.stop()
        store = nil
        prober = nil
    }

    /// Sets the chip the grid shows (and opens with next time).
    func setFilter(_ f: GridFilter, at t: Double) {
        filter = f
        _ = state?.handle(.filter(f), at: t)
    }

    /// One input while open: what it asks of the player (open an item, close), if anything.
    func handle(_ input: GridInput, at t: Double) -> GridAction? {
        if case .filter(let f) = input { filter = f }
        let action = state?.handle(input, at: t)
        if let f = state?.filter { filter = f }
        return action
    }

    /// Whether it is moving by itself (inertia, a bounce): the loop draws the next frame without waiting.
    var isAnimating: Bool { state?.isAnimating ?? false }

    /// When the last input came (or when it opened), while open.
    var lastInput: Double? { state.map { $0.lastInput ?? $0.openedAt } }

    /// The path of the focused tile, if one is.
    var focusedPath: String? {
        guard let s = state, let f = s.focus, s.shown.indices.contains(f) else { return nil }
        return s.shown[f].path
    }

    /// Whether it has been open `idle` seconds (the setting; 0 never) without input at `t`.
    func isIdle(at t: Double) -> Bool {
        guard settings.idle > 0, let s = state else { return false }
        return s.isIdle(at: t, limit: settings.idle)
    }

    /// Brings the grid up to `t`: the playlist's edits and newly probed facts join, the canvas follows the display,
    /// inertia moves on, and the loaders are told which thumbnails matter now.
    func step(_ playlist: LivePlaylist, current: ItemID?, canvas: PixelSize, at t: Double) {
        guard var s = state else { return }
        let facts = prober?.count ?? 0
        if built.version != playlist.version || built.facts != facts || s.current != current {
            if built.version != playlist.version { prober?.probe(playlist.ids.compactMap { playlist.item($0) }) }
            s.update(entries: entries(playlist), current: current)
            built = (playlist.version, facts)
        }
        if s.layout.canvas != canvas { s.resize(canvas: canvas) }
        s.step(at: t)
        state = s
        if store?.side != s.layout.tileSide {
            textures.removeAll()
            startLoaders(side: s.layout.tileSide)
        }
        // The visible tiles first, then the rows around them nearest first; a tile whose texture is up needs no
        // picture in memory.
        let visible = s.tiles(at: t, margin: 0)
        let shown = Set(visible.map(\.index))
        let first = visible.first?.index ?? 0
        let around = s.tiles(at: t, margin: Self.marginRows).filter { !shown.contains($0.index) }
            .sorted { abs($0.index - first) < abs($1.index - first) }
        let wanted = (visible + around).map { request(for: $0.entry, in: playlist) }
        store?.want(wanted.filter { textures[$0] == nil && !uploadFailed.contains($0) })
    }

    /// The thumbnail request for an entry: its path and the playlist's projection override.
    private func request(for entry: GridEntry, in playlist: LivePlaylist) -> ThumbnailRequest {
        ThumbnailRequest(path: entry.path, override: playlist.item(entry.id)?.override)
    }

    /// The grid's entries: every playlist item with what is known of it.
    private func entries(_ playlist: LivePlaylist) -> [GridEntry] {
        playlist.ids.compactMap { id in
            guard let item = playlist.item(id) else { return nil }
            let facts = prober?.facts(for: item.path) ?? store?.facts(for: item.path) ?? TileFacts(guessingFrom: item.path)
            return GridEntry(id: id, path: item.path, facts: facts)
        }
    }

    /// A store for tiles of `side`; the one before (another tile size) ends on a thread of its own, so a decode it
    /// is in the middle of never holds up the frame loop.
    private func startLoaders(side: Int) {
        if let old = store { Thread { old.stop() }.start() }
        if !diskMade {
            disk = settings.diskCache ? diskCache() : nil
            diskMade = true
        }
        let wake = self.wake
        store = ThumbnailStore(side: side, memoryBudget: settings.memoryBytes, disk: disk, timeout: timeout,
                               limits: limits, log: log, onReady: wake)
        if prober == nil {
            prober = GridFactsProber(limits: limits, log: log, onProgress: wake)
        }
    }

    private func diskCache() -> ThumbnailDiskCache? {
        guard let cache = ThumbnailDiskCache.forGrid(settings, stateDirectory: stateDirectory, log: log) else {
            log.info("grid: no folder for the thumbnail cache; thumbnails are kept in memory only")
            return nil
        }
        return cache
    }

    /// What the frame loop compares to know whether the grid must be drawn again.
    struct FrameKey: Hashable {
        var scroll: Int
        var focus: Int?
        var filter: GridFilter
        var canvas: PixelSize
        var tiles: [Int]
        var loaded: Int
        /// Thumbnails that became ready or failed, and the facts and playlist the tiles were built from.
        var ready: Int
        var built: Int
        var version: Int
        var current: ItemID?
    }

    /// The frame for `t` on `canvas` and its key, drawn with `context`'s textures.
    func frame(at t: Double, canvas: PixelSize, playlist: LivePlaylist, context: GLContext) -> (frame: RenderFrame, key: FrameKey)? {
        guard let s = state else { return nil }
        let tiles = s.tiles(at: t, margin: 0)
        var pictures: [Int: Texture] = [:]
        var keep = Set<ThumbnailRequest>()
        for tile in tiles {
            let r = request(for: tile.entry, in: playlist)
            keep.insert(r)
            if let tex = texture(for: r, context: context) { pictures[tile.index] = tex }
        }
        textures = textures.filter { keep.contains($0.key) }
        let failed: (String) -> Bool = { [store, uploadFailed] path in
            store?.failed(path) == true || uploadFailed.contains { $0.path == path }
        }
        if !opened.saidReady, tiles.allSatisfy({ pictures[$0.index] != nil || failed($0.entry.path) }), let now = store?.stats {
            opened.saidReady = true
            let ms = Int(saturating: (t - opened.at) * 1000)
            log.info("grid: \(tiles.count) tiles ready \(ms) ms after opening (\(Self.delta(now, since: opened.stats)))")
        }
        let look = GridPainter(state: s, tiles: tiles, pictures: pictures, failed: failed)
        var overlays: [RenderOverlay]
        do {
            overlays = try look.overlays(text: painter).layers
            paintFailure = nil
        } catch {
            let why = "\(error)"
            if why != paintFailure { log.warn("grid: \(why); drawing the tiles without labels") }
            paintFailure = why
            overlays = look.shapes()
        }
        let key = FrameKey(scroll: Int(saturating: s.scroll), focus: s.focus, filter: s.filter, canvas: canvas,
                           tiles: tiles.map(\.index), loaded: pictures.count, ready: store?.stats.ready ?? 0,
                           built: built.facts, version: built.version, current: s.current)
        return (RenderFrame(background: GridPainter.background, layers: [], overlays: overlays), key)
    }

    /// The texture of a tile's thumbnail, uploaded once it is decoded (an upload that fails is said once and the
    /// tile then shows as failed).
    private func texture(for request: ThumbnailRequest, context: GLContext) -> Texture? {
        if let t = textures[request] { return t }
        guard !uploadFailed.contains(request), let thumb = store?.thumbnail(for: request) else { return nil }
        do {
            let t = try Texture(context: context, image: thumb.image)
            textures[request] = t
            return t
        } catch {
            log.warn("grid: \(request.path): \(error)")
            uploadFailed.insert(request)
            return nil
        }
    }

    /// The loaders' work between two readings, as a log line's words.
    static func delta(_ now: ThumbnailStats, since before: ThumbnailStats?) -> String {
        let b = before ?? ThumbnailStats()
        return "decoded \(now.decoded - b.decoded), from disk \(now.diskHits - b.diskHits), "
            + "cancelled \(now.cancelled - b.cancelled), failed \(now.failed - b.failed)"
    }

    /// Loader figures (for tests and the benchmark).
    var thumbnailStats: ThumbnailStats? { store?.stats }
}
