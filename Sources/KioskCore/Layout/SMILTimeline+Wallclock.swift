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

    /// `body` with each `wallclock()` begin turned into begin offsets on its container's clock, and a line for each
    /// one that cannot be placed. A wallclock begin is placed where its container begins at a known time on the
    /// layout's clock: the body, the first child of a `seq`, a `par` or `excl` child with one offset begin, and so
    /// on down. In a container that repeats, only its first repeat is placed on the wall clock.
    static func placingWallclocks(_ body: SMILContainer, anchor: WallAnchor) -> (SMILContainer, [String]) {
        var lines: [String] = []
        let placed = place(body, docBegin: 0, repeats: false, anchor: anchor, lines: &lines)
        return (placed, lines)
    }

    private static func place(_ c: SMILContainer, docBegin: Double?, repeats: Bool, anchor: WallAnchor,
                              lines: inout [String]) -> SMILContainer {
        var c = c
        let repeating = repeats || c.timing.repeatCount != nil || c.timing.repeatDuration != nil
        for i in c.children.indices {
            var timing = c.children[i].timing
            if !timing.wallclockBegins.isEmpty {
                if c.kind == .seq {
                    lines.append("\(c.children[i].source): wallclock begins are read in <par> and <excl> children; this one does not begin by them")
                } else if let docBegin {
                    let from = anchor.start.addingTimeInterval(docBegin)
                    let until = anchor.start.addingTimeInterval(anchor.horizon)
                    let offsets = timing.wallclockBegins.flatMap { $0.instants(from: from, until: until, in: anchor.zone) }
                        .map { $0.timeIntervalSince(from) }
                    timing.begins = (timing.begins + offsets).sorted()
                    if repeating {
                        lines.append("\(c.children[i].source): wallclock begins inside a repeating container are placed in its first repeat")
                    }
                } else {
                    lines.append("\(c.children[i].source): its container has no fixed begin, so its wallclock begins are not placed")
                }
                timing.begin = timing.begins.first ?? .infinity  // a begin never placed never comes
                timing.hasBegin = !timing.begins.isEmpty
                c.children[i].timing = timing
            }
            guard case .container(let inner) = c.children[i] else { continue }
            // the child's own begin on the layout's clock, where it is fixed
            var begin: Double?
            if let docBegin, timing.begins.count <= 1, timing.wallclockBegins.isEmpty {
                switch c.kind {
                case .seq: begin = i == 0 ? docBegin + timing.begin : nil
                case .par: begin = docBegin + timing.begin
                case .excl: begin = timing.begins.count == 1 ? docBegin + timing.begin : nil
                }
            }
            c.children[i] = .container(place(inner, docBegin: begin, repeats: repeating, anchor: anchor, lines: &lines))
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
