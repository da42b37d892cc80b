import KioskCore
import KioskRender

/// The picture effect as the player holds it: which one is on, what the toggle turns back on, and for an
/// effect with a split (the mosaic) where the split is now. The effect is the player's, not an item's: a new
/// item keeps it, and keeps the user's split while the effect stays the same.
///
/// The split, on the player's clock `t`:
/// - a sweep (`split=A..B:period=S`) runs from the time its effect was set (`--effect`: the run's start, t 0);
/// - a user's split (a drag, a remote's `kiosk-split`) replaces the option's and stops the sweep, until the
///   effect is set to another spec; setting the same spec again (a config reload) or toggling the effect off
///   and on keeps it.
struct PictureEffect {
    /// The effect on now; nil when none.
    private(set) var spec: EffectSpec?
    /// What `toggle` turns back on: the last effect set.
    private var last: EffectSpec?
    private var parsed: (any ShaderEffect)?
    /// The split the user set, if any.
    private var userSplit: Double?
    /// When the sweep started, on the player's clock.
    private var sweepStart = 0.0

    /// The plain mosaic, what the toggle turns on when no effect was ever set.
    static let plain = EffectSpec(name: MosaicEffect.name)

    /// The command line's effect (an invalid one draws none: the command line is checked before anything plays).
    init(_ spec: EffectSpec?) {
        self.spec = spec
        last = spec
        parsed = spec.flatMap { try? PassRegistry.effect($0) }
    }

    /// Sets the effect at `t` (nil: none). A different spec drops the user's split and starts its sweep now; the
    /// same one changes nothing. Throws the registry's one-line error for a spec it does not take.
    mutating func set(_ new: EffectSpec?, at t: Double) throws(UsageError) {
        guard let new else {
            spec = nil
            return
        }
        let effect = try PassRegistry.effect(new)
        if new != last {
            userSplit = nil
            sweepStart = t
        }
        spec = new
        last = new
        parsed = effect
    }

    /// Turns the effect off, or back on (the last set; the plain mosaic when none was).
    mutating func toggle(at t: Double) {
        if spec != nil {
            spec = nil
        } else {
            try? set(last ?? Self.plain, at: t)
        }
    }

    /// The user moves the split to `x` (clamped to 0...1) at `t`; any sweep stops there.
    mutating func setSplit(_ x: Double, at t: Double) -> CommandReply {
        guard x.isFinite else { return .failed("the split must be a number 0...1") }
        guard spec != nil, parsed is any SplitEffect else {
            return .failed("the effect on screen (\(spec?.description ?? "none")) has no split")
        }
        userSplit = min(max(x, 0), 1)
        return .done()
    }

    /// The effect to draw at `t`, its split where it is now.
    func effect(at t: Double) -> any ShaderEffect {
        guard spec != nil, let parsed else { return NoEffect() }
        guard var e = parsed as? any SplitEffect else { return parsed }
        e.split = split(of: e, at: t)
        return e
    }

    /// The split at `t` (a fraction of the canvas width), nil when the effect on has none.
    func split(at t: Double) -> Double? {
        guard spec != nil, let e = parsed as? any SplitEffect else { return nil }
        return split(of: e, at: t)
    }

    /// The split bar at `t` when one is drawn (what a finger can grab), else nil.
    func bar(at t: Double) -> Double? {
        guard spec != nil, let e = parsed as? any SplitEffect, e.drawsBar else { return nil }
        return split(of: e, at: t)
    }

    private func split(of e: any SplitEffect, at t: Double) -> Double {
        if let userSplit { return userSplit }
        if let sweep = e.sweep { return sweep.split(after: t - sweepStart) }
        return e.split
    }
}
