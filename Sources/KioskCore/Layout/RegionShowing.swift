/// What one region of a layout shows at one time: the medium coming in (or simply showing), and while a
/// transition runs, the one going out. The transition is the incoming medium's `transIn`, else the outgoing one's
/// `transOut` (run as the next medium comes in, over the same time, as signage players run an item's out
/// transition). The layout player turns it into the region's `Scene`.
public struct RegionShowing: Sendable, Equatable {
    /// One medium on screen in the region.
    public struct Entry: Sendable, Equatable {
        /// The element.
        public var media: SMILMedia
        /// Tells this showing from the medium's other ones (each repeat and each new begin is a new showing, and a
        /// clip starts over in it); the same number for as long as this one lasts.
        public var activation: Int
        /// Seconds into the medium (within its current repeat).
        public var offset: Double
        /// Whether it is past its active end, held on its last frame (`fill="freeze"`).
        public var frozen: Bool
        /// How long this showing lasts (`.infinity`: no end).
        public var length: Double

        /// Creates an entry.
        public init(media: SMILMedia, activation: Int, offset: Double, frozen: Bool = false, length: Double = .infinity) {
            self.media = media; self.activation = activation; self.offset = offset; self.frozen = frozen; self.length = length
        }
    }

    /// The medium showing; nil: only the region's background.
    public var current: Entry?
    /// The medium going out while the transition runs.
    public var outgoing: Entry?
    /// 0 → 1 over the transition; 1 when none runs.
    public var progress: Double
    /// The transition running (`current`'s `transIn`, else the outgoing medium's `transOut`), if any.
    public var transition: SMILTransition?

    /// Creates a showing.
    public init(current: Entry?, outgoing: Entry? = nil, progress: Double = 1, transition: SMILTransition? = nil) {
        self.current = current; self.outgoing = outgoing; self.progress = progress; self.transition = transition
    }

    /// Nothing but the background.
    public static let empty = RegionShowing(current: nil)
}

extension SMILTimeline {
    /// What every region shows at `t`, with the medium going out while a transition runs (the one that showed in
    /// the region just before the current one began, held on its last frame).
    public func showings(at t: Double) -> [String: RegionShowing] {
        var out: [String: RegionShowing] = [:]
        for (region, a) in byRegion(at: t) {
            var showing = RegionShowing(current: .init(media: a.media, activation: a.activation, offset: a.offset, frozen: a.frozen,
                                                       length: a.length))
            if !a.frozen, a.begin > 0, let before = byRegion(at: a.begin - Self.instant)[region], before.activation != a.activation,
               let transition = (a.media.transIn ?? before.media.transOut).flatMap({ document.transitions[$0] }),
               transition.duration > 0, a.offset < transition.duration {
                showing.outgoing = .init(media: before.media, activation: before.activation, offset: before.offset, frozen: true,
                                         length: before.length)
                showing.progress = a.offset / transition.duration
                showing.transition = transition
            }
            out[region] = showing
        }
        return out
    }
}
