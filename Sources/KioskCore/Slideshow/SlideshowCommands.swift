/// The slideshow's share of the player's commands: moving between items, pause reasons, and edits of the live
/// playlist while it plays (also during a transition, also of the item on screen).
extension Slideshow {
    /// Runs `command` at time `t` if it is the slideshow's to run, and answers it; nil for commands that belong
    /// elsewhere (sound, view, effect, overlay, quit).
    public func apply(_ command: PlayerCommand, at t: Double) -> CommandReply? {
        if stopped {
            switch command {
            case .next, .previous, .goTo, .load(_, .replace): stopped = false
            default: break
            }
            if command == .next, slot == nil, !order.isEmpty { position = (position + 1) % order.count }
        }
        switch command {
        case .next: next(); return .done()
        case .previous: previous(); return .done()
        case .stopPlayback:
            if let s = slot { finishSlot(s, reason: .skipped) }
            stopped = true
            target = nil
            skip = 0
            return .done()
        case .goTo(let ref):
            guard let id = resolve(ref) else { return .failed("no such item: \(Self.describe(ref))") }
            if failed.contains(id) { return .failed("item \(id) cannot be shown (it failed to decode)") }
            target = id
            skip = 0
            endReason = .skipped
            return .done(ids: [id])
        case .pause(let reason): pause(reason, at: t); return .done()
        case .resume(let reason): resume(reason, at: t); return .done()
        case .togglePause(let reason): togglePause(reason, at: t); return .done()
        case .restartTimer: restartTimer(at: t); return .done()
        case .load(let items, let mode): return load(items, mode: mode)
        case .remove(let ref):
            guard let id = resolve(ref), let edit = playlist.remove(id) else { return .failed("no such item: \(Self.describe(ref))") }
            follow(edit)
            return .done(ids: [id])
        case .removeMany(let refs):
            let edit = playlist.remove(Set(resolveAll(refs)))
            if !edit.removed.isEmpty { follow(edit) }
            return .done(ids: edit.removed.map(\.id))
        case .move(let ref, let to):
            guard let id = resolve(ref), playlist.move(id, to: to) else { return .failed("no such item: \(Self.describe(ref))") }
            follow(PlaylistEdit())
            return .done(ids: [id])
        case .clear(let keepCurrent):
            let keep = keepCurrent ? slot.flatMap { s in playlist.item(s.id).map { (s.id, $0) } } : nil
            var edit = PlaylistEdit()
            for id in playlist.ids where id != keep?.0 {
                if let e = playlist.remove(id) { edit.removed += e.removed }
            }
            follow(edit)
            return .done()
        case .shuffle(let on):
            setShuffle(on)
            return .done()
        case .loop(let on):
            options.loop = on
            nextPassOrder = nil
            if on { ended = false }
            return .done()
        case .imageDuration(let seconds):
            guard seconds.isFinite, seconds > 0 else { return .failed("image duration must be seconds > 0") }
            options.duration = seconds
            if var s = slot, s.timing == .still, playlist.item(s.id)?.duration == nil {
                s.length = s.timing.slotLength(forDuration: seconds)
                s.duration = seconds
                slot = s
            }
            return .done()
        case .transition(let spec, let seconds):
            if let seconds {
                guard seconds.isFinite, seconds >= 0 else { return .failed("transition time must be seconds >= 0") }
                options.transitionTime = seconds
            }
            options.transition = spec
            return .done()
        case .volume, .seek, .view, .effect, .toggleEffect, .effectSplit, .overlay, .showText, .showProgress, .screenshot, .key, .screen,
             .grid, .region, .trigger, .alert, .tvPower, .checkContent, .loadContent, .quit:
            return nil
        }
    }

    /// Shuffled order from the next item on (the item on screen keeps its place at the head of the pass), or the
    /// playlist's order again.
    private func setShuffle(_ on: Bool) {
        guard options.shuffle != on else { return }
        options.shuffle = on
        nextPassOrder = nil
        var fresh = makeOrder(avoidingFirst: nil)
        if let s = slot, let at = fresh.firstIndex(of: s.id) {
            if on {
                fresh.remove(at: at)
                fresh.insert(s.id, at: 0)
                position = 0
            } else {
                position = at
            }
        } else {
            position = 0
        }
        order = fresh
    }

    /// The slot on screen, if any.
    public var currentSlot: Slot? { slot }

    /// Seconds the slot on screen has been on at `t`, pauses excluded (0 when none).
    public func currentTime(at t: Double) -> Double { slot == nil ? 0 : max(0, (pausedAt ?? t) - slotStart) }

    /// Moves the slot on screen to `seconds` into it (clamped to its length), as if it had been on that long
    /// at `t` (a still's timer too: seeking 3 s into a 5 s still leaves 2 s); returns where it now is, or nil
    /// when nothing shows.
    public func seek(to seconds: Double, at t: Double) -> Double? {
        guard let s = slot else { return nil }
        let to = min(max(0, seconds), max(0, s.length - 0.001))
        slotStart = (pausedAt ?? t) - to
        return to
    }

    /// The id an `ItemRef` names, if that item is in the playlist.
    public func resolve(_ ref: ItemRef) -> ItemID? {
        switch ref {
        case .id(let id): return playlist.position(of: id) == nil ? nil : id
        case .position(let p): return playlist.id(at: p)
        case .path(let p): return firstID(withPath: p)
        }
    }

    private static func describe(_ ref: ItemRef) -> String {
        switch ref {
        case .id(let id): return "id \(id)"
        case .position(let p): return "position \(p)"
        case .path(let p): return "path \(p)"
        }
    }

    private func load(_ items: [PlaylistItem], mode: LoadMode) -> CommandReply {
        let edit: PlaylistEdit
        switch mode {
        case .replace:
            edit = playlist.replace(with: items)
        case .reload:
            edit = slot.map { playlist.replace(with: items, keeping: $0.id) } ?? playlist.replace(with: items)
        case .append:
            edit = playlist.append(items)
        case .insertNext:
            // Right after the item on screen; if it was just removed, where it was.
            let after = slot.flatMap { playlist.position(of: $0.id) }.map { $0 + 1 }
                ?? (slot == nil ? 0 : min(max(0, position + 1), playlist.count))
            var e = playlist.insert(items, at: after)
            e.playNext = e.added
            edit = e
        case .sorted:
            edit = loadSorted(items)
        }
        follow(edit)
        return .done(ids: edit.added)
    }

    /// Follows an edit of the playlist: the pass order keeps its place, new items join it, removed ones leave it.
    /// When the item on screen was removed the slideshow moves on at once, with the transition, to the item that
    /// followed it; removing the last item leaves the slideshow idle.
    public func follow(_ edit: PlaylistEdit) {
        let playlist = self.playlist
        failed = failed.filter { playlist.contains($0) }
        outside = outside.filter { playlist.contains($0) }
        if let t = target, !playlist.contains(t) { target = nil }
        let old = order
        var fresh: [ItemID]
        if options.shuffle {
            fresh = old
            if edit.removed.count <= 32 {
                for r in edit.removed { if let i = fresh.firstIndex(of: r.id) { fresh.remove(at: i) } }
            } else {
                let gone = Set(edit.removed.map(\.id))
                fresh.removeAll { gone.contains($0) }
            }
            let anchor = slot.flatMap { s in fresh.firstIndex(of: s.id) }
            for id in edit.added where !edit.playNext.contains(id) {
                let lo = (anchor ?? -1) + 1
                let at = lo + Int(rng.next() % UInt64(fresh.count - lo + 1))
                fresh.insert(id, at: at)
            }
            let at = anchor.map { $0 + 1 } ?? 0
            fresh.insert(contentsOf: edit.playNext, at: min(at, fresh.count))
            if fresh.count != playlist.count {
                // Out of step (an edit not followed): every item in the playlist, once, in the pass.
                let placed = Set(fresh)
                fresh.removeAll { !playlist.contains($0) }
                fresh += playlist.ids.filter { !placed.contains($0) }
            }
        } else {
            fresh = playlist.ids
        }
        nextPassOrder = nil
        order = fresh
        events.append(.playlistChanged(count: playlist.count))
        guard let s = slot else {
            position = 0
            return
        }
        if let p = fresh.firstIndex(of: s.id) {
            position = p
            return
        }
        // The item on screen is gone: the next one is the first survivor after it in the old order.
        let oldPosition = old.firstIndex(of: s.id) ?? position
        let follower = old[min(oldPosition + 1, old.count)...].first { playlist.contains($0) }
        position = (follower.flatMap { fresh.firstIndex(of: $0) } ?? fresh.count) - 1
        skip = 1
        target = nil
        endReason = .removed
        if fresh.isEmpty {
            events.append(.itemEnded(s.id, path: s.path, reason: .removed))
            slot = nil
            outgoing = nil
        }
    }
}
