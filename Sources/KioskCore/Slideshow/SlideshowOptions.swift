/// The slideshow's settings.
public struct SlideshowOptions: Sendable, Equatable {
    /// Seconds a still stays (and the least an animation stays); default 5.
    public var duration: Double = 5
    /// Start again after the last item (default) or finish.
    public var loop: Bool = true
    /// A new random order each pass, never repeating the item just shown.
    public var shuffle: Bool = false
    /// The transition between items.
    public var transition: TransitionSpec = .crossfade
    /// Seconds the transition takes (it overlaps the start of the new item's slot).
    public var transitionTime: Double = 1
    /// Seed for the shuffle order.
    public var seed: UInt64 = 1

    /// Default settings.
    public init() {}
}
