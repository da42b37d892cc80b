/// The slideshow scheduler: playlist + durations + events + time → what is on screen. Pure: it neither decodes
/// nor draws, so hours of virtual time can be tested in milliseconds.

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

/// What the player can say about an item's decoded picture when the slideshow wants to show it.
public enum Availability: Sendable, Equatable {
    /// Decoded and ready now, with its timing.
    case ready(MediaTiming)
    /// Still being decoded: the slideshow holds the current item a little longer.
    case pending
    /// Cannot be shown: the slideshow skips it.
    case failed
}

/// One visit of one item: which playlist entry, which visit, and how long it has been on.
public struct Slot: Sendable, Equatable {
    /// Index into the playlist.
    public var index: Int
    /// Counts visits from 0, so the same item shown twice is two slots.
    public var sequence: Int
    /// Its timing, known when the slot started.
    public var timing: MediaTiming
    /// Seconds it stays (from `MediaTiming.slotLength`).
    public var length: Double
    /// The configured duration that applied (for animation frame choice).
    public var duration: Double
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
}

/// The scheduler. Drive it with `update(at:availability:)` once per frame and events as they come.
public final class Slideshow {
    /// The items, in playlist order.
    public let items: [PlaylistItem]
    /// Its settings.
    public let options: SlideshowOptions

    private var rng: SeededGenerator
    private var order: [Int] = []
    private var position = 0
    private var failed = Set<Int>()
    private var slot: Slot?
    private var slotStart = 0.0
    private var pausedAt: Double?
    private var outgoing: (slot: Slot, endTime: Double)?
    private var transitionStart = 0.0
    private var sequence = 0
    private var skip: Int = 0  // +1 next requested, -1 previous requested
    private var held = false

    /// True after the last item with `loop == false`, or when nothing is playable.
    public private(set) var isFinished = false

    /// Creates a slideshow over `items`.
    public init(items: [PlaylistItem], options: SlideshowOptions) {
        self.items = items
        self.options = options
        rng = SeededGenerator(seed: options.seed)
        order = makeOrder(avoidingFirst: nil)
        if items.isEmpty { isFinished = true }
    }

    /// The playlist index the slideshow wants next: the one to decode ahead of its slot.
    public var upcoming: Int? {
        guard !items.isEmpty, !isFinished else { return nil }
        if slot == nil { return firstCandidate(from: position, direction: 1, allowWrap: options.loop).map { order[$0.pos] } }
        return candidate(after: 1, availability: { _ in .ready(.still) }, peek: true)?.index
    }

    /// The playlist index showing now, if any.
    public var currentIndex: Int? { slot?.index }

    /// Whether the slideshow is paused.
    public var isPaused: Bool { pausedAt != nil }

    /// The order of the current pass (playlist indices).
    public var passOrder: [Int] { order }

    /// Marks an item as unplayable: it is skipped from now on.
    public func markFailed(_ index: Int) {
        failed.insert(index)
        if failed.count >= items.count { isFinished = true }
    }

    /// Asks to move on now (with the transition).
    public func next() { skip = 1 }

    /// Asks to go back now.
    public func previous() { skip = -1 }

    /// Pauses at `t`: the current item stays until `resume`.
    public func pause(at t: Double) { if pausedAt == nil { pausedAt = t } }

    /// Resumes at `t`; paused time does not count toward the item's slot.
    public func resume(at t: Double) {
        guard let p = pausedAt else { return }
        let d = max(0, t - p)
        slotStart += d
        transitionStart += d
        pausedAt = nil
    }

    /// Pauses or resumes.
    public func togglePause(at t: Double) { if isPaused { resume(at: t) } else { pause(at: t) } }

    /// Restarts the current item's timer at `t` (any user interaction does this).
    public func restartTimer(at t: Double) {
        guard slot != nil else { return }
        if outgoing == nil { slotStart = t; if pausedAt != nil { pausedAt = t } }
    }

    /// Advances to `t` and returns what is on screen, or nil while the first item is not ready yet or when
    /// finished. `availability` answers for playlist indices.
    public func update(at t: Double, availability: (Int) -> Availability) -> Scene? {
        if isFinished { return nil }
        if slot == nil {
            guard start(at: t, availability: availability) else { return nil }
        }
        var guardCount = 0
        while let s = slot, guardCount < items.count * 2 + 2 {
            guardCount += 1
            let now = pausedAt ?? t
            let elapsed = now - slotStart
            let due = skip != 0 || (pausedAt == nil && elapsed >= s.length)
            guard due else { break }
            let direction = skip < 0 ? -1 : 1
            let userSkip = skip != 0
            guard let next = candidate(after: direction, availability: availability) else {
                if isFinished { return nil }
                held = true
                break  // next item still decoding: hold the current one
            }
            skip = 0
            // A scheduled change starts exactly at the slot's end; a user's skip starts now.
            let start = userSkip || held ? now : slotStart + s.length
            held = false
            begin(next, at: start, previous: (s, (userSkip ? now : start) - slotStart))
        }
        return scene(at: t)
    }

    // MARK: - internals

    private func scene(at t: Double) -> Scene? {
        guard let s = slot else { return nil }
        let now = pausedAt ?? t
        var progress = 1.0
        var out: Slot?
        var outTime = 0.0
        if let o = outgoing, !options.transition.isCut, options.transitionTime > 0 {
            progress = min(1, max(0, (now - transitionStart) / options.transitionTime))
            if progress < 1 {
                out = o.slot
                outTime = o.endTime + (now - transitionStart)
            } else {
                outgoing = nil
            }
        } else {
            outgoing = nil
        }
        return Scene(current: s, currentTime: max(0, now - slotStart), outgoing: out, outgoingTime: outTime,
                     progress: progress, paused: pausedAt != nil)
    }

    private func start(at t: Double, availability: (Int) -> Availability) -> Bool {
        var tries = 0
        while tries < items.count {
            tries += 1
            guard let c = firstCandidate(from: position, direction: 1, allowWrap: options.loop) else {
                isFinished = true
                return false
            }
            position = c.pos
            if c.wrapped { newPass() }
            let index = order[position]
            switch availability(index) {
            case .ready(let timing):
                begin((index, position, timing, false), at: t, previous: nil)
                return true
            case .pending:
                return false
            case .failed:
                markFailed(index)
                if isFinished { return false }
            }
        }
        return false
    }

    private typealias Candidate = (index: Int, pos: Int, timing: MediaTiming, wrapped: Bool)

    /// The next showable item in `direction`, skipping failed ones; nil if pending or none.
    private func candidate(after direction: Int, availability: (Int) -> Availability, peek: Bool = false) -> Candidate? {
        var pos = position
        var wrapped = false
        for _ in 0..<(items.count + 1) {
            pos += direction
            if pos >= order.count {
                guard options.loop else {
                    if !peek, direction > 0 { isFinished = true }
                    return nil
                }
                pos = 0
                wrapped = true
            } else if pos < 0 {
                pos = options.loop ? order.count - 1 : 0
                if !options.loop { return nil }
            }
            let index = wrapped ? peekNextPassFirst(pos) : order[pos]
            if failed.contains(index) { continue }
            switch availability(index) {
            case .ready(let timing): return (index, pos, timing, wrapped)
            case .pending: return nil
            case .failed:
                markFailed(index)
                if isFinished { return nil }
            }
        }
        if !peek { isFinished = failed.count >= items.count }
        return nil
    }

    private var nextPassOrder: [Int]?

    /// With shuffle, the next pass's order is drawn once and kept, so `upcoming` and the switch agree.
    private func peekNextPassFirst(_ pos: Int) -> Int {
        if nextPassOrder == nil { nextPassOrder = makeOrder(avoidingFirst: order.last) }
        return nextPassOrder?[pos] ?? order[pos]
    }

    private func firstCandidate(from start: Int, direction: Int, allowWrap: Bool) -> (pos: Int, wrapped: Bool)? {
        var pos = start
        var wrapped = false
        for _ in 0..<(items.count + 1) {
            if pos >= order.count {
                guard allowWrap else { return nil }
                pos = 0
                wrapped = true
            }
            let index = wrapped ? peekNextPassFirst(pos) : order[pos]
            if !failed.contains(index) { return (pos, wrapped) }
            pos += direction
        }
        return nil
    }

    private func newPass() {
        order = nextPassOrder ?? makeOrder(avoidingFirst: order.last)
        nextPassOrder = nil
    }

    private func begin(_ c: Candidate, at t: Double, previous: (Slot, Double)?) {
        if c.wrapped { newPass() }
        position = c.pos
        let d = items[c.index].duration ?? options.duration
        let s = Slot(index: c.index, sequence: sequence, timing: c.timing,
                     length: c.timing.slotLength(forDuration: d), duration: d)
        sequence += 1
        if let previous, !options.transition.isCut, options.transitionTime > 0 {
            outgoing = (previous.0, previous.1)
            transitionStart = t
        } else {
            outgoing = nil
        }
        slot = s
        slotStart = t
        if pausedAt != nil { pausedAt = t }
    }

    private func makeOrder(avoidingFirst last: Int?) -> [Int] {
        var o = Array(items.indices)
        guard options.shuffle, o.count > 1 else { return o }
        o.shuffle(using: &rng)
        if let last, o.first == last {
            let j = 1 + Int(rng.next() % UInt64(o.count - 1))
            o.swapAt(0, j)
        }
        return o
    }
}
