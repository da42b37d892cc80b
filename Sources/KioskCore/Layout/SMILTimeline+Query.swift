/// What a worked-out timeline says at one time: which media show, where, how far in, and when that next changes.

/// A medium on screen at one time.
public struct SMILActive: Sendable, Equatable {
    /// The element.
    public var media: SMILMedia
    /// Its region's name (the document's first region when it names none; "" when the document has none).
    public var region: String
    /// When this showing began on the document clock (its current repeat's begin).
    public var begin: Double
    /// Seconds into the medium, within its current repeat.
    public var offset: Double
    /// Which repeat of the medium (from 0), counting its own repeats only.
    public var iteration: Int
    /// Whether it is past its end and held on its last frame.
    public var frozen: Bool
    /// Tells this showing from every other showing of the same medium: the repeat counts of the medium and
    /// of each container above it, folded into one number (the same every time it is asked).
    public var activation: Int
    /// How long this showing lasts from `begin` (its simple duration, cut at its active end); `.infinity` for
    /// one with no end (an indefinite still). A still's slow zoom and pan (`ken-burns`) run over it.
    public var length: Double = .infinity
}

extension SMILTimeline {
    /// Every medium showing at `t` seconds on the document clock, in document order.
    public func active(at t: Double) -> [SMILActive] {
        var out: [SMILActive] = []
        collect(root, at: t, parentTime: 0, path: Fold(), mode: .live, into: &out)
        return out
    }

    /// What each region shows at `t`: of the media showing there, the one playing over a frozen one, then the one
    /// that began later, then the later in document order. Regions showing nothing are left out.
    public func byRegion(at t: Double) -> [String: SMILActive] {
        var shown: [String: SMILActive] = [:]
        for a in active(at: t) {
            guard let other = shown[a.region] else { shown[a.region] = a; continue }
            if (a.frozen ? 0 : 1, a.begin, a.media.index) > (other.frozen ? 0 : 1, other.begin, other.media.index) { shown[a.region] = a }
        }
        return shown
    }

    /// The first instant after `t` at which anything begins, ends, repeats or stops being frozen; nil when
    /// nothing changes any more.
    public func nextChange(after t: Double) -> Double? {
        let n = next(root, after: t, offset: 0)
        return n.isFinite ? n : nil
    }

    // MARK: - Walking the tree

    /// How a subtree is visited: playing; frozen at its end (what showed at the end stays, held); or ended, with
    /// only `hold` children left showing.
    private enum Mode { case live, frozen, holdOnly }

    /// A deterministic fold of repeat counts (FNV-1a), for `activation`.
    private struct Fold {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        func adding(_ n: Int) -> Fold {
            var f = self
            for byte in withUnsafeBytes(of: Int64(n).littleEndian, Array.init) {
                f.value = (f.value ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            return f
        }
        var int: Int { Int(truncatingIfNeeded: value >> 1) }
    }

    /// Adds what `child` shows at `t` (the document time) to `out`. `parentTime` is when its container's clock
    /// (the current repeat of the container) began on the document clock.
    private func collect(_ child: Child, at t: Double, parentTime: Double, path: Fold, mode: Mode, into out: inout [SMILActive]) {
        let begin = parentTime + child.begin, end = parentTime + child.end, start = parentTime + child.start
        guard child.start.isFinite, t >= start, end > start else { return }
        let d = child.timed.durations
        if mode == .holdOnly && d.fill != .hold {
            return descendHolding(child, at: min(t, end - Self.instant), parentTime: parentTime, path: path, into: &out)
        }
        var at = t, state = mode == .holdOnly ? Mode.frozen : mode
        if t >= end {
            // past its active end: its state just before the end stays while its fill keeps it
            // a paused stretch is held (or hidden) until its child resumes, whatever its fill
            let keeps = child.paused ? t < parentTime + child.frozenUntil
                : d.fill == .hold || (d.fill == .freeze && t < parentTime + child.frozenUntil)
            guard keeps else { return descendHolding(child, at: end - Self.instant, parentTime: parentTime, path: path, into: &out) }
            at = end - Self.instant
            state = .frozen
        }
        var local = at - begin
        var iteration = 0
        if d.simple.isFinite {
            guard d.simple > 0 else { return }
            if d.repeats {
                iteration = Int(clamping: (local / d.simple).rounded(.down), to: 0...Int.max) ?? 0
                local -= Double(iteration) * d.simple
            } else if local >= d.simple {
                local = d.simple  // past the simple duration, within the active one: its end is held
                state = .frozen
            }
        }
        let here = path.adding(iteration)
        let repeatBegin = begin + (d.simple.isFinite ? Double(iteration) * d.simple : 0)
        switch child.timed {
        case .media(let m, _):
            let offset = min(local, d.content)
            out.append(SMILActive(media: m, region: region(of: m), begin: repeatBegin, offset: state == .frozen ? offset + Self.instant : offset,
                                  iteration: iteration, frozen: state == .frozen || local >= d.content,
                                  activation: here.adding(m.index).int, length: min(d.simple, parentTime + child.lastEnd - repeatBegin)))
        case .container(_, _, let kids):
            for k in kids { collect(k, at: at, parentTime: repeatBegin, path: here, mode: state, into: &out) }
        }
    }

    /// A container that has ended without being kept (or whose own container has): its `hold` children still
    /// show, frozen as they were at `at`.
    private func descendHolding(_ child: Child, at: Double, parentTime: Double, path: Fold, into out: inout [SMILActive]) {
        guard case .container(_, let d, let kids) = child.timed, d.simple > 0, at >= parentTime + child.start else { return }
        var local = at - (parentTime + child.begin), iteration = 0
        if d.simple.isFinite && d.repeats {
            iteration = Int(clamping: (local / d.simple).rounded(.down), to: 0...Int.max) ?? 0
            local -= Double(iteration) * d.simple
        }
        let repeatBegin = at - local
        for k in kids { collect(k, at: at, parentTime: repeatBegin, path: path.adding(iteration), mode: .holdOnly, into: &out) }
    }

    /// How far before an end its held state is read (the last instant of the element).
    static let instant = 1e-9

    /// The next change after `t` within `child`, its container's clock having begun at `offset`.
    private func next(_ child: Child, after t: Double, offset: Double) -> Double {
        guard child.start.isFinite else { return .infinity }
        let begin = offset + child.begin, end = offset + child.end
        if t < offset + child.start { return offset + child.start }
        var best = Double.infinity
        if end > t { best = end }
        let frozenEnd = offset + child.frozenUntil
        if frozenEnd > t, frozenEnd.isFinite, child.paused || child.timed.durations.fill == .freeze { best = min(best, frozenEnd) }
        guard t < end else { return best }
        let d = child.timed.durations
        var repeatBegin = begin
        if d.simple.isFinite && d.simple > 0 && d.repeats {
            let iteration = ((t - begin) / d.simple).rounded(.down)
            repeatBegin = begin + iteration * d.simple
            let following = repeatBegin + d.simple
            if following > t && following < end { best = min(best, following) }
        }
        if case .media(_, let durations) = child.timed {
            let contentEnd = repeatBegin + durations.content
            if contentEnd > t && contentEnd < best { best = contentEnd }
        }
        if case .container(_, _, let kids) = child.timed {
            for k in kids { best = min(best, next(k, after: t, offset: repeatBegin)) }
        }
        return best
    }

    /// The region a medium plays in.
    private func region(of m: SMILMedia) -> String { m.region ?? document.regions.first?.name ?? "" }
}

extension SMILTimeline.Timed {
    var isContainer: Bool {
        if case .container = self { return true }
        return false
    }
}
