import KioskCore

/// An effect with a vertical split the user can move (the mosaic): the player owns where the split is (a drag,
/// a remote's `kiosk-split`, a sweep), and draws the effect with it.
public protocol SplitEffect: ShaderEffect {
    /// Where the split is drawn, a fraction of the canvas width 0...1 (for a sweep: where it starts).
    var split: Double { get set }
    /// The sweep its options ask for (`split=A..B:period=S`), if any.
    var sweep: SplitSweep? { get }
    /// Whether a bar is drawn at the split (only then can a finger grab it).
    var drawsBar: Bool { get }
}
