/// The slideshow scheduler: playlist + durations + events + time → what is on screen. Pure: it neither decodes
/// nor draws, so hours of virtual time can be tested in milliseconds.

/// The scheduler over a `LivePlaylist`. Drive it with `update(at:availability:)` once per frame, and with
/// commands (`apply(_:at:)`) as they come; read what happened with `takeEvents()`.
public final class Slideshow {
    /// The items it plays, shared with the player (edited through `apply`).
    public let playlist: LivePlaylist
    /// Its settings (loop, shuffle, duration and transition change by command).
    public internal(set) var options: SlideshowOptions

    var rng: SeededGenerator
    /// The order of this pass (shuffled or the playlist's).
    var order: [ItemID] = []
    /// Index into `order` of the current slot (before the first slot: where the search starts).
    var position = 0
    var failed = Set<ItemID>()
    var slot: Slot?
    var slotStart = 0.0
    var pausedAt: Double?
    /// Why it is paused; it runs while this is empty.
    public internal(set) var pauseReasons: Set<PauseReason> = []
    var outgoing: (slot: Slot, endTime: Double)?
    var transitionStart = 0.0
    var sequence = 0
    /// +1 next requested, -1 previous requested.
    var skip = 0
    /// An item asked for by `goTo`.
    var target: ItemID?
    /// Why the current slot will end when it ends before its time.
    var endReason = EndReason.skipped
    var held = false
    var nextPassOrder: [ItemID]?
    var ended = false
    var idleAnnounced = false
    /// Stopped by a command (the playlist stays): nothing shows until an item is asked for.
    var stopped = false
    /// Items outside their time windows now.
    var outside = Set<ItemID>()
    var events: [PlayerEvent] = []
    /// With `--sync-epoch`: the item the wall-clock timeline shows next (SlideshowSync.swift).
    var syncUpcoming: ItemID?

    /// Creates a slideshow over `items` (a new playlist, ids 0, 1, 2… in order).
    public convenience init(items: [PlaylistItem], options: SlideshowOptions) {
        self.init(playlist: LivePlaylist(items), options: options)
    }

    /// Creates a slideshow over a live playlist.
    public init(playlist: LivePlaylist, options: SlideshowOptions) {
        self.playlist = playlist
        self.options = options
        rng = SeededGenerator(seed: options.seed)
        order = makeOrder(avoidingFirst: nil)
    }

    /// True after the last item with `loop == false`, or while nothing can be shown (see `isIdle`).
    public var isFinished: Bool { ended || isIdle }

    /// Nothing can be shown: the playlist is empty, or every item in it failed.
    public var isIdle: Bool {
        stopped || playlist.isEmpty || failed.count + outside.subtracting(failed).count >= playlist.count
    }

    /// Whether `id` is skipped: it failed, or it is outside its time window now.
    func skipped(_ id: ItemID) -> Bool { failed.contains(id) || outside.contains(id) }

    /// Sets the items outside their time windows (`#EXTKIOSK:days=…,from=…,to=…`): they are skipped until they
    /// are back in; the item on screen moves on at once when its window closes.
    public func setOutsideWindows(_ ids: Set<ItemID>) {
        guard ids != outside else { return }
        outside = ids
        if let s = slot, ids.contains(s.id), target == nil, skip == 0 { endCurrent(.skipped) }
        if let t = target, ids.contains(t) { target = nil }
    }

    /// The item the slideshow wants next: the one to decode ahead of its slot.
    public var upcoming: ItemID? {
        guard !isFinished else { return nil }
        if let syncUpcoming { return syncUpcoming }
        if let target { return target }
        if slot == nil { return firstCandidate(from: position, direction: 1, allowWrap: options.loop).map { idAt($0.pos, wrapped: $0.wrapped) } }
        return candidate(after: 1, availability: { _ in .ready(.still) }, peek: true)?.id
    }

    /// The item showing now, if any.
    public var currentID: ItemID? { slot?.id }

    /// Whether the slideshow is paused (for any reason).
    public var isPaused: Bool { !pauseReasons.isEmpty }

    /// The order of the current pass.
    public var passOrder: [ItemID] { order }

    /// What happened since the last call: items started and ended, pause changes, idle.
    public func takeEvents() -> [PlayerEvent] {
        defer { events.removeAll() }
        return events
    }

    /// Marks an item as unplayable: it is skipped from now on.
    public func markFailed(_ id: ItemID) {
        guard failed.insert(id).inserted else { return }
        events.append(.itemFailed(id, path: playlist.item(id)?.path ?? "", reason: "cannot be shown"))
    }

    /// Forgets that these items failed (their file changed): they are asked for again in their turn.
    public func retry(_ ids: [ItemID]) { failed.subtract(ids) }

    /// Asks to move on now (with the transition).
    public func next() { skip = 1; target = nil; endReason = .skipped }

    /// Asks to go back now.
    public func previous() { skip = -1; target = nil; endReason = .skipped }

    /// Ends the current item now, for `reason` (its clip broke, or ran out of frames early).
    public func endCurrent(_ reason: EndReason) { skip = 1; target = nil; endReason = reason }

    /// Adds a pause reason at `t`: the current item stays until no reason is left.
    public func pause(_ reason: PauseReason = .user, at t: Double) {
        guard !pauseReasons.contains(reason) else { return }
        pauseReasons.insert(reason)
        if pausedAt == nil { pausedAt = t }
        events.append(.pauseChanged(pauseReasons))
    }

    /// Removes a pause reason at `t`; when none is left it runs on, and paused time does not count toward the slot.
    public func resume(_ reason: PauseReason = .user, at t: Double) {
        guard pauseReasons.remove(reason) != nil else { return }
        events.append(.pauseChanged(pauseReasons))
        guard pauseReasons.isEmpty, let p = pausedAt else { return }
        let d = max(0, t - p)
        slotStart += d
        transitionStart += d
        pausedAt = nil
    }

    /// Adds `reason` when absent, removes it when present.
    public func togglePause(_ reason: PauseReason = .user, at t: Double) {
        if pauseReasons.contains(reason) { resume(reason, at: t) } else { pause(reason, at: t) }
    }

    /// Restarts the current item's timer at `t` (any user interaction does this).
    public func restartTimer(at t: Double) {
        guard slot != nil else { return }
        if outgoing == nil { slotStart = t; if pausedAt != nil { pausedAt = t } }
    }

    /// Advances to `t` and returns what is on screen, or nil while the first item is not ready yet, when idle
    /// or when finished. `availability` answers for items.
    public func update(at t: Double, availability: (ItemID) -> Availability) -> Scene? {
        defer { announceIdle() }
        if isFinished {
            // The slot on screen ends too: at the playlist's end, or when nothing is left to show (its item was
            // removed and every other one failed).
            if let s = slot { finishSlot(s, reason: ended ? .eof : playlist.position(of: s.id) == nil ? .removed : .error) }
            return nil
        }
        if slot == nil {
            guard start(at: t, availability: availability) else { return nil }
        }
        var guardCount = 0
        while let s = slot, guardCount < playlist.count * 2 + 2 {
            guardCount += 1
            let now = pausedAt ?? t
            let elapsed = now - slotStart
            let due = skip != 0 || target != nil || (pausedAt == nil && elapsed >= s.length)
            guard due else { break }
            let userSkip = skip != 0 || target != nil
            let found: Candidate?
            if let target {
                found = candidate(for: target, availability: availability)
            } else {
                found = candidate(after: skip < 0 ? -1 : 1, availability: availability)
            }
            guard let next = found else {
                if ended { finishSlot(s, reason: .eof); return nil }
                if target.map({ playlist.position(of: $0) == nil || skipped($0) }) ?? false { target = nil; continue }
                held = true
                break  // next item still decoding: hold the current one
            }
            // A scheduled change starts exactly at the slot's end; a user's skip starts now.
            let start = userSkip || held ? now : slotStart + s.length
            events.append(.itemEnded(s.id, path: s.path, reason: userSkip ? endReason : .eof))
            skip = 0
            target = nil
            endReason = .skipped
            held = false
            begin(next, at: start, previous: (s, (userSkip ? now : start) - slotStart))
        }
        return scene(at: t)
    }

    // MARK: - internals

    func finishSlot(_ s: Slot, reason: EndReason) {
        events.append(.itemEnded(s.id, path: s.path, reason: reason))
        slot = nil
        outgoing = nil
    }

    /// Says `idle` once each time the slideshow runs out of anything to show.
    private func announceIdle() {
        if isIdle && slot == nil {
            if !idleAnnounced { events.append(.idle) }
            idleAnnounced = true
        } else {
            idleAnnounced = false
        }
    }

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

    private func start(at t: Double, availability: (ItemID) -> Availability) -> Bool {
        if let target, let p = order.firstIndex(of: target) { position = p; self.target = nil }
        var tries = 0
        while tries < playlist.count {
            tries += 1
            guard let c = firstCandidate(from: position, direction: 1, allowWrap: options.loop) else {
                ended = true
                return false
            }
            position = c.pos
            if c.wrapped { newPass() }
            let id = order[position]
            switch availability(id) {
            case .ready(let timing):
                begin((id, position, timing, false), at: t, previous: nil)
                return true
            case .pending:
                return false
            case .failed:
                markFailed(id)
                if isIdle { return false }
            }
        }
        return false
    }

    typealias Candidate = (id: ItemID, pos: Int, timing: MediaTiming, wrapped: Bool)

    /// The item `goTo` asked for, when it can show now.
    private func candidate(for id: ItemID, availability: (ItemID) -> Availability) -> Candidate? {
        guard let pos = order.firstIndex(of: id), !skipped(id) else { return nil }
        switch availability(id) {
        case .ready(let timing): return (id, pos, timing, false)
        case .pending: return nil
        case .failed: markFailed(id); return nil
        }
    }

    /// The next showable item in `direction`, skipping failed ones; nil if pending or none.
    private func candidate(after direction: Int, availability: (ItemID) -> Availability, peek: Bool = false) -> Candidate? {
        var pos = position
        var wrapped = false
        for _ in 0..<(order.count + 1) {
            pos += direction
            if pos >= order.count {
                guard options.loop else {
                    if !peek, direction > 0 { ended = true }
                    return nil
                }
                pos = 0
                wrapped = true
            } else if pos < 0 {
                pos = options.loop ? order.count - 1 : 0
                if !options.loop { return nil }
            }
            guard order.indices.contains(pos) else { return nil }
            let id = idAt(pos, wrapped: wrapped)
            if skipped(id) { continue }
            switch availability(id) {
            case .ready(let timing): return (id, pos, timing, wrapped)
            case .pending: return nil
            case .failed:
                markFailed(id)
                if isIdle { return nil }
            }
        }
        return nil
    }

    /// The id at `pos` of this pass, or of the next one when `wrapped`.
    private func idAt(_ pos: Int, wrapped: Bool) -> ItemID {
        wrapped ? peekNextPassFirst(pos) : order[pos]
    }

    /// With shuffle, the next pass's order is drawn once and kept, so `upcoming` and the switch agree.
    private func peekNextPassFirst(_ pos: Int) -> ItemID {
        if nextPassOrder == nil { nextPassOrder = makeOrder(avoidingFirst: order.last) }
        if let next = nextPassOrder, next.indices.contains(pos) { return next[pos] }
        return order[pos]
    }

    private func firstCandidate(from start: Int, direction: Int, allowWrap: Bool) -> (pos: Int, wrapped: Bool)? {
        var pos = max(0, start)
        var wrapped = false
        for _ in 0..<(order.count + 1) {
            if pos >= order.count {
                guard allowWrap, !order.isEmpty else { return nil }
                pos = 0
                wrapped = true
            }
            if !skipped(idAt(pos, wrapped: wrapped)) { return (pos, wrapped) }
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
        let d = playlist.item(c.id)?.duration ?? options.duration
        let s = Slot(id: c.id, path: playlist.item(c.id)?.path ?? "", sequence: sequence, timing: c.timing,
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
        events.append(.itemStarted(s.id, path: s.path, sequence: s.sequence))
    }

    func makeOrder(avoidingFirst last: ItemID?) -> [ItemID] {
        var o = playlist.ids
        guard options.shuffle, o.count > 1 else { return o }
        o.shuffle(using: &rng)
        if let last, o.first == last {
            let j = 1 + Int(rng.next() % UInt64(o.count - 1))
            o.swapAt(0, j)
        }
        return o
    }
}
