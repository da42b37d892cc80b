/// A `priorityClass` of an `excl` (SMIL 3.0 Timing, "The excl element"): a group of the excl's children and how
/// they are interrupted. Classes are ranked by document order, the first highest. What happens when a child
/// begins while another plays is said by the class of the one playing:
/// - `peers`: a child of the same class begins (`stop` it, `pause` it, `defer` the newcomer until it ends, or
///   `never` let the newcomer begin);
/// - `higher`: a child of a higher class begins (`pause` or `stop` the one playing);
/// - `lower`: a child of a lower class begins (`defer` it, or `never`);
/// - `pauseDisplay`: what a paused child of this class shows while it waits (`show` or `disable`: its frame, held;
///   `hide`: nothing).
public struct SMILPriorityClass: Sendable, Hashable {
    /// How peers interrupt each other.
    public enum Peers: String, Sendable, Hashable, CaseIterable {
        case stop, pause, `defer`, never
    }
    /// What a higher class's child does to this class's child playing.
    public enum Higher: String, Sendable, Hashable, CaseIterable {
        case pause, stop
    }
    /// What becomes of a lower class's child that begins while this class's child plays.
    public enum Lower: String, Sendable, Hashable, CaseIterable {
        case `defer`, never
    }
    /// What a paused child shows.
    public enum PauseDisplay: String, Sendable, Hashable, CaseIterable {
        case disable, hide, show
    }

    /// Its `xml:id`, if any.
    public var id: String?
    public var peers: Peers
    public var higher: Higher
    public var lower: Lower
    public var pauseDisplay: PauseDisplay
    /// Where it was written.
    public var source: SourceLine

    /// A class with SMIL's defaults: peers stop each other, a higher class pauses, a lower one is deferred, and a
    /// paused child shows its frame.
    public init(id: String? = nil, peers: Peers = .stop, higher: Higher = .pause, lower: Lower = .defer,
                pauseDisplay: PauseDisplay = .show, source: SourceLine) {
        self.id = id; self.peers = peers; self.higher = higher; self.lower = lower; self.pauseDisplay = pauseDisplay
        self.source = source
    }

    /// What happens when a child of class `incoming` begins while one of class `playing` plays (ranks: 0 is the
    /// highest), by the rules of `classes[playing]`.
    public static func interruption(playing: Int, incoming: Int, classes: [SMILPriorityClass]) -> Interruption {
        guard classes.indices.contains(playing) else { return .stop }  // an excl without classes: one class of peers that stop
        let c = classes[playing]
        if incoming == playing {
            switch c.peers {
            case .stop: return .stop
            case .pause: return .pause
            case .defer: return .defer
            case .never: return .never
            }
        }
        if incoming < playing { return c.higher == .stop ? .stop : .pause }
        return c.lower == .never ? .never : .defer
    }

    /// What a beginning child does to the one playing.
    public enum Interruption: Sendable, Equatable {
        /// The one playing ends; the newcomer plays.
        case stop
        /// The one playing waits in the pause queue, with its remaining time; the newcomer plays.
        case pause
        /// The newcomer waits in the pause queue, not begun, until the one playing ends.
        case `defer`
        /// The newcomer does not begin.
        case never
    }
}
