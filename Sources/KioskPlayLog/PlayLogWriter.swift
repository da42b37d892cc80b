import Foundation
import KioskCore

/// Writes the player's showings into a `PlayLog` on a thread of its own, so that nothing on the frame loop waits on
/// the file, its lock or the disk. The player hands over events through a bounded queue (`capacity`): a hand-over
/// appends under a lock held for the append alone and never waits for the writer. Each event carries the player's
/// own times, so a row written late says when the showing was on screen, not when it was written.
///
/// A write that fails for a while (another process holds the lock, as a VACUUM or a maintenance script does; the
/// disk is full or read-only) is tried again every `retry` seconds, in order, the events waiting in the queue: one
/// line says the log is held up, one that it writes again and how many showings were written late or dropped. A
/// queue that is full drops new showings (counted); the end of a showing whose start was queued is never dropped,
/// so no row stays open. A log file deleted or replaced under the writer is noticed within a second (one line), and
/// a new one begun with the showings on screen in it and those that ended since the old one was last seen.
///
/// With `batch` seconds, what is handed over waits up to that long and is written in one transaction (the first
/// event, a flush and a write held up go at once): an SD card wears by the pages written, and one transaction per
/// row wrote about 40 KB each (docs/proof-of-play.md, "Durability"). A power cut loses at most those seconds of
/// showings; the next start records the gap (`PlayLog.tryOpenRun`).
public final class PlayLogWriter: @unchecked Sendable {
    /// A showing as the writer knows it: the number `begin` gave it.
    public typealias Showing = UInt64

    private enum Event {
        case begin(Showing, ShowingItem, Date, screenOn: Bool, display: ShowingDisplay?)
        case end(Showing, Date, reason: String, length: Double, screenOff: Double, display: ShowingDisplay?)
        /// A proof thumbnail to keep (once per distinct picture).
        case thumb(ProofThumbnail)
        case heartbeat(Date)
        case prune(before: Date, days: Double)
        case sign
        /// This run begins (`PlayLog.tryOpenRun`) or ends cleanly (`tryCloseRun`).
        case openRun
        case closeRun
    }

    /// The most events written in one transaction.
    static let maxBatch = 512

    private let store: PlayLog
    private let log: Log
    private let capacity: Int
    private let retry: Double
    /// Seconds an event waits to be written with those after it (0: written as soon as the writer gets to it).
    public let batch: Double
    private let cond = NSCondition()
    // guarded by `cond`: the events not yet written (the first ones being written now), and what was dropped
    private var queue: [Event] = []
    private var queuedBegins = 0
    private var droppedShowings: Set<Showing> = []
    private var dropped = 0
    private var nextShowing: Showing = 1
    private var finishing = false
    /// When the oldest event queued was handed over; nil while the queue is empty.
    private var queuedSince: Date?
    /// Whether what is queued is to be written now (a flush, the run's first or last event), not after `batch` s.
    private var urgent = false
    /// Why writes fail now, for `flush`'s line (nil while they work).
    private var heldBecause: String?
    // the writer thread's own
    private var rows: [Showing: (row: Int64, item: ShowingItem, start: Date, screenOn: Bool, display: ShowingDisplay?)] = [:]
    private var failing: SQLiteError?
    /// The drops already said.
    private var reportedDrops = 0
    private var late = 0
    /// The showings ended since the file was last seen in place: written again, whole, into a new file begun when
    /// it was deleted meanwhile (their ends went into the deleted one).
    private var endedSinceCheck: [(item: ShowingItem, start: Date, screenOn: Bool, end: Date, reason: String,
                                   length: Double, screenOff: Double, display: ShowingDisplay?)] = []
    /// Changes left out since the last one written, for a failure that trying again cannot mend (a damaged file).
    private var leftOut = 0

    /// The showings that started at or after the `countingSince` given to `init` and had ended, and their seconds
    /// on screen, as the log had them then (nil: not asked, or not readable).
    public let totalsAtStart: (showings: Int, seconds: Double)?

    /// Writes into `store` from now on, keeping at most `capacity` showings waiting, trying a failed write again
    /// after `retry` seconds. With `countingSince`, the log's figures since then are read first (`totalsAtStart`),
    /// here, before the writer's thread owns the log.
    /// With `batch` seconds, events are written together that long after the first of them (0: at once).
    public init(store: PlayLog, log: Log, countingSince: Date? = nil, capacity: Int = 1024, retry: Double = 0.25,
                batch: Double = 0) {
        self.store = store
        self.log = log
        self.capacity = capacity
        self.retry = retry
        self.batch = max(0, batch)
        totalsAtStart = countingSince.flatMap { store.totals(since: $0) }
        // written at once: a folder that cannot be written is said now, and a run that ended unclean is recorded
        queue.append(.openRun)
        queuedSince = Date()
        urgent = true
        let thread = Thread { [self] in run() }
        thread.name = "kiosk-playlog"
        thread.start()
    }

    /// The log's file.
    public var path: String { store.path }

    /// A showing of `item` came on screen at `start`, the display side knowing `display`; the number its `end`
    /// names. Never waits.
    public func begin(_ item: ShowingItem, at start: Date, screenOn: Bool, display: ShowingDisplay? = nil) -> Showing {
        cond.lock()
        defer { cond.unlock() }
        let showing = nextShowing
        nextShowing += 1
        if queuedBegins >= capacity {
            droppedShowings.insert(showing)
            dropped += 1
        } else {
            enqueue(.begin(showing, item, start, screenOn: screenOn, display: display))
            queuedBegins += 1
        }
        return showing
    }

    /// Showing `showing` left the screen at `end` after `length` seconds, `screenOff` of them with the screen off.
    /// `display`: what the display side knew at the showing's worst moment (nil: what its start knew stays).
    /// Never waits; never dropped when its start was not.
    public func end(_ showing: Showing, at end: Date, reason: String, length: Double, screenOff: Double, display: ShowingDisplay? = nil) {
        cond.lock()
        defer { cond.unlock() }
        if droppedShowings.remove(showing) != nil { return }
        enqueue(.end(showing, end, reason: reason, length: length, screenOff: screenOff, display: display))
    }

    /// Keeps a proof thumbnail (a showing's `display.thumb` names its hash): written once per distinct picture,
    /// dropped when the queue is full (the showing still names its hash).
    public func thumbnail(_ thumb: ProofThumbnail) { enqueueSpare(.thumb(thumb)) }

    /// The showings on screen are still on at `now` (dropped when the queue is full: the next one says the same).
    public func heartbeat(at now: Date) { enqueueSpare(.heartbeat(now)) }

    /// Removes the showings that ended before `date` (`days` old, for the line that says how many).
    public func prune(before date: Date, days: Double) { enqueueSpare(.prune(before: date, days: days)) }

    /// Signs the chain's head with the screen's key now (on demand; done each day and at `finish` anyway): written at
    /// once with what is queued, not after the batch's seconds. Never waits.
    public func signHead() { enqueueSpare(.sign, urgent: true) }

    private func enqueueSpare(_ event: Event, urgent now: Bool = false) {
        cond.lock()
        defer { cond.unlock() }
        guard queue.count < capacity else { return }
        enqueue(event)
        if now { urgent = true }
    }

    /// Appends `event` (under `cond`) and wakes the writer.
    private func enqueue(_ event: Event) {
        if queue.isEmpty { queuedSince = Date() }
        queue.append(event)
        cond.broadcast()
    }

    /// When the queue is to be written (under `cond`): at once when it is urgent, full or held up (trying again),
    /// else `batch` seconds after its oldest event; nil when it is empty.
    private var writeDue: Date? {
        guard !queue.isEmpty, let queuedSince else { return nil }
        if urgent || heldBecause != nil || queue.count >= Self.maxBatch { return .distantPast }
        return queuedSince.addingTimeInterval(batch)
    }

    /// Waits up to `timeout` seconds for every event handed over to be written (at the player's end); false, and
    /// one line saying how many showings were not written, when it could not be.
    @discardableResult
    public func flush(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        cond.lock()
        if !queue.isEmpty {
            urgent = true
            cond.broadcast()
        }
        while !queue.isEmpty, cond.wait(until: deadline) {}
        let (changes, showings, because) = (queue.count, queuedBegins, heldBecause)
        cond.unlock()
        let done = changes == 0
        if !done {
            log.warn("play log: \(store.path) not written within \(timeout) s (\(because ?? "still writing")); "
                     + "\(changes) change\(changes == 1 ? "" : "s") left, \(showings) of them new showings")
        }
        return done
    }

    /// Writes what is queued, waiting up to `timeout` seconds (as `flush`), then ends the thread: the player's end.
    /// What is handed over after it is not written.
    @discardableResult
    public func finish(timeout: Double) -> Bool {
        signHead()  // a clean stop leaves every chained row signed
        enqueueSpare(.closeRun, urgent: true)
        let done = flush(timeout: timeout)
        cond.lock()
        finishing = true
        cond.broadcast()
        cond.unlock()
        return done
    }

    private func run() {
        while true {
            cond.lock()
            let due = writeDue
            if !finishing, due.map({ $0 > Date() }) ?? true {
                // idle, or waiting for the batch: a second at most, so a deleted file is noticed
                _ = cond.wait(until: min(due ?? .distantFuture, Date(timeIntervalSinceNow: 1)))
            }
            if finishing {
                cond.unlock()
                return
            }
            let batch = (writeDue.map { $0 <= Date() } ?? false) ? Array(queue.prefix(Self.maxBatch)) : []
            cond.unlock()
            checkFile()
            if batch.isEmpty { continue }
            let (written, error) = write(batch)
            cond.lock()
            for event in queue.prefix(written) { if case .begin = event { queuedBegins -= 1 } }
            queue.removeFirst(written)
            if queue.isEmpty {
                queuedSince = nil
                urgent = false
            } else if written > 0 {
                queuedSince = Date()  // what came during the write waits its own batch
            }
            cond.broadcast()
            let droppedNow = dropped
            cond.unlock()
            if let error {
                held(error)
                Thread.sleep(forTimeInterval: retry)
            } else if written > 0 {
                resumed(dropped: droppedNow)
            }
        }
    }

    /// Writes `batch` in one transaction; how many of its events are done, and the failure that holds the rest up.
    /// A failure that trying again cannot mend (a damaged file) has the batch written one event at a time, leaving
    /// out those that fail.
    private func write(_ batch: [Event]) -> (written: Int, error: SQLiteError?) {
        let kept = (rows, endedSinceCheck, late)
        // only the last heartbeat of a batch says anything: the others are left out
        let lastBeat = batch.lastIndex { if case .heartbeat = $0 { true } else { false } }
        var unclean: PlayLog.UncleanRun?
        do throws(SQLiteError) {
            try store.tryBatch { () throws(SQLiteError) in
                for (i, event) in batch.enumerated() {
                    if case .heartbeat = event, i != lastBeat { continue }
                    if let u = try write(event) { unclean = u }
                }
            }
            leftOut = 0
            if let unclean { said(unclean) }
            return (batch.count, nil)
        } catch let e where e.isTransient {
            (rows, endedSinceCheck, late) = kept
            return (0, e)
        } catch {
            (rows, endedSinceCheck, late) = kept
        }
        var written = 0
        for event in batch {
            do throws(SQLiteError) {
                if let u = try write(event) { said(u) }
                written += 1
                leftOut = 0
            } catch let e where e.isTransient {
                return (written, e)
            } catch {
                if leftOut == 0 { log.warn("play log: cannot write \(error.description); such changes are left out") }
                leftOut += 1
                written += 1
            }
        }
        return (written, nil)
    }

    /// An earlier run that ended without closing the log: said once, at the start.
    private func said(_ run: PlayLog.UncleanRun) {
        guard run.batch > 0 else { return }  // each showing was written as it came: a crash's open rows say the rest
        log.info("play log: kiosk's last run (from \(run.started)) ended without closing the log after \(run.lastWritten); "
                 + "up to \(Int(saturating: run.batch.rounded(.up))) s of showings before it stopped are missing, a recorded break")
    }

    /// Writes one event; an earlier run found unclean when this run begins.
    private func write(_ event: Event) throws(SQLiteError) -> PlayLog.UncleanRun? {
        switch event {
        case .begin(let showing, let item, let start, let screenOn, let display):
            let row = try store.tryBegin(item, at: start, screenOn: screenOn, display: display)
            rows[showing] = (row, item, start, screenOn, display)
            if failing != nil { late += 1 }
        case .end(let showing, let end, let reason, let length, let screenOff, let display):
            guard let r = rows[showing] else { return nil }
            try store.tryEnd(r.row, at: end, reason: reason, length: length, screenOff: screenOff, display: display)
            rows[showing] = nil
            endedSinceCheck.append((r.item, r.start, r.screenOn, end, reason, length, screenOff, display ?? r.display))
        case .thumb(let thumb):
            try store.tryStore(thumb: thumb)
            if endedSinceCheck.count > capacity { endedSinceCheck.removeFirst() }
        case .heartbeat(let now):
            try store.tryHeartbeat(at: now)
        case .prune(let date, let days):
            let gone = try store.tryPrune(before: date)
            if gone > 0 { log.info("play log: \(gone) showings older than \(Int(saturating: days)) days removed") }
        case .sign:
            try store.trySignHead()
        case .openRun:
            return try store.tryOpenRun(batch: batch)
        case .closeRun:
            try store.tryCloseRun()
        }
        return nil
    }

    /// A write failed for a while: said once.
    private func held(_ error: SQLiteError) {
        guard failing == nil else { return }
        failing = error
        cond.lock()
        heldBecause = error.reason
        cond.unlock()
        log.warn("play log: waiting for \(store.path) (\(error.reason)); playback goes on, showings are written when it can be")
    }

    /// Writes work (again): said once, with what was late and what was dropped.
    private func resumed(dropped total: Int) {
        let droppedSince = total - reportedDrops
        guard failing != nil || droppedSince > 0 else { return }
        reportedDrops = total
        let what = failing != nil ? "writing to \(store.path) again" : "writing to \(store.path) fell behind"
        log.info("play log: \(what); \(late) showing\(late == 1 ? "" : "s") written late, \(droppedSince) dropped (the queue was full)")
        failing = nil
        late = 0
        cond.lock()
        heldBecause = nil
        cond.unlock()
    }

    /// A file deleted or replaced under the log is noticed before each batch and once a second while idle: a new one
    /// is begun, with the showings on screen in it and those that ended since the file was last seen in place.
    private func checkFile() {
        guard store.isGone else {
            endedSinceCheck.removeAll()
            return
        }
        do throws(SQLiteError) {
            try store.reopen()
            _ = try store.tryOpenRun(batch: batch)
            for r in endedSinceCheck {
                let row = try store.tryBegin(r.item, at: r.start, screenOn: r.screenOn, display: r.display)
                try store.tryEnd(row, at: r.end, reason: r.reason, length: r.length, screenOff: r.screenOff)
            }
            for (showing, r) in rows.sorted(by: { $0.key < $1.key }) {
                rows[showing]?.row = try store.tryBegin(r.item, at: r.start, screenOn: r.screenOn, display: r.display)
            }
            let ended = endedSinceCheck.count
            endedSinceCheck.removeAll()
            log.warn("play log: \(store.path) was deleted or replaced while kiosk wrote it; began a new one "
                     + "(\(rows.count) showing\(rows.count == 1 ? "" : "s") on screen"
                     + (ended > 0 ? " and \(ended) ended since written into it again)" : " written into it again)"))
        } catch {
            log.warn("play log: \(store.path) was deleted or replaced while kiosk wrote it, and a new one cannot be begun (\(error.reason))")
        }
    }
}
