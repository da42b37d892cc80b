import Foundation
import KioskCore
import KioskPlayLog

/// Writes the player's showings to a `PlayLog` on the player's thread and clock (a recording's virtual clock
/// too, so a recording's rows are the same each time): a row when an item comes on screen and its end when it
/// leaves, with the time the screen was off during it; a heartbeat every 10 s; old rows pruned once a day.
/// The slideshow's showings are region `main`; a layout's are each region's (`.regionShowing`), its SMIL file and
/// element with them, and what an interrupt replaces ends `interrupted` (it starts again, a new row, on resume).
public final class PlayerPlayLog: LoopProducer {
    private let store: PlayLog
    private unowned let player: Player
    private let keepDays: Double
    /// The showing open now: its row, and the screen's off time within it.
    private typealias Open = (row: Int64, path: String, start: Double, offSince: Double?, off: Double, interrupt: Bool)
    private var open: Open?
    /// A layout's open showings, by region.
    private var regions: [String: Open] = [:]
    private var screenOff = false
    private var nextBeat = 0.0
    private var nextPrune = 0.0
    /// Seconds between heartbeats.
    static let beat = 10.0

    /// Logs `player`'s showings into `store`, keeping `keepDays` days.
    public init(store: PlayLog, player: Player, keepDays: Double) {
        self.store = store
        self.player = player
        self.keepDays = keepDays
        player.observe { [unowned self] event in handle(event) }
        player.producers.append(self)
        countToday(at: player.clock.now)
    }

    private var now: Double { player.clock.now }
    private func wall(_ t: Double) -> Date { player.wallClock.at(t) }

    private func handle(_ event: PlayerEvent) {
        let t = now
        switch event {
        case .itemStarted(let id, let path, _):
            close(reason: "skipped", at: t)  // an end always comes first; this is a guard
            let kind = player.cache.item(id)?.info.kind.rawValue ?? (Player.isPictureName(path) ? "image" : "video")
            if let row = store.begin(ShowingItem(path: path, kind: kind), at: wall(t), screenOn: !screenOff) {
                open = (row, path, t, screenOff ? t : nil, 0, false)
            }
        case .itemEnded(_, let path, let reason):
            guard open?.path == path else { return }
            close(reason: player.alertMode != nil && reason == .skipped ? "interrupted" : reason.rawValue, at: t)
        case .regionShowing(let change):
            let reason = change.interrupt && regions[change.region]?.interrupt == false ? "interrupted" : "eof"
            if let o = regions.removeValue(forKey: change.region) { finish(o, reason: reason, at: t) }
            guard let path = change.path else { return }
            let item = ShowingItem(path: path, kind: change.kind, region: change.region, layout: change.layout, element: change.element)
            if let row = store.begin(item, at: wall(t), screenOn: !screenOff) {
                regions[change.region] = (row, path, t, screenOff ? t : nil, 0, change.interrupt)
            }
        case .screenPower(let on):
            screenOff = !on
            func mark(_ o: inout Open) {
                if on, let since = o.offSince { o.off += t - since; o.offSince = nil } else if !on, o.offSince == nil { o.offSince = t }
            }
            if var o = open { mark(&o); open = o }
            for (name, var o) in regions { mark(&o); regions[name] = o }
        case .shutdown:
            close(reason: "quit", at: t)
            for o in regions.values { finish(o, reason: "quit", at: t) }
            regions = [:]
        default:
            break
        }
    }

    private func close(reason: String, at t: Double) {
        guard let o = open else { return }
        open = nil
        finish(o, reason: reason, at: t)
    }

    private func finish(_ o: Open, reason: String, at t: Double) {
        let off = o.off + (o.offSince.map { t - $0 } ?? 0)
        store.end(o.row, at: wall(t), reason: reason, length: t - o.start, screenOff: off)
        countToday(at: t)
    }

    /// Today's figures (the local day of the player's wall clock) into the player's status.
    private func countToday(at t: Double) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = player.wallClock.zone
        let midnight = calendar.startOfDay(for: wall(t))
        let c = calendar.dateComponents([.year, .month, .day], from: midnight)
        guard let day = CivilDate(year: c.year ?? 0, month: c.month ?? 0, day: c.day ?? 0),
              let totals = store.totals(since: midnight) else { return }
        player.playStats = PlayStats(day: day.description, showings: totals.showings, seconds: totals.seconds)
    }

    public func turn(at t: Double) -> [PlayerCommand] {
        if t >= nextBeat {
            nextBeat = t + Self.beat
            if open != nil || !regions.isEmpty { store.heartbeat(at: wall(t)) }
        }
        if t >= nextPrune {
            nextPrune = t + 86_400
            let gone = store.prune(before: wall(t).addingTimeInterval(-keepDays * 86_400))
            if gone > 0 { player.log.info("play log: \(gone) showings older than \(Int(keepDays)) days removed") }
        }
        return []
    }

    public var deadline: Double? { open != nil || !regions.isEmpty ? nextBeat : nextPrune }
}
