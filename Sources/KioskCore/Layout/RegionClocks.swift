/// Each region of a playing layout on a clock of its own: the layout's time plus the region's offset (a region
/// skipped on by `playlist-next` runs ahead; one sent back runs behind), wrapped into the body when the layout
/// loops. Pure arithmetic over a worked-out timeline: with no offsets every answer is the timeline's own.
public struct RegionClocks: Sendable {
    /// The timeline (worked out again, the offsets kept, when its wall-clock begins are placed anew).
    public var timeline: SMILTimeline
    /// Whether the layout starts again at the end of its body (region times wrap into it).
    public var loops: Bool
    /// Seconds each region is ahead of the layout (absent: 0).
    public private(set) var offsets: [String: Double] = [:]

    /// Clocks over `timeline`, every region on the layout's own time.
    public init(timeline: SMILTimeline, loops: Bool) {
        self.timeline = timeline
        self.loops = loops
    }

    /// Every region back on the layout's time (the layout starts again), but those in `late`, which keep their
    /// own (regions that began after the layout, as new content swapping in region by region: sent back into
    /// step they would cut what they show).
    public mutating func reset(keeping late: Set<String> = []) { offsets = offsets.filter { late.contains($0.key) } }

    /// Region `name` begins at layout time `t`: its own time is 0 there (what it showed before is not looked at).
    public mutating func begin(_ name: String, at t: Double) { offsets[name] = -t }

    /// Region `name`'s time at layout time `t`.
    public func time(of name: String, at t: Double) -> Double { wrapped(t + (offsets[name] ?? 0)) }

    /// What each region shows at layout time `t`, each at its own time.
    public func showings(at t: Double) -> [String: RegionShowing] {
        each(at: t) { timeline.showings(at: $0) }
    }

    /// The medium each region shows at layout time `t`, each at its own time.
    public func byRegion(at t: Double) -> [String: SMILActive] {
        each(at: t) { timeline.byRegion(at: $0) }
    }

    /// What each region shows next after `t`: the `src` of the first other showing the timeline brings there (up to
    /// `steps` changes ahead, within a day); a region whose next depends on an event is left out.
    public func upcoming(after t: Double, steps: Int = 64) -> [String: String] {
        let now = byRegion(at: t)
        var found: [String: String] = [:]
        var at = t
        for _ in 0..<steps {
            guard let n = nextChange(after: at), n - t < 86_400 else { break }
            at = n
            for (region, a) in byRegion(at: n) where found[region] == nil && now[region]?.activation != a.activation {
                found[region] = a.media.src
            }
        }
        return found
    }

    /// The layout time after `t` of the next change in any region, if one comes: with every region on the
    /// layout's clock the timeline's own; else, per clock, the next change of a region on it (at most 64 of the
    /// timeline's changes looked at per clock).
    public func nextChange(after t: Double) -> Double? {
        guard offsets.values.contains(where: { $0 != 0 }) else { return timeline.nextChange(after: t) }
        let names = timeline.document.regions.isEmpty ? [""] : timeline.document.regions.map(\.name)
        var best: Double?
        for (o, group) in Dictionary(grouping: names, by: { offsets[$0] ?? 0 }) {
            let local = wrapped(t + o)
            let before = timeline.byRegion(at: local)
            var c = local
            for _ in 0..<64 {
                guard let n = timeline.nextChange(after: c), n.isFinite, n > c else { break }
                c = n
                let after = timeline.byRegion(at: c)
                if group.contains(where: { before[$0]?.activation != after[$0]?.activation || before[$0]?.frozen != after[$0]?.frozen }) {
                    break
                }
            }
            // the group's change, or past the cap (or the timeline's end) the last change looked at: an early look
            // costs a turn, a late one would miss a change
            if c > local { best = min(best ?? .infinity, t + (c - local)) }
        }
        return best
    }

    /// Moves region `name` a step at layout time `t`; the one-line reason when it cannot.
    public mutating func step(_ name: String, _ step: RegionStep, at t: Double) throws(RegionStepError) {
        let now = time(of: name, at: t)
        let shown = timeline.byRegion(at: now)[name]
        switch step {
        case .next:
            var c = now
            for _ in 0..<10_000 {
                guard let n = timeline.nextChange(after: c), n.isFinite, n > c else { break }
                c = n
                if timeline.byRegion(at: c)[name]?.activation != shown?.activation {
                    offsets[name, default: 0] += c - now
                    return
                }
            }
            throw RegionStepError("region \(name) has nothing after \(shown?.media.src ?? "its background")")
        case .previous:
            guard let shown, shown.begin > 0, let before = timeline.byRegion(at: shown.begin - SMILTimeline.instant)[name] else {
                throw RegionStepError("region \(name) has nothing before \(shown?.media.src ?? "its background")")
            }
            offsets[name, default: 0] -= now - before.begin
        }
    }

    private func each<Value>(at t: Double, _ query: (Double) -> [String: Value]) -> [String: Value] {
        var out = query(wrapped(t))
        for (name, o) in offsets where o != 0 { out[name] = query(wrapped(t + o))[name] }
        return out
    }

    private func wrapped(_ t: Double) -> Double {
        let d = timeline.duration
        guard loops, d.isFinite, d > 0 else { return t }
        let r = t.truncatingRemainder(dividingBy: d)
        return r < 0 ? r + d : r
    }
}

/// Why a region could not step.
public struct RegionStepError: Error, CustomStringConvertible, Sendable {
    /// One line.
    public var description: String
    init(_ description: String) { self.description = description }
}
