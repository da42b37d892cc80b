/// Ken Burns: a slow zoom and pan across a still, on a path that is random but repeats exactly for a seed.
public struct KenBurns: Sendable, Equatable {
    /// Seed for the paths; each slot gets its own path from it.
    public var seed: UInt64
    /// The largest zoom a path reaches (the smallest is 1).
    public var maxZoom: Double

    /// Creates a Ken Burns motion.
    public init(seed: UInt64 = 1, maxZoom: Double = 1.3) {
        self.seed = seed
        self.maxZoom = min(max(maxZoom, 1), FlatView.maxZoom)
    }

    /// The two ends of slot `sequence`'s path: one end zoomed out, the other zoomed in near a random point.
    public func path(forSlot sequence: Int) -> (from: FlatView, to: FlatView) {
        var g = SeededGenerator(seed: seed &+ UInt64(truncatingIfNeeded: sequence) &* 0x2545_F491_4F6C_DD1D)
        let zIn = 1 + (maxZoom - 1) * (0.6 + 0.4 * g.unit())
        let zOut = 1 + (maxZoom - 1) * 0.15 * g.unit()
        let a = UnitPoint(x: 0.3 + 0.4 * g.unit(), y: 0.3 + 0.4 * g.unit())
        let b = UnitPoint(x: 0.3 + 0.4 * g.unit(), y: 0.3 + 0.4 * g.unit())
        let zoomingIn = g.next() & 1 == 0
        let near = FlatView(fit: .contain, zoom: zIn, center: zoomingIn ? b : a)
        let far = FlatView(fit: .contain, zoom: zOut, center: zoomingIn ? a : b)
        return zoomingIn ? (far, near) : (near, far)
    }

    /// The view `progress` (0...1) along slot `sequence`'s path, eased at both ends, on top of `base`'s fit.
    public func view(forSlot sequence: Int, progress: Double, base: FlatView) -> FlatView {
        let p = min(max(progress, 0), 1)
        let e = p * p * (3 - 2 * p)
        let (a, b) = path(forSlot: sequence)
        return FlatView(fit: base.fit,
                        zoom: a.zoom + (b.zoom - a.zoom) * e,
                        center: UnitPoint(x: a.center.x + (b.center.x - a.center.x) * e,
                                          y: a.center.y + (b.center.y - a.center.y) * e))
    }
}
