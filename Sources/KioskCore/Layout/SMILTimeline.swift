import Foundation

/// A SMIL body's timing worked out once: each element's simple and active duration and, inside each time
/// container, when each child begins and ends on the container's own clock. `SMILTimeline+Query` answers what
/// is on screen at a time from it with arithmetic (a repeat is a division, not a replay), so a layout that loops
/// forever is asked about hour ten as fast as about second one.
///
/// The rules (SMIL 3.0 Timing, the signage subset):
/// - a medium's simple duration is its `dur`, else its implicit one: a still's `--duration`, a clip's length; an
///   unplayable medium has none (0), so a `seq` moves past it and its region shows its background;
/// - a container's implicit duration: `seq`, the last child's end; `par` and `excl`, by `endsync` (`last` and `all`
///   the latest end, `first` the earliest, an id that child's end);
/// - the active duration: the simple one, repeated `repeatCount` times (a fraction plays part of the last time)
///   and cut at `repeatDur`; with only `end` given, the element lasts until its end (a medium that is done sooner
///   holds its last frame); `end` (offsets from the parent's begin; wallclock, syncbase and event values placed on
///   that clock) cuts it in any case, at its first time not before the begin; an event that has not happened yet
///   cuts nothing;
/// - children of a `seq` begin at the previous one's active end plus their `begin`; of a `par`, at each time of
///   their `begin` list (a begin while it plays begins it again);
///   of an `excl`, at their `begin` if they have one (SMIL's default there is `indefinite`), and a child that begins
///   stops the one playing;
/// - `fill`: `auto` is `freeze` when none of `dur`, `end`, `repeatCount`, `repeatDur` is given, else `remove`;
///   a frozen element shows its last state until its parent's simple duration ends (in an `excl`, until the next
///   child begins); `hold` until the grandparent's ends. A frozen container holds what showed in it at its last
///   instant (a `seq` of stills with `dur` keeps its last still).
public struct SMILTimeline: Sendable {
    /// What the timeline needs to know of a medium's own length.
    public enum MediaLength: Sendable, Equatable {
        /// A still (an image, an animation played as a still): `--duration` unless `dur` says otherwise.
        case still
        /// A clip or a sound, in seconds.
        case timed(Double)
        /// Missing, unreadable or refused: skipped.
        case unplayable
    }

    /// One element with its durations worked out.
    indirect enum Timed: Sendable {
        case media(SMILMedia, Durations)
        case container(SMILContainer, Durations, children: [Child])
    }

    /// An element's simple and active duration (`.infinity` for indefinite), its fill, and for a medium how long its
    /// own content lasts (past it, within its simple duration, it holds its last frame).
    struct Durations: Sendable {
        var simple: Double
        var active: Double
        var fill: SMILFill
        var content: Double
        /// Whether `repeatCount` or `repeatDur` repeats the simple duration; without them an active duration longer
        /// than the simple one holds the end of the simple duration.
        var repeats = false
    }

    /// A child on its container's clock: when it begins and ends, and until when it stays frozen after. A child of
    /// an `excl` that is paused and resumed is one `Child` per stretch it plays (`SMILExclSchedule`): each has the
    /// begin its clock counts from (the stretch's start less the time it had played), where the stretch starts, and
    /// whether it ends paused (then it is held, shown or hidden by its class, until `frozenUntil`, whatever its fill).
    struct Child: Sendable {
        var timed: Timed
        var begin: Double
        var end: Double
        var frozenUntil: Double
        /// Where the stretch starts, when later than `begin` (a resumed child).
        var from: Double? = nil
        /// Whether the stretch ends because the child was paused.
        var paused = false
        /// Its active end on its own clock (from `begin`), when a later stretch goes on past this one's `end`.
        var localEnd: Double? = nil

        /// When it shows from, on its container's clock.
        var start: Double { from ?? begin }
        /// The active end on the same clock as `begin`: its showings' lengths are cut there.
        var lastEnd: Double { begin + (localEnd ?? (end - begin)) }
    }

    /// The document.
    public let document: SMILDocument
    /// The body, timed as a `seq`, and its place on the document clock (it begins at 0).
    let root: Child

    /// Where the layout's clock stands on the wall clock (its `wallclock()` begins are placed by it).
    public let anchor: WallAnchor
    /// A line for each wallclock, syncbase or event begin that could not be placed (FILE:LINE and why).
    public let wallclockProblems: [String]

    /// The run-time triggers (taps, keys, notifies) the timeline was worked out with.
    public let fired: [SMILFiredEvent]

    /// Works out `document`'s timing, stills lasting `stillDuration` seconds, clips as long as `length` says, its
    /// wallclock begins placed by `anchor` (nil: the body begins now, in the system's time zone) and its event
    /// begins by the triggers `fired` so far. Syncbase values are placed by the times the elements they name
    /// begin and end, worked out again until they settle (at most 8 times: a loop of syncbases stops there).
    public init(document: SMILDocument, stillDuration: Double, anchor: WallAnchor? = nil, fired: [SMILFiredEvent] = [],
                length: (SMILMedia) -> MediaLength) {
        self.document = document
        let anchor = anchor ?? WallAnchor(start: Date(), zone: .current)
        self.anchor = anchor
        self.fired = fired
        var instants = Instants(), root: Child, problems: [String], passes = 0
        let syncbased = document.usesSyncbase
        repeat {
            let placed: SMILContainer
            (placed, problems) = Self.placingBegins(document.body, anchor: anchor, instants: instants, fired: fired)
            let body = Self.timed(.container(placed), still: stillDuration, length: length)
            root = Child(timed: body, begin: 0, end: body.durations.active, frozenUntil: body.durations.active)
            guard syncbased else { break }
            let found = Self.instants(of: root)
            passes += 1
            if found == instants { break }
            instants = found
        } while passes < 8
        self.root = root
        wallclockProblems = problems
    }

    /// The whole presentation's length in seconds (`.infinity` for one that loops forever).
    public var duration: Double { root.end }

    // MARK: - Working out durations

    private static func timed(_ node: SMILNode, still: Double, length: (SMILMedia) -> MediaLength) -> Timed {
        switch node {
        case .media(let m):
            let content: Double
            switch length(m) {
            case .still: content = .infinity  // a still has no end of its own: its dur or --duration sets it
            case .timed(let l): content = max(0, l)
            case .unplayable: return .media(m, Durations(simple: 0, active: 0, fill: .remove, content: 0))
            }
            let implicit = content.isFinite ? content : still
            return .media(m, durations(m.timing, implicit: implicit, content: content))
        case .container(let c):
            let kids = c.children.map { timed($0, still: still, length: length) }
            let placed = place(kids, in: c)
            return .container(c, durations(c.timing, implicit: implicitEnd(placed, of: c), content: .infinity), children: placed)
        }
    }

    /// The simple and active duration from the timing attributes over an implicit simple duration.
    private static func durations(_ t: SMILTiming, implicit: Double, content: Double) -> Durations {
        let simple: Double
        switch t.duration {
        case .seconds(let s)?: simple = max(0, s)
        case .indefinite?: simple = .infinity
        case .media?, nil: simple = implicit
        }
        var active: Double
        let count: Double? = t.repeatCount.map { if case .count(let n) = $0 { return max(0, n) } else { return .infinity } }
        let repeatFor: Double? = t.repeatDuration.map { if case .seconds(let s) = $0 { return max(0, s) } else { return .infinity } }
        switch (count, repeatFor) {
        case let (n?, r?): active = min(simple == 0 ? 0 : n * simple, r)
        case let (n?, nil): active = simple == 0 ? 0 : n * simple
        case let (nil, r?): active = r
        case (nil, nil): active = t.hasEnd && t.duration == nil ? .infinity : simple
        }
        if active.isNaN { active = 0 }
        let freezes = t.duration == nil && !t.hasEnd && t.repeatCount == nil && t.repeatDuration == nil
        let fill: SMILFill = t.fill == .auto ? (freezes ? .freeze : .remove) : t.fill
        return Durations(simple: simple, active: active, fill: fill, content: content,
                         repeats: t.repeatCount != nil || t.repeatDuration != nil)
    }

    /// Each child's begin and end on its container's clock.
    private static func place(_ kids: [Timed], in c: SMILContainer) -> [Child] {
        func end(_ k: Timed, begin: Double) -> Double {
            let t = k.timing
            var e = begin + k.durations.active
            if let cut = t.endCut(after: begin) { e = min(e, cut) }
            return e
        }
        var out: [Child] = []
        switch c.kind {
        case .seq:
            var previous = 0.0
            for k in kids {
                let b = previous + k.timing.begin
                let e = end(k, begin: b)
                out.append(Child(timed: k, begin: b, end: e, frozenUntil: .infinity))
                previous = e
            }
        case .par:
            for k in kids {
                if k.timing.begins.count > 1 {
                    // each begin of its list begins it again (a daily wallclock window, a trigger fired twice): one
                    // child playing alone, as in an excl of its own
                    out += exclPieces([k], in: SMILContainer(kind: .excl, source: c.source))
                    continue
                }
                let b = k.timing.begin
                out.append(Child(timed: k, begin: b, end: end(k, begin: b), frozenUntil: .infinity))
            }
        case .excl:
            out = exclPieces(kids, in: c)
        }
        return out
    }

    /// A container's implicit simple duration from its placed children.
    private static func implicitEnd(_ kids: [Child], of c: SMILContainer) -> Double {
        let ends = kids.filter { $0.start.isFinite }.map(\.end)
        guard !ends.isEmpty else { return 0 }
        if c.kind == .seq { return ends.last ?? 0 }
        switch c.endSync {
        case .last, .all: return ends.max() ?? 0
        case .first: return ends.min() ?? 0
        case .id(let id):
            return kids.filter { $0.timed.id == id && $0.start.isFinite }.map(\.end).max() ?? (ends.max() ?? 0)
        }
    }
}

extension SMILTimeline.Timed {
    var durations: SMILTimeline.Durations {
        switch self {
        case .media(_, let d), .container(_, let d, _): return d
        }
    }

    var timing: SMILTiming {
        switch self {
        case .media(let m, _): return m.timing
        case .container(let c, _, _): return c.timing
        }
    }

    var id: String? {
        switch self {
        case .media(let m, _): return m.id
        case .container(let c, _, _): return c.id
        }
    }
}
