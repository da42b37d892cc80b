/// The slideshow under `--sync-epoch`: what is on screen is read off the wall-clock timeline, not kept as state
/// moved by time and commands. Next, previous, go-to and pause have no say (the wall clock decides); the player
/// still hears items start and end.
extension Slideshow {
    /// The scene at wall time `wall` on `timeline`, whose item `i` is the playlist's item `ids[i]`. Nil while the
    /// item due is still decoding (the screen keeps its last frame) or cannot be shown.
    ///
    /// A slot's `sequence` is its slot number on the timeline, the same on every player, so anything drawn from it
    /// (Ken Burns paths, random transitions) is the same on every screen. A transition plays over the first
    /// `transitionTime` seconds of a slot when this player showed the slot before it.
    public func follow(_ timeline: WallTimeline, ids: [ItemID], wall: Double,
                       availability: (ItemID) -> Availability) -> Scene? {
        skip = 0
        target = nil
        let now = timeline.position(at: wall)
        let next = timeline.slot(now.slot + 1)
        guard ids.indices.contains(now.item), playlist.contains(ids[now.item]) else {
            if let s = slot { finishSlot(s, reason: .removed) }
            syncUpcoming = nil
            return nil
        }
        let id = ids[now.item]
        switch availability(id) {
        case .pending:
            syncUpcoming = id
            return nil
        case .failed:
            markFailed(id)
            syncUpcoming = ids.indices.contains(next.item) ? ids[next.item] : nil
            return nil
        case .ready(let timing):
            syncUpcoming = ids.indices.contains(next.item) ? ids[next.item] : nil
            if slot?.sequence != now.slot { enterSyncedSlot(now, id: id, timing: timing) }
        }
        guard let current = slot else { return nil }
        var progress = 1.0
        var out: Slot?
        var outTime = 0.0
        if let o = outgoing, o.slot.sequence == now.slot - 1, !options.transition.isCut, options.transitionTime > 0,
           now.offset < options.transitionTime {
            progress = now.offset / options.transitionTime
            out = o.slot
            outTime = o.endTime + now.offset
        } else {
            outgoing = nil
        }
        return Scene(current: current, currentTime: now.offset, outgoing: out, outgoingTime: outTime, progress: progress,
                     paused: false)
    }

    /// Slot `position` begins on this screen (at its start, or part-way through for a late joiner or a step of
    /// the clock): the one before it ends.
    private func enterSyncedSlot(_ position: TimelinePosition, id: ItemID, timing: MediaTiming) {
        if let s = slot {
            events.append(.itemEnded(s.id, path: s.path, reason: .eof))
            outgoing = s.sequence == position.slot - 1 ? (s, s.length) : nil
        } else {
            outgoing = nil
        }
        let item = playlist.item(id)
        let s = Slot(id: id, path: item?.path ?? "", sequence: position.slot, timing: timing, length: position.length,
                     duration: item?.duration ?? options.duration)
        slot = s
        self.position = position.place
        events.append(.itemStarted(s.id, path: s.path, sequence: s.sequence))
    }
}
