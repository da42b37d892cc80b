/// The children of an `excl` on its clock: at most one plays at a time. Every attempt of a child to begin (each
/// of its begin times, in time order, ties in document order) meets the child playing then, and the playing one's
/// priority class says what happens (`SMILPriorityClass.interruption`). Paused and deferred children wait in the
/// pause queue, ordered by class (the highest on top) and, within a class, the latest on top; when the child playing
/// ends, the top of the queue plays: a paused one resumes with the time it had left, a deferred one begins.
///
/// Pure arithmetic over known begins: the result is a list of pieces, each a stretch of one child playing (a child
/// paused and resumed plays in several), from which the timeline answers what shows at a time.
struct SMILExclSchedule {
    /// One child as the schedule needs it.
    struct Member {
        /// Its active duration (`.infinity` for none).
        var active: Double
        /// Its `end` list on the excl's clock: an activation ends at the first of its times not before the
        /// activation's begin, paused or not.
        var ending: SMILTiming
        /// When it tries to begin, on the excl's clock.
        var begins: [Double]
        /// Its class's rank (0: the highest; every child 0 in an excl without classes).
        var rank: Int

        /// Where its activation begun at `began` ends by its `end` list (`.infinity`: nothing ends it).
        func end(began: Double) -> Double { ending.endCut(after: began) ?? .infinity }
    }

    /// A stretch of one child playing.
    struct Piece: Equatable {
        /// The child (its index among the excl's children).
        var member: Int
        /// When the stretch begins and ends, on the excl's clock.
        var from: Double
        var to: Double
        /// Seconds into the child's active duration at `from`.
        var local: Double
        /// Whether the child was paused at `to` (it resumes in a later piece, or its end comes while it waits).
        var paused: Bool
        /// Until when its frame shows while paused (its class's `pauseDisplay` is `show` or `disable`); `to` for
        /// `hide`, and for a piece that was not paused.
        var shownUntil: Double
    }

    private struct Waiting {
        var member: Int
        var local: Double
        /// When its activation began (a paused one); a deferred one begins when it leaves the queue.
        var began: Double
        /// Whether it was paused (it has begun) rather than deferred (it has not).
        var paused: Bool
        /// Its paused piece, whose `shownUntil` is set when it leaves the queue.
        var piece: Int?
    }

    /// The pieces of `members`' children under `classes` (empty: every child a peer of every other, and a child that
    /// begins stops the one playing).
    static func pieces(_ members: [Member], classes: [SMILPriorityClass]) -> [Piece] {
        let attempts = members.indices.flatMap { m in members[m].begins.filter(\.isFinite).map { (time: $0, member: m) } }
            .sorted { ($0.time, $0.member) < ($1.time, $1.member) }
        var pieces: [Piece] = []
        var queue: [Waiting] = []
        typealias Playing = (member: Int, from: Double, local: Double, began: Double)
        var playing: Playing?
        var next = 0
        /// When the child playing reaches its end: its remaining active time, or its `end`.
        func endOf(_ p: Playing) -> Double {
            let m = members[p.member]
            return max(p.from, min(p.from + (m.active - p.local), m.end(began: p.began)))
        }
        func close(_ p: Playing, at t: Double, paused: Bool) -> Int {
            pieces.append(Piece(member: p.member, from: p.from, to: t, local: p.local, paused: paused, shownUntil: t))
            return pieces.count - 1
        }
        /// Whether a paused child of `member`'s class shows its frame while it waits.
        func shows(_ member: Int) -> Bool {
            let rank = members[member].rank
            return !classes.indices.contains(rank) || classes[rank].pauseDisplay != .hide
        }
        func enqueue(_ w: Waiting) {
            let rank = members[w.member].rank
            let at = queue.firstIndex { members[$0.member].rank >= rank } ?? queue.count
            queue.insert(w, at: at)
        }
        /// The top of the queue plays from `t`; waiting ones whose end has passed leave it.
        func resume(at t: Double) {
            while !queue.isEmpty {
                let w = queue.removeFirst()
                let m = members[w.member]
                let began = w.paused ? w.began : t
                let end = m.end(began: began)
                let stillOn = end > t && m.active > w.local
                if let i = w.piece, shows(w.member) { pieces[i].shownUntil = stillOn ? t : max(pieces[i].to, min(t, end)) }
                guard stillOn else { continue }
                playing = (w.member, t, w.local, began)
                return
            }
        }
        while true {
            let ends = playing.map(endOf) ?? .infinity
            let begins = next < attempts.count ? attempts[next].time : .infinity
            if ends == .infinity && begins == .infinity {
                if let p = playing { _ = close(p, at: .infinity, paused: false) }
                break
            }
            if let p = playing, ends <= begins {  // an end at the instant of a begin comes first
                _ = close(p, at: ends, paused: false)
                playing = nil
                resume(at: ends)
                continue
            }
            let (t, b) = (attempts[next].time, attempts[next].member)
            next += 1
            // a new begin takes over the child's wait: deferred, it is begun now or not at all; paused, it starts over
            for w in queue where w.member == b {
                if let i = w.piece, shows(b) { pieces[i].shownUntil = t }
            }
            queue.removeAll { $0.member == b }
            guard let p = playing else {
                playing = (b, t, 0, t)
                continue
            }
            if p.member == b {  // it begins again: it restarts
                _ = close(p, at: t, paused: false)
                playing = (b, t, 0, t)
                continue
            }
            switch SMILPriorityClass.interruption(playing: members[p.member].rank, incoming: members[b].rank, classes: classes) {
            case .stop:
                _ = close(p, at: t, paused: false)
                playing = (b, t, 0, t)
            case .pause:
                let i = close(p, at: t, paused: true)
                enqueue(Waiting(member: p.member, local: p.local + (t - p.from), began: p.began, paused: true, piece: i))
                playing = (b, t, 0, t)
            case .defer:
                enqueue(Waiting(member: b, local: 0, began: t, paused: false, piece: nil))
            case .never:
                break
            }
        }
        return pieces
    }
}

extension SMILTimeline {
    /// An `excl`'s children on its clock, by its priority classes: a `Child` per stretch each plays, and one that
    /// never begins for a child that never plays. A child's last stretch stays frozen (by its fill) until the
    /// next stretch of any child starts; a paused stretch is held until the child resumes (hidden, for a class
    /// whose `pauseDisplay` is `hide`).
    static func exclPieces(_ kids: [Timed], in c: SMILContainer) -> [Child] {
        let classed = !c.priorityClasses.isEmpty && c.childClasses.count == kids.count
        // `end` values are offsets from the excl's begin: the schedule cuts a child there, paused or not
        let members = kids.enumerated().map { i, k in
            SMILExclSchedule.Member(active: k.durations.active, ending: k.timing, begins: k.timing.hasBegin ? k.timing.begins : [],
                                    rank: classed ? c.childClasses[i] : 0)
        }
        let schedule = SMILExclSchedule.pieces(members, classes: classed ? c.priorityClasses : [])
        let starts = schedule.map(\.from).sorted()
        // the active end on each stretch's own clock: where its child's last stretch ends
        var lastLocal: [Int: Double] = [:]
        for p in schedule { lastLocal[p.member] = p.local + (p.to - p.from) }
        var out = schedule.map { p -> Child in
            let frozen = p.paused ? p.shownUntil : (starts.first { $0 > p.from && $0 >= p.to } ?? .infinity)
            return Child(timed: kids[p.member], begin: p.from - p.local, end: p.to, frozenUntil: frozen,
                         from: p.local > 0 ? p.from : nil, paused: p.paused, localEnd: lastLocal[p.member])
        }
        for (i, k) in kids.enumerated() where !schedule.contains(where: { $0.member == i }) {
            out.append(Child(timed: k, begin: .infinity, end: .infinity, frozenUntil: .infinity))
        }
        return out
    }
}
