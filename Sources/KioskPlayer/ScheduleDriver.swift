import Foundation
import KioskCore

/// `--schedule FILE` in the frame loop: at each window's edge (to the frame, on the player's clock, so `record`
/// follows it on its virtual clock) it loads the window's folder or playlist in place of what plays, with the
/// normal transition, or turns the screen off until the next window. It sleeps between edges: its deadline is
/// the next one.
public final class ScheduleDriver: LoopProducer {
    private var schedule: Schedule
    private let timeZone: TimeZone
    private let wall: (Double) -> Date
    private let load: (String) -> [PlaylistItem]
    private var fallbackItems: [PlaylistItem]
    private let log: Log
    /// What plays now: the target (nil: the command line's paths); unset before the first turn.
    private var playing: ScheduleTarget??
    private var next: Double? = -.infinity
    /// A reload's new schedule and fallback (from another thread), taken at the next turn.
    private let lock = NSLock()
    private var pending: (Schedule, [PlaylistItem])?
    /// The next load is a reload: the item on screen stays when it is listed again.
    private var reloading = false

    /// A driver for `schedule` in `timeZone`; `wall` gives the local wall-clock instant at a player-clock time;
    /// `load` expands a folder or playlist into items; `fallbackItems` play when the schedule names no fallback.
    public init(schedule: Schedule, timeZone: TimeZone, wall: @escaping (Double) -> Date,
                fallbackItems: [PlaylistItem], log: Log, load: @escaping (String) -> [PlaylistItem]) {
        self.schedule = schedule
        self.timeZone = timeZone
        self.wall = wall
        self.fallbackItems = fallbackItems
        self.log = log
        self.load = load
    }

    /// The items the schedule plays at `t`, for the player to start with (so the first frame is already the
    /// scheduled content, not a switch); `off` starts with the command line's items, the screen turned off at
    /// the first turn.
    public func startingItems(at t: Double) -> [PlaylistItem] {
        let d = schedule.decision(at: wall(t), timeZone: timeZone)
        switch d.target {
        case .path(let p)?:
            playing = .some(.path(p))
            return load(p)
        case nil:
            playing = .some(nil)
            return fallbackItems
        case .off?:
            return fallbackItems
        }
    }

    public var deadline: Double? { next }

    /// A reloaded config's schedule and fallback items (SIGHUP; any thread): they apply at the next turn, and
    /// what plays is loaded again keeping the item on screen when it is still listed.
    public func reload(_ schedule: Schedule, fallback: [PlaylistItem]) {
        lock.lock()
        pending = (schedule, fallback)
        lock.unlock()
    }

    public func turn(at t: Double) -> [PlayerCommand] {
        lock.lock()
        if let (s, f) = pending {
            schedule = s
            fallbackItems = f
            playing = nil
            next = t
            reloading = true
            pending = nil
        }
        lock.unlock()
        guard let due = next, t >= due - 1e-9 else { return [] }
        let now = wall(t)
        let d = schedule.decision(at: now, timeZone: timeZone)
        next = d.nextChange.map { t + max(0, $0.timeIntervalSince(now)) }
        let target = d.target
        if let was = playing, was == target { return [] }
        playing = .some(target)
        let until = d.nextChange.map { " until " + Self.format($0, timeZone) } ?? ""
        switch d.action {
        case .off(let line):
            log.info("schedule: line \(line): screen off\(until)")
            return [.screen(on: false)]
        case .play(let path, let line):
            let items = load(path)
            log.info("schedule: line \(line): playing \(path) (\(items.count) item\(items.count == 1 ? "" : "s"))\(until)")
            return [.screen(on: true), .load(items, loadMode())]
        case .fallback(let path):
            let items = path.map(load) ?? fallbackItems
            log.info("schedule: \(d.clockValid ? "no rule applies" : "the clock is not set yet"): playing "
                     + "\(path ?? "the command line's paths")\(until)")
            return [.screen(on: true), .load(items, loadMode())]
        }
    }

    /// `.replace` at a window's edge; `.reload` once after a reload.
    private func loadMode() -> LoadMode {
        defer { reloading = false }
        return reloading ? .reload : .replace
    }

    static func format(_ date: Date, _ zone: TimeZone) -> String {
        let f = DateFormatter()
        f.timeZone = zone
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "EEE yyyy-MM-dd HH:mm:ss"
        return f.string(from: date)
    }
}

