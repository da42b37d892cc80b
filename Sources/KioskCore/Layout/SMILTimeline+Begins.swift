import Foundation

extension SMILTimeline {
    /// Where a layout's clock stands on the wall clock: the instant its body begins, the time zone its local
    /// `wallclock()` values are read in (`--timezone`), and how far ahead repeating ones are listed (the player
    /// works the timeline out again before it gets there).
    public struct WallAnchor: Sendable, Equatable {
        /// The instant the body begins.
        public var start: Date
        /// The zone of local wall-clock values.
        public var zone: TimeZone
        /// Seconds after `start` up to which repeats are listed.
        public var horizon: Double

        /// An anchor; repeats listed two days ahead by default.
        public init(start: Date, zone: TimeZone, horizon: Double = 2 * 86_400) {
            self.start = start; self.zone = zone; self.horizon = horizon
        }
    }

    /// When elements begin and end on the layout's clock (by id; the first repeat of a container that repeats):
    /// what syncbase and event values (`intro.end+2s`, `promo.beginEvent`) are placed by.
    struct Instants: Equatable {
        var begins: [String: [Double]] = [:]
        var ends: [String: [Double]] = [:]
    }

    /// `body` with each `wallclock()`, syncbase and event begin and end turned into offsets on its container's
    /// clock, and a line for each one that cannot be placed. Such a begin is placed where its container begins at a known
    /// time on the layout's clock: the body, the first child of a `seq`, a `par` or `excl` child with one offset
    /// begin, and so on down. In a container that repeats, only its first repeat is placed.
    static func placingBegins(_ body: SMILContainer, anchor: WallAnchor, instants: Instants,
                              fired: [SMILFiredEvent]) -> (SMILContainer, [String]) {
        var lines: [String] = []
        let placed = place(body, docBegin: 0, repeats: false, at: Placing(anchor: anchor, instants: instants, fired: fired), lines: &lines)
        return (placed, lines)
    }

    /// What placing begins reads.
    private struct Placing {
        let anchor: WallAnchor
        let instants: Instants
        let fired: [SMILFiredEvent]

        /// The layout-clock times of wallclock values and syncbase and event values, from `docBegin` on for
        /// the wallclock ones.
        func times(_ wallclocks: [SMILWallclock], _ events: [SMILEventBegin], docBegin: Double) -> [Double] {
            let from = anchor.start.addingTimeInterval(docBegin)
            let until = anchor.start.addingTimeInterval(anchor.horizon)
            var out = wallclocks.flatMap { $0.instants(from: from, until: until, in: anchor.zone) }
                .map { $0.timeIntervalSince(anchor.start) }
            for e in events {
                let base: [Double]
                switch e.trigger {
                case .begin(let id): base = instants.begins[id] ?? []
                case .end(let id): base = instants.ends[id] ?? []
                case .activate(let id): base = fired.filter { $0.trigger == .activate(id) }.map(\.time)
                case .accessKey(let c): base = fired.filter { $0.trigger == .accessKey(c) }.map(\.time)
                case .notify(let n): base = fired.filter { $0.trigger == .notify(n) }.map(\.time)
                case .keySequence(let keys): base = SMILTimeline.typed(keys, in: fired)
                }
                out += base.map { $0 + e.offset }
            }
            return out
        }
    }

    /// When the keys `keys` were typed one after the other among the keys `fired` (the time of the last of each run).
    static func typed(_ keys: String, in fired: [SMILFiredEvent]) -> [Double] {
        let pressed = fired.compactMap { e -> (key: Character, time: Double)? in
            if case .accessKey(let c) = e.trigger { return (c, e.time) }
            return nil
        }.sorted { $0.time < $1.time }
        let want = Array(keys)
        guard !want.isEmpty, pressed.count >= want.count else { return [] }
        return (want.count - 1..<pressed.count).compactMap { last in
            let run = pressed[(last - want.count + 1)...last].map(\.key)
            return run == want ? pressed[last].time : nil
        }
    }

    /// Where each element with an id begins and ends in `root` (within each stretch its container plays).
    static func instants(of root: Child) -> Instants {
        var out = Instants()
        func walk(_ child: Child, parent: Double, window: ClosedRange<Double>) {
            guard child.start.isFinite else { return }
            let start = parent + child.start, end = parent + child.end
            if let id = child.timed.id {
                if child.from == nil, window.contains(start) { out.begins[id, default: []].append(start) }
                if !child.paused, end.isFinite, window.contains(end) { out.ends[id, default: []].append(end) }
            }
            guard case .container(_, _, let kids) = child.timed, start <= end else { return }
            let inner = max(start, window.lowerBound)...max(max(start, window.lowerBound), min(end, window.upperBound))
            for k in kids { walk(k, parent: parent + child.begin, window: inner) }
        }
        walk(root, parent: 0, window: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
        for k in out.begins.keys { out.begins[k]?.sort() }
        for k in out.ends.keys { out.ends[k]?.sort() }
        return out
    }

    private static func place(_ c: SMILContainer, docBegin: Double?, repeats: Bool, at placing: Placing,
                              lines: inout [String]) -> SMILContainer {
        var c = c
        let repeating = repeats || c.timing.repeatCount != nil || c.timing.repeatDuration != nil
        for i in c.children.indices {
            var timing = c.children[i].timing
            let source = c.children[i].source
            /// `offsets` with the wallclock, syncbase and event values placed on the container's clock, or a line
            /// saying why they cannot be (`what`: begins or ends).
            func placed(_ offsets: [Double], _ wallclocks: [SMILWallclock], _ events: [SMILEventBegin], _ what: String) -> [Double] {
                guard let docBegin else {
                    lines.append("\(source): its container has no fixed begin, so its wallclock, syncbase and event \(what) are not placed")
                    return offsets
                }
                if repeating {
                    lines.append("\(source): wallclock, syncbase and event \(what) inside a repeating container are placed in its first repeat")
                }
                return (offsets + placing.times(wallclocks, events, docBegin: docBegin).map { $0 - docBegin }).sorted()
            }
            if !timing.wallclockBegins.isEmpty || !timing.eventBegins.isEmpty {
                if c.kind == .seq {
                    lines.append("\(source): wallclock, syncbase and event begins are read in <par> and <excl> children; this one does not begin by them")
                } else {
                    timing.begins = placed(timing.begins, timing.wallclockBegins, timing.eventBegins, "begins")
                }
                timing.begin = timing.begins.first ?? .infinity  // a begin never placed never comes
                timing.hasBegin = !timing.begins.isEmpty
            }
            if !timing.wallclockEnds.isEmpty || !timing.eventEnds.isEmpty {
                // ends are on the container's clock in a seq too: they need only the container's begin
                timing.ends = placed(timing.ends, timing.wallclockEnds, timing.eventEnds, "ends")
            }
            c.children[i].timing = timing
            guard case .container(let inner) = c.children[i] else { continue }
            // the child's own begin on the layout's clock, where it is fixed
            var begin: Double?
            if let docBegin, timing.begins.count <= 1, timing.wallclockBegins.isEmpty, timing.eventBegins.isEmpty {
                switch c.kind {
                case .seq: begin = i == 0 ? docBegin + timing.begin : nil
                case .par: begin = docBegin + timing.begin
                case .excl: begin = timing.begins.count == 1 ? docBegin + timing.begin : nil
                }
            }
            c.children[i] = .container(place(inner, docBegin: begin, repeats: repeating, at: placing, lines: &lines))
        }
        return c
    }
}

extension SMILNode {
    /// The element's timing, settable.
    var timing: SMILTiming {
        get {
            switch self {
            case .media(let m): return m.timing
            case .container(let c): return c.timing
            }
        }
        set {
            switch self {
            case .media(var m):
                m.timing = newValue
                self = .media(m)
            case .container(var c):
                c.timing = newValue
                self = .container(c)
            }
        }
    }

    /// Where it was written.
    var source: SourceLine {
        switch self {
        case .media(let m): return m.source
        case .container(let c): return c.source
        }
    }
}
