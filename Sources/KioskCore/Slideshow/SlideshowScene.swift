/// What the slideshow scheduler decides for the player: an item's readiness as the player reports it, the slot
/// an item fills, and the scene (the slots on screen) at one time.

/// What the player can say about an item's decoded picture when the slideshow wants to show it.
public enum Availability: Sendable, Equatable {
    /// Decoded and ready now, with its timing.
    case ready(MediaTiming)
    /// Still being decoded: the slideshow holds the current item a little longer.
    case pending
    /// Cannot be shown: the slideshow skips it.
    case failed
}

/// One visit of one item: which item, which visit, and how long it stays.
public struct Slot: Sendable, Equatable {
    /// The item's stable id.
    public var id: ItemID
    /// The item's file (kept, so a removed item can still be named).
    public var path: String
    /// Counts visits from 0, so the same item shown twice is two slots.
    public var sequence: Int
    /// Its timing, known when the slot started.
    public var timing: MediaTiming
    /// Seconds it stays (from `MediaTiming.slotLength`).
    public var length: Double
    /// The configured duration that applied (for animation frame choice).
    public var duration: Double

    /// Creates a slot (the slideshow makes them; a layout's regions make their own).
    public init(id: ItemID, path: String, sequence: Int, timing: MediaTiming, length: Double, duration: Double) {
        self.id = id; self.path = path; self.sequence = sequence; self.timing = timing; self.length = length
        self.duration = duration
    }
}

/// What is on screen at one moment.
public struct Scene: Sendable, Equatable {
    /// The item coming in (or simply showing).
    public var current: Slot
    /// Seconds `current` has been on screen, pauses excluded.
    public var currentTime: Double
    /// The item going out during a transition.
    public var outgoing: Slot?
    /// Seconds into `outgoing`'s own time.
    public var outgoingTime: Double
    /// 0 → 1 over the transition; 1 when there is none.
    public var progress: Double
    /// Whether the slideshow is paused.
    public var paused: Bool

    /// Creates a scene.
    public init(current: Slot, currentTime: Double, outgoing: Slot?, outgoingTime: Double, progress: Double, paused: Bool) {
        self.current = current; self.currentTime = currentTime; self.outgoing = outgoing; self.outgoingTime = outgoingTime
        self.progress = progress; self.paused = paused
    }
}
