import Foundation

/// How the grid's scroll moves on its own: coasting after a fling (exponential decay of the release velocity) and
/// the clamped bounce at an end (a critically damped spring back to the edge), plus the rubber band a drag feels
/// past an end. Every position is a function of the player's time; nothing reads a clock.
public struct GridScrollMotion: Sendable, Equatable {
    /// Seconds for a fling's velocity to fall to 1/e (iOS's normal deceleration, 0.998 per ms).
    public static let inertiaTime = 0.325
    /// The spring's rate ω (1/s) back to an edge: critically damped, about 2 % of the overshoot is left after
    /// 0.3 s.
    public static let springRate = 20.0
    /// Past an end a drag moves the content this much per pixel the finger moves (at first).
    public static let rubberBand = 0.5
    /// The overshoot past an end never exceeds this fraction of the tile area's height.
    public static let overshootFraction = 0.15
    /// A release slower than this (px/s) does not coast.
    public static let minVelocity = 20.0
    /// The spring is done once closer than this (px) and slower than `restVelocity`.
    static let restDistance = 0.5
    /// See `restDistance` (px/s).
    static let restVelocity = 10.0
    /// The longest a spring runs before it snaps to its edge (s).
    static let maxSpringTime = 2.0

    /// Which end a spring pulls to.
    enum Edge: Sendable, Equatable { case top, bottom }

    private enum Phase: Sendable, Equatable {
        /// Coasting from `from` at `velocity` px/s.
        case coast(from: Double, velocity: Double)
        /// `offset` px past `edge` (outwards positive), moving outwards at `velocity` px/s.
        case spring(edge: Edge, offset: Double, velocity: Double)
    }

    private var phase: Phase
    private var start: Double

    /// The scroll released at `scroll`, moving at `velocity` px/s (scroll units) at `t`, between 0 and
    /// `maxScroll` with `cap` px of overshoot at most; nil when it stays where it is.
    init?(release scroll: Double, velocity: Double, at t: Double, maxScroll: Double, cap: Double) {
        let v = velocity.isFinite ? velocity : 0
        start = t
        if scroll < 0 || scroll > maxScroll {
            let edge: Edge = scroll < 0 ? .top : .bottom
            let offset = scroll < 0 ? -scroll : scroll - maxScroll
            let outwards = max(0, edge == .top ? -v : v)  // a fling back inwards just lets the spring pull
            phase = .spring(edge: edge, offset: offset, velocity: Self.capped(outwards, offset: offset, cap: cap))
        } else if abs(v) >= Self.minVelocity {
            phase = .coast(from: scroll, velocity: v)
        } else {
            return nil
        }
    }

    /// Where the scroll is at `t` and whether the motion is over by then (then it stays there).
    func sample(at t: Double, maxScroll: Double, cap: Double) -> (scroll: Double, done: Bool) {
        let dt = max(0, t - start)
        switch phase {
        case let .coast(from, v):
            let T = Self.inertiaTime
            let end = from + v * T
            let edge: Edge? = end < 0 ? .top : end > maxScroll ? .bottom : nil
            guard let edge else {
                let left = v * T * exp(-dt / T)
                return abs(left) < Self.restDistance ? (end, true) : (end - left, false)
            }
            // It reaches the edge where v T (1 - e^(-dt/T)) = edge - from; from there the spring takes over.
            let e = edge == .top ? 0 : maxScroll
            let reach = 1 - (e - from) / (v * T)  // e^(-dt/T) at the edge, in (0, 1]
            let hit = -T * log(max(reach, .leastNormalMagnitude))
            if dt < hit { return (from + v * T * (1 - exp(-dt / T)), false) }
            let outwards = abs(v) * reach
            return Self.spring(edge: edge, offset: 0, velocity: Self.capped(outwards, offset: 0, cap: cap),
                               after: dt - hit, maxScroll: maxScroll, cap: cap)
        case let .spring(edge, offset, velocity):
            return Self.spring(edge: edge, offset: offset, velocity: velocity, after: dt, maxScroll: maxScroll, cap: cap)
        }
    }

    /// Moving faster than `minVelocity` at `t` (a tap then only stops the grid).
    func isFast(at t: Double, maxScroll: Double, cap: Double) -> Bool {
        let a = sample(at: t, maxScroll: maxScroll, cap: cap), b = sample(at: t + 0.01, maxScroll: maxScroll, cap: cap)
        return !a.done && abs(b.scroll - a.scroll) / 0.01 > 5 * Self.minVelocity
    }

    /// The spring from `offset` px past `edge` at `velocity` px/s outwards, `tau` seconds on:
    /// x(τ) = (x₀ + (v₀ + ω x₀) τ) e^(−ωτ).
    private static func spring(edge: Edge, offset x0: Double, velocity v0: Double, after tau: Double,
                               maxScroll: Double, cap: Double) -> (scroll: Double, done: Bool) {
        let w = springRate
        let b = v0 + w * x0
        let decay = exp(-w * tau)
        let x = min((x0 + b * tau) * decay, cap)
        let v = (v0 - w * b * tau) * decay
        let e = edge == .top ? 0 : maxScroll
        let done = tau >= maxSpringTime || (abs(x) < restDistance && abs(v) < restVelocity)
        if done { return (e, true) }
        return (edge == .top ? e - x : e + x, false)
    }

    /// An outward velocity small enough that the spring's peak, v₀ / (ω e) past `offset`, stays within `cap`.
    private static func capped(_ v: Double, offset: Double, cap: Double) -> Double {
        min(v, max(0, cap - offset) * springRate * M_E)
    }

    /// Where a drag at `raw` (the scroll the finger alone would give) shows the content: itself within
    /// 0…maxScroll, past an end with the rubber band's resistance, never more than `cap` past.
    static func banded(_ raw: Double, maxScroll: Double, cap: Double) -> Double {
        guard cap > 0 else { return min(max(raw, 0), maxScroll) }
        let k = rubberBand / cap
        if raw < 0 { return -cap * (1 - exp(raw * k)) }
        if raw > maxScroll { return maxScroll + cap * (1 - exp(-(raw - maxScroll) * k)) }
        return raw
    }

    /// The raw drag position that `banded` shows at `scroll` (where a new drag picks the content up).
    static func unbanded(_ scroll: Double, maxScroll: Double, cap: Double) -> Double {
        guard cap > 0 else { return min(max(scroll, 0), maxScroll) }
        let k = rubberBand / cap
        let over = { (o: Double) in -log(1 - min(o, 0.99 * cap) / cap) / k }
        if scroll < 0 { return -over(-scroll) }
        if scroll > maxScroll { return maxScroll + over(scroll - maxScroll) }
        return scroll
    }
}
