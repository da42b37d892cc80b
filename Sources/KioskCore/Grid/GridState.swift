/// The touch grid while it is open: the playlist as tiles under the filter chips, the focus ring the remote
/// moves, the scroll (dragged, coasting, bouncing at the ends), and what each input asks of the player. A value
/// the player owns; every answer is a function of the player time `t` passed in.
public struct GridState: Sendable {
    /// Every playlist item, in playlist order.
    public private(set) var entries: [GridEntry]
    /// The chip picked.
    public private(set) var filter: GridFilter = .all
    /// The entries the filter shows, in playlist order: tile i is `shown[i]`.
    public private(set) var shown: [GridEntry]
    /// The tile with the focus ring (an index into `shown`); nil when nothing is shown.
    public private(set) var focus: Int?
    /// The scroll in pixels as of the last input or `step` (0: the top row at the top); `scroll(at:)` is the
    /// live value while the grid moves on its own.
    public private(set) var scroll: Double = 0
    /// Where chips and tiles are.
    public private(set) var layout: GridLayout
    /// The item the slideshow shows (its tile is highlighted).
    public private(set) var current: ItemID?
    /// When the last input came (nil: none since the grid opened).
    public private(set) var lastInput: Double?
    /// When the grid opened.
    public let openedAt: Double
    /// The columns asked for (`--grid-columns`); nil: from the canvas's width.
    public let fixedColumns: Int?

    private var motion: GridScrollMotion?
    /// The scroll the finger alone would give during a drag (the shown scroll is it, rubber-banded).
    private var dragRaw: Double?

    /// Opens the grid on `canvas` with every entry shown, the focus on the `current` item (else the first) and
    /// scrolled to show it.
    public init(entries: [GridEntry], current: ItemID?, canvas: PixelSize, columns: Int?, at t: Double) {
        self.entries = entries
        self.shown = entries
        self.current = current
        self.openedAt = t
        self.fixedColumns = columns
        self.layout = GridLayout(canvas: canvas, count: entries.count, columns: columns)
        focusCurrentOrFirst()
    }

    /// The tile of the current item, if the filter shows it.
    public var currentIndex: Int? { current.flatMap { id in shown.firstIndex { $0.id == id } } }

    /// The entry with the focus ring.
    public var focusedEntry: GridEntry? { focus.map { shown[$0] } }

    /// Whether the scroll moves on its own (coasting or springing back): keep drawing and call `step`.
    public var isAnimating: Bool { motion != nil }

    /// Whether a finger is dragging the content.
    public var isDragging: Bool { dragRaw != nil }

    /// Whether nothing came for `limit` seconds since the grid opened or since the last input.
    public func isIdle(at t: Double, limit: Double) -> Bool { t - (lastInput ?? openedAt) >= limit }

    /// Overshoot past an end is at most this many pixels.
    private var overshootCap: Double { GridScrollMotion.overshootFraction * Double(layout.viewportHeight) }

    /// The scroll at `t`, coasting and bouncing included.
    public func scroll(at t: Double) -> Double {
        guard dragRaw == nil, let m = motion else { return scroll }
        return m.sample(at: t, maxScroll: layout.maxScroll, cap: overshootCap).scroll
    }

    /// Advances coasting and bouncing to `t`; ends them once they come to rest.
    public mutating func step(at t: Double) {
        guard dragRaw == nil, let m = motion else { return }
        let s = m.sample(at: t, maxScroll: layout.maxScroll, cap: overshootCap)
        scroll = s.scroll
        if s.done { motion = nil }
    }

    /// The tiles at least partly in the tile area at `t`, plus `margin` rows above and below, top-left first:
    /// what to draw (clipped to `layout.tileArea`) and which thumbnails to load first.
    public func tiles(at t: Double, margin: Int) -> [(index: Int, entry: GridEntry, rect: PixelRect)] {
        let s = scroll(at: t)
        return layout.visibleRange(scroll: s, margin: margin).map { ($0, shown[$0], layout.tileRect($0, scroll: s)) }
    }

    /// The playlist or its facts changed: refilters, keeps the focus on the same item while it is shown (else
    /// on the same place, clamped) and the scroll within the new ends.
    public mutating func update(entries: [GridEntry], current: ItemID?) {
        let focused = focusedEntry?.id
        let place = focus ?? 0
        self.entries = entries
        self.current = current
        refilter()
        if let id = focused, let i = shown.firstIndex(where: { $0.id == id }) {
            focus = i
        } else {
            focus = shown.isEmpty ? nil : min(place, shown.count - 1)
        }
        if dragRaw == nil, motion == nil { scroll = layout.clamp(scroll) }
    }

    /// The canvas changed size: a new layout, scrolled to the same row and to show the focus.
    public mutating func resize(canvas: PixelSize) {
        let rows = scroll / Double(layout.rowHeight)
        layout = GridLayout(canvas: canvas, count: shown.count, columns: fixedColumns)
        motion = nil
        dragRaw = nil
        scroll = layout.scroll(rows: rows)
        if let f = focus { scroll = layout.scroll(toShow: f, from: scroll) }
    }

    /// Scrolls to `rows` rows down, within the ends (`--grid-scroll ROWS`).
    public mutating func setScroll(rows: Double) {
        motion = nil
        dragRaw = nil
        scroll = layout.scroll(rows: rows)
    }

    /// Acts on one input at `t`; returns what the player should do, if anything.
    public mutating func handle(_ input: GridInput, at t: Double) -> GridAction? {
        lastInput = t
        switch input {
        case let .tap(p):
            return tap(p, at: t)
        case let .drag(dy):
            guard dy.isFinite else { return nil }
            let cap = overshootCap
            let raw = dragRaw ?? GridScrollMotion.unbanded(scroll(at: t), maxScroll: layout.maxScroll, cap: cap)
            motion = nil
            dragRaw = raw - dy  // the finger moving up (dy < 0) pulls the content up: the scroll grows
            scroll = GridScrollMotion.banded(raw - dy, maxScroll: layout.maxScroll, cap: cap)
        case let .dragEnded(vy):
            let now = scroll(at: t)
            dragRaw = nil
            scroll = now
            motion = GridScrollMotion(release: now, velocity: -vy, at: t, maxScroll: layout.maxScroll, cap: overshootCap)
        case let .scroll(rows):
            guard rows.isFinite else { return nil }
            stop(at: t)
            scroll = layout.clamp(scroll + rows * Double(layout.rowHeight))
        case let .move(m):
            guard let f = focus else { return nil }
            let next = layout.focus(from: f, moving: m) ?? f
            focus = next
            stop(at: t)
            scroll = layout.scroll(toShow: next, from: scroll)
        case .activate:
            return focusedEntry.map { .open($0.id) }
        case .back:
            return .close
        case let .filter(f):
            pick(f)
        }
        return nil
    }

    /// A tap: stops a fast-moving grid (and does only that); else opens the tile or picks the chip under it.
    private mutating func tap(_ p: CanvasPoint, at t: Double) -> GridAction? {
        guard dragRaw == nil else { return nil }
        if let m = motion, m.isFast(at: t, maxScroll: layout.maxScroll, cap: overshootCap) {
            let now = scroll(at: t)
            scroll = now
            motion = GridScrollMotion(release: now, velocity: 0, at: t, maxScroll: layout.maxScroll, cap: overshootCap)
            return nil
        }
        if let f = layout.chip(at: p) {
            pick(f)
            return nil
        }
        guard let i = layout.tile(at: p, scroll: scroll(at: t)) else { return nil }
        focus = i
        return .open(shown[i].id)
    }

    /// Shows what chip `f` picks, the focus on the current item if shown (else the first), scrolled from the top.
    private mutating func pick(_ f: GridFilter) {
        filter = f
        refilter()
        motion = nil
        dragRaw = nil
        scroll = 0
        focusCurrentOrFirst()
    }

    /// Stops any motion where it is at `t`, within the ends.
    private mutating func stop(at t: Double) {
        let now = scroll(at: t)
        motion = nil
        dragRaw = nil
        scroll = layout.clamp(now)
    }

    /// `shown` from `entries` and `filter`, and the layout for its count.
    private mutating func refilter() {
        shown = entries.filter { $0.facts.matches(filter) }
        if shown.count != layout.count {
            layout = GridLayout(canvas: layout.canvas, count: shown.count, columns: fixedColumns)
        }
    }

    private mutating func focusCurrentOrFirst() {
        focus = currentIndex ?? (shown.isEmpty ? nil : 0)
        if let f = focus { scroll = layout.scroll(toShow: f, from: scroll) }
    }
}
