import Foundation
import KioskCore

/// Keeps `kiosk play`'s state on disk while it plays. It is one more reader of the player's board, on its own
/// thread: it looks at the latest status at most ten times a second and saves what someone asked for (volume,
/// mute, pause, an alert) at once, what the player does by itself at most every `movePeriod` (the next item) or
/// `positionPeriod` (a long clip's position), and once more at the end of the run. Each save is a new file,
/// fsynced with its folder: at a still every 2 s, saving each item wrote 16 MiB an hour, which wears out an SD
/// card; a restart after a power cut continues from an item at most five minutes old. The frame loop never waits
/// for the disk: a slow save only means the next look sees a newer status, so only the latest state is ever
/// written. A failed save is one warn line (again only when the reason changes) and the player goes on; until
/// one works again, every change is tried at once.
public final class StateKeeper: @unchecked Sendable {
    /// Seconds of a long clip's position that count as a move (a seek this far is saved with the next save).
    public static let clipPeriod = 10.0
    /// Seconds between two saves of what the player does by itself (the next item); what someone asked for is
    /// saved at once.
    public static let movePeriod = 300.0
    /// Seconds between two saves of a long clip's position as it plays (a restart replays at most this much).
    public static let positionPeriod = 60.0
    /// Seconds between looks at the board (changes within one are saved together).
    static let lookInterval = 0.1

    /// The store it saves to.
    public let store: StateStore
    /// The state found at start, if any: the player continues from it.
    public let restored: PlayerState?
    private let log: Log
    private let signal = NSCondition()
    private var woken = false
    private var stopping = false
    private var running = false

    /// A keeper of the state in `store`; the saved state is loaded now (a bad file: one warn line, none).
    public init(store: StateStore, log: Log) {
        self.store = store
        self.log = log
        restored = store.load()
    }

    /// The keeper for `kiosk play`: the folder named (`--state-dir`) or the standard one (`StateDirectory`),
    /// made (0700) and proven writable. A folder that cannot be had is one warn line, and nil: the player runs
    /// without keeping its state.
    public static func open(directory: String?, environment: [String: String], log: Log) -> StateKeeper? {
        guard let folder = directory ?? StateDirectory.standard(environment: environment, canWrite: canWrite) else {
            log.warn("state: no folder to keep it in (no STATE_DIRECTORY, \(StateDirectory.system) not writable, no HOME); "
                     + "playing without saving where it is")
            return nil
        }
        let store = StateStore(directory: folder, log: log)
        do {
            try store.prepare()
        } catch {
            log.warn("state: \(error.description); playing without saving where it is")
            return nil
        }
        log.info("state: kept in \(store.file)")
        return StateKeeper(store: store, log: log)
    }

    /// Whether this user can write `folder`, or create it in its parent.
    static func canWrite(_ folder: String) -> Bool {
        var st = stat()
        let exists = FileName.withCString(folder) { stat($0, &st) } == 0
        let target = exists ? folder : (folder as NSString).deletingLastPathComponent
        return FileName.withCString(target) { access($0, W_OK | X_OK) } == 0
    }

    /// Follows `player` from now on. Call once the player's board is final (after a remote-control server took
    /// it over), before it runs.
    public func keep(_ player: Player) {
        let subscription = player.board.subscribe(wake: { [weak self] in self?.wake() })
        // the screens after the first: each one's item and pause go in the file's `screens`
        let others = player.screenNames.dropFirst().compactMap { name in
            player.board(forScreen: name).map { (name, $0.subscribe(wake: { [weak self] in self?.wake() })) }
        }
        let book = player.resume
        signal.lock()
        running = true
        signal.unlock()
        let thread = Thread { [self] in follow(subscription, others: others, book: book) }
        thread.name = "kiosk-state"
        thread.start()
    }

    /// Writes the last state (the run has ended) and stops, waiting at most `timeout` seconds for the disk.
    public func finish(timeout: Double = 3) {
        signal.lock()
        defer { signal.unlock() }
        stopping = true
        signal.broadcast()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while running {
            if !signal.wait(until: deadline) {
                log.warn("state: the last save did not finish in \(timeout) s")
                return
            }
        }
    }

    /// Called on the player's thread when the board has news: only raises the signal.
    private func wake() {
        signal.lock()
        woken = true
        signal.signal()
        signal.unlock()
    }

    /// The keeper's thread: look, save when due, rest, until the run ends.
    private func follow(_ subscription: BoardSubscription, others: [(String, BoardSubscription)], book: ResumeBook) {
        var status: PlayerStatus?
        var screens: [String: PlayerStatus] = [:]
        var last = restored
        var failure: String?
        var savedAt = -Double.infinity  // monotonic seconds of the last save that worked
        var pending: Double?  // when a move not saved yet is due (monotonic seconds)
        while true {
            let stop = waitForNews(until: pending)
            let (events, fresh) = subscription.take()
            if let fresh { status = fresh }
            for (name, other) in others {
                if let fresh = other.take().1 { screens[name] = fresh }
            }
            let ending = stop || events.contains(.shutdown)
            if let status {
                let next = (last ?? PlayerState()).following(status, resume: book.positions, savedAt: Date().timeIntervalSince1970,
                                                              screens: screens)
                var due = ending ? next.differs(from: last)
                    : next.needsSaving(since: last, period: Self.clipPeriod, longClip: ResumeBook.minimumLength)
                // a move waits for its period, unless the last save failed (the file on disk is older still)
                let now = MonotonicClock.seconds()
                if due, !ending, failure == nil, let last, next.onlyMovedOn(from: last) {
                    let period = next.path == last.path ? Self.positionPeriod : Self.movePeriod
                    if now - savedAt < period {
                        due = false
                        pending = savedAt + period
                    }
                }
                if due {
                    failure = save(next, failedBefore: failure)
                    last = next  // a failed save is tried again at the next change, not at every look
                    pending = nil
                    if failure == nil { savedAt = now }
                }
            }
            if ending { break }
            rest()
        }
        subscription.cancel()
        for (_, other) in others { other.cancel() }
        signal.lock()
        running = false
        signal.broadcast()
        signal.unlock()
    }

    /// Saves `state`; returns the failure, told once per reason.
    private func save(_ state: PlayerState, failedBefore: String?) -> String? {
        do {
            try store.save(state)
            if failedBefore != nil { log.info("state: saving works again (\(store.file))") }
            return nil
        } catch {
            if error.description != failedBefore { log.warn("state: not saved: \(error.description); playing on") }
            return error.description
        }
    }

    /// Waits until the board has news, a stop is asked for, or `until` (monotonic seconds: a move's save is due)
    /// passes; returns whether to stop.
    private func waitForNews(until: Double?) -> Bool {
        signal.lock()
        defer { signal.unlock() }
        while !woken && !stopping {
            guard let until else {
                signal.wait()
                continue
            }
            let left = until - MonotonicClock.seconds()
            if left <= 0 || !signal.wait(until: Date(timeIntervalSinceNow: left)) { break }
        }
        woken = false
        return stopping
    }

    /// Lets a tenth of a second pass (a stop cuts it short), so that a status posted every frame is looked at
    /// ten times a second, not sixty.
    private func rest() {
        signal.lock()
        defer { signal.unlock() }
        let until = Date(timeIntervalSinceNow: Self.lookInterval)
        while !stopping && signal.wait(until: until) {}
    }
}
