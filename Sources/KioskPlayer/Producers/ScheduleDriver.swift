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
    /// The command line's paths, loaded again each time the fallback starts (empty: `fallbackItems` as given).
    private var fallbackPaths: [String]
    /// Told what plays each time a target starts: its paths and the items loaded for them (folders to watch).
    private let onPlay: ([String], [PlaylistItem]) -> Void
    private let log: Log
    /// What plays now: the target (nil: the command line's paths); unset before the first turn.
    private var playing: ScheduleTarget??
    private var next: Double? = -.infinity
    /// A reload's new schedule and fallback (from another thread), taken at the next turn.
    private let lock = NSLock()
    private var pending: (Schedule, [PlaylistItem], [String])?
    /// The next load is a reload: the item on screen stays when it is listed again.
    private var reloading = false
    /// A target a remote chose (the fleet's `playlist` command; from another thread), started at the next turn.
    private var chosen: String?

    /// A driver for `schedule` in `timeZone`; `wall` gives the local wall-clock instant at a player-clock time;
    /// `load` expands a folder or playlist into items; `fallbackItems` play when the schedule names no fallback
    /// (loaded from `fallbackPaths`, which are loaded again each time the fallback comes back); `onPlay` hears
    /// of each target that starts (its paths and items), and of none while the screen is off.
    public init(schedule: Schedule, timeZone: TimeZone, wall: @escaping (Double) -> Date,
                fallbackItems: [PlaylistItem], fallbackPaths: [String] = [], log: Log,
                onPlay: @escaping ([String], [PlaylistItem]) -> Void = { _, _ in },
                load: @escaping (String) -> [PlaylistItem]) {
        self.schedule = schedule
        self.timeZone = timeZone
        self.wall = wall
        self.fallbackItems = fallbackItems
        self.fallbackPaths = fallbackPaths
        self.onPlay = onPlay
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
            return started([p], load(p))
        case nil:
            playing = .some(nil)
            return started(fallbackPaths, fallbackItems)
        case .off?:
            return fallbackItems
        }
    }

    /// Tells `onPlay` what starts; returns its items.
    private func started(_ paths: [String], _ items: [PlaylistItem]) -> [PlaylistItem] {
        onPlay(paths, items)
        return items
    }

    public var deadline: Double? { next }

    /// A reloaded config's schedule and fallback items (SIGHUP; any thread): they apply at the next turn, and
    /// what plays is loaded again keeping the item on screen when it is still listed.
    public func reload(_ schedule: Schedule, fallback: [PlaylistItem], paths: [String]) {
        lock.lock()
        pending = (schedule, fallback, paths)
        lock.unlock()
    }

    /// Plays the folder or playlist `path` (one of the schedule's targets, chosen by a remote; any thread) from the
    /// next turn until the schedule's next edge, as a window's target: its folders are watched and `onPlay` hears of
    /// it. The caller wakes the player (a command in its inbox does).
    public func choose(_ path: String) {
        lock.lock()
        chosen = path
        lock.unlock()
    }

    public func turn(at t: Double) -> [PlayerCommand] {
        lock.lock()
        if let (s, f, p) = pending {
            schedule = s
            fallbackItems = f
            fallbackPaths = p
            playing = nil
            next = t
            reloading = true
            pending = nil
        }
        let choice = chosen
        chosen = nil
        lock.unlock()
        if let choice {
            playing = .some(.path(choice))
            // The choice lasts until the schedule's next edge, also when it lands on the first turn or a reload's.
            let now = wall(t)
            next = schedule.decision(at: now, timeZone: timeZone).nextChange.map { t + max(0, $0.timeIntervalSince(now)) }
            let items = started([choice], load(choice))
            log.info("schedule: playing \(choice) on request (\(items.count) item\(items.count == 1 ? "" : "s")) until the next edge")
            return [.screen(on: true), .load(items, .replace)]
        }
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
            onPlay([], [])
            return [.screen(on: false)]
        case .play(let path, let line):
            let items = started([path], load(path))
            log.info("schedule: line \(line): playing \(path) (\(items.count) item\(items.count == 1 ? "" : "s"))\(until)")
            return [.screen(on: true), .load(items, loadMode())]
        case .fallback(let path):
            let items = path.map { started([$0], load($0)) }
                ?? started(fallbackPaths, fallbackPaths.isEmpty ? fallbackItems : fallbackPaths.flatMap(load))
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

    /// `date` as the schedule's log lines show it ("Thu 2026-12-24 09:00:00").
    public static func format(_ date: Date, _ zone: TimeZone) -> String {
        let f = DateFormatter()
        f.timeZone = zone
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "EEE yyyy-MM-dd HH:mm:ss"
        return f.string(from: date)
    }
}

