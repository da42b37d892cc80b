import Foundation
import KioskCore
import KioskPlayLog

/// Writes the player's showings to a `PlayLog` with the player's clock (a recording's virtual clock too, so a
/// recording's rows are the same each time): a row when an item comes on screen and its end when it leaves, with
/// the time the screen was off during it (the display off, or the TV in standby over HDMI-CEC); a heartbeat every
/// 10 s; old rows pruned once a day. The rows are handed to a `PlayLogWriter`, whose thread writes them: nothing
/// here waits on the file (a lock another process holds, a full disk), and at the player's end what is left is
/// written within `flushTimeout` seconds. Today's figures for the status are counted here, not read back.
///
/// The slideshow's showings are region `main`; a layout's are each region's (`.regionShowing`), its SMIL file and
/// element with them, and what a layout's interrupt replaces ends `interrupted`. An emergency alert ends every
/// showing on screen as `interrupted` and is a showing itself (kind `alert`); when it goes, what it covered starts
/// again, each a new row.
public final class PlayerPlayLog: LoopProducer {
    private let writer: PlayLogWriter
    /// What the player's screens share: its wall clock and producers, where today's figures go.
    private unowned let services: PlayerServices
    /// The player's clock.
    private let clock: Clock
    private let keepDays: Double
    /// A showing on screen: the writer's number for it, and the screen's off time within it.
    private struct Open {
        let row: PlayLogWriter.Showing
        let item: ShowingItem
        /// The path as the player named it.
        let path: String
        let start: Double
        /// What the display side knew at the showing's worst moment so far (`ShowingDisplay.worse`).
        var display: ShowingDisplay
        var offSince: Double?
        var off = 0.0
        /// Begun by a layout's interrupt.
        let interrupt: Bool
    }
    /// One screen's showings: what is on it and what an alert covers, and whether it is off.
    private final class ScreenShowings {
        /// The screen's name, on each of its rows.
        let name: String
        /// Its decodes (what a showing's kind is read from).
        let cache: DecodeCache
        /// What is on screen, by region (`main` for the slideshow, `alert` for an alert).
        var open: [String: Open] = [:]
        /// What an alert covers, by region: shown again (new rows) when it goes.
        var covered: [String: (item: ShowingItem, path: String, interrupt: Bool)] = [:]
        var alertOn = false
        var displayOff = false
        var tvOff = false
        /// The TV's power as CEC last said it (`unknown` before it says, and without CEC).
        var cecPower = TVPower.unknown.rawValue
        /// Its displays as the health monitor last read them: connector state and EDID identity.
        var connector: (state: String, id: String?)
        /// The time of the health report `connector` was read from.
        var readAt: WallInstant?
        /// Where its frames are drawn: each showing's proof thumbnail is read from the first frame drawn with it.
        weak var presenter: FramePresenter?
        /// Whether the display is off or the TV in standby.
        var isOff: Bool { displayOff || tvOff }

        /// `hasDisplay`: whether its output has displays to probe (a headless one has `none`).
        init(name: String, cache: DecodeCache, hasDisplay: Bool) {
            self.name = name
            self.cache = cache
            connector = (hasDisplay ? "unknown" : "none", nil)
        }

        /// What the display side knows now.
        var display: ShowingDisplay {
            ShowingDisplay(state: connector.state, id: connector.id, cecPower: cecPower, screenOff: displayOff)
        }
    }
    /// Every screen's, in the player's order.
    private var screens: [ScreenShowings] = []
    /// How many screens have shut down: the writer finishes with the last.
    private var shutDown = 0
    private var nextBeat = 0.0
    /// The thumbnails handed to the writer (their hashes), not handed again.
    private var thumbsKept: Set<String> = []
    /// The most hashes `thumbsKept` holds.
    static let thumbsRemembered = 4096
    private var nextPrune = 0.0
    /// Today's showings that ended (the local day of the player's wall clock), from the log as it was opened and
    /// from this player since.
    private var today: (day: String, midnight: Date, showings: Int, seconds: Double)?
    /// Seconds between heartbeats.
    static let beat = 10.0
    /// Seconds the player's end waits for the rows to be written: well inside the 1.5 s in which a stop signal
    /// must end the loop (`StopWatchdog.grace`; 3 s here had a SIGTERM on a full disk end as "frame loop stuck",
    /// exit 143), and enough for four of the writer's retries.
    static let flushTimeout = 1.0

    /// Logs the showings of each of `player`'s screens (each row naming its screen) into `store` through a writer
    /// thread of its own, keeping `keepDays` days. Today's figures so far are read from `store` once, here, as
    /// the writer takes it.
    /// `batch`: seconds of showings the writer holds and writes together (`PlayLogWriter`).
    public init(store: PlayLog, player: Player, keepDays: Double, batch: Double = 0) {
        services = player.services
        clock = player.screen.clock
        self.keepDays = keepDays
        let day = Self.day(of: services.wallClock.at(clock.now), zone: services.wallClock.zone)
        writer = PlayLogWriter(store: store, log: services.log, countingSince: day?.1, batch: batch)
        if let (day, midnight) = day {
            let totals = writer.totalsAtStart ?? (0, 0)
            today = (day, midnight, totals.showings, totals.seconds)
        }
        for screen in player.screens {
            let showings = ScreenShowings(name: screen.name, cache: screen.cache, hasDisplay: screen.presenter?.output.displayProbe != nil)
            showings.presenter = screen.presenter
            screens.append(showings)
            screen.events.observe { [unowned self] event in handle(event, on: showings) }
        }
        services.producers.append(self)
        countToday(at: clock.now, adding: nil)
    }

    /// Asks the writer to sign the chain's head now (a remote's `sign-play-log`): callable from any thread, never
    /// waits; the signature is written on the writer's thread, at once rather than after the batch.
    public var signOnDemand: @Sendable () -> Void {
        let writer = self.writer
        return { writer.signHead() }
    }

    private var now: Double { clock.now }
    private func wall(_ t: Double) -> Date { services.wallClock.at(t) }

    private func handle(_ event: PlayerEvent, on s: ScreenShowings) {
        let t = now
        switch event {
        case .itemStarted(let id, let path, _):
            close("main", reason: "skipped", at: t, on: s)  // an end always comes first; this is a guard
            let kind = s.cache.item(id)?.info.kind.rawValue ?? (Player.isPictureName(path) ? "image" : "video")
            show(ShowingItem(path: path, kind: kind, screen: s.name), path: path, interrupt: false, at: t, on: s)
        case .itemEnded(_, let path, let reason):
            if s.covered["main"]?.path == path { s.covered["main"] = nil }  // it ended beneath the alert: not shown again
            guard s.open["main"]?.path == path else { return }
            close("main", reason: reason.rawValue, at: t, on: s)
        case .regionShowing(let change):
            let reason = change.interrupt && s.open[change.region]?.interrupt == false ? "interrupted" : "eof"
            close(change.region, reason: reason, at: t, on: s)
            if s.alertOn { s.covered[change.region] = nil }
            guard let path = change.path else { return }
            show(ShowingItem(path: path, kind: change.kind, region: change.region, layout: change.layout, element: change.element, screen: s.name),
                 path: path, interrupt: change.interrupt, at: t, on: s)
        case .alert(let alert):
            if let alert { alertBegins(ShowingItem(alert: alert.text, screen: s.name), at: t, on: s) } else { alertEnds(at: t, on: s) }
        case .screenPower(let on):
            setScreen(display: !on, tv: s.tvOff, at: t, on: s)
        case .tvPower(let power):
            // standby, or going there; an unknown status leaves what was known
            if power != .unknown { s.cecPower = power.rawValue }
            setScreen(display: s.displayOff, tv: power == .unknown ? s.tvOff : power == .standby || power == .toStandby, at: t, on: s)
        case .shutdown:
            for region in s.open.keys.sorted() { close(region, reason: "quit", at: t, on: s) }
            s.covered = [:]
            shutDown += 1
            if shutDown == screens.count { writer.finish(timeout: Self.flushTimeout) }  // the last screen's end
        default:
            break
        }
    }

    /// `item` comes on screen in its region (beneath an alert it waits for the alert to go).
    private func show(_ item: ShowingItem, path: String, interrupt: Bool, at t: Double, on s: ScreenShowings) {
        if s.alertOn, item.kind != "alert" {
            s.covered[item.region] = (item, path, interrupt)
            return
        }
        let display = s.display
        let row = writer.begin(item, at: wall(t), screenOn: !s.isOff, display: display)
        s.open[item.region] = Open(row: row, item: item, path: path, start: t, display: display, offSince: s.isOff ? t : nil,
                                   interrupt: interrupt)
        let region = item.region
        s.presenter?.thumbnail { [weak self, weak s] image in
            guard let self, let s, let image else { return }
            self.keep(ProofThumbnails.thumbnail(of: image), forRow: row, region: region, on: s)
        }
    }

    private func close(_ region: String, reason: String, at t: Double, on s: ScreenShowings) {
        guard let o = s.open.removeValue(forKey: region) else { return }
        let off = o.off + (o.offSince.map { t - $0 } ?? 0)
        writer.end(o.row, at: wall(t), reason: reason, length: t - o.start, screenOff: off, display: o.display)
        countToday(at: t, adding: (wall(o.start), PlayLog.onScreen(length: t - o.start, screenOff: off)))
    }

    /// An alert over the screen: what showed ends `interrupted` (to show again after); a new alert replaces one on
    /// screen (which ends `skipped`).
    private func alertBegins(_ item: ShowingItem, at t: Double, on s: ScreenShowings) {
        if s.alertOn {
            close("alert", reason: "skipped", at: t, on: s)
        } else {
            for (region, o) in s.open.sorted(by: { $0.key < $1.key }) {
                s.covered[region] = (o.item, o.path, o.interrupt)
                close(region, reason: "interrupted", at: t, on: s)
            }
        }
        s.alertOn = true
        show(item, path: item.path, interrupt: false, at: t, on: s)
    }

    /// The alert goes: it ends `eof`, and what it covered shows again.
    private func alertEnds(at t: Double, on s: ScreenShowings) {
        guard s.alertOn else { return }
        close("alert", reason: "eof", at: t, on: s)
        s.alertOn = false
        for (_, c) in s.covered.sorted(by: { $0.key < $1.key }) { show(c.item, path: c.path, interrupt: c.interrupt, at: t, on: s) }
        s.covered = [:]
    }

    /// The screen is off while the display is off or the TV is in standby; open showings count the time.
    private func setScreen(display: Bool, tv: Bool, at t: Double, on s: ScreenShowings) {
        let wasOff = s.isOff
        s.displayOff = display
        s.tvOff = tv
        witness(s)
        guard s.isOff != wasOff else { return }
        for (region, var o) in s.open {
            if s.isOff {
                o.offSince = t
            } else if let since = o.offSince {
                o.off += t - since
                o.offSince = nil
            }
            s.open[region] = o
        }
    }

    /// The local day of `date` in `zone` (`2026-12-24`) and its midnight.
    private static func day(of date: Date, zone: TimeZone) -> (String, Date)? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let midnight = calendar.startOfDay(for: date)
        let c = calendar.dateComponents([.year, .month, .day], from: midnight)
        guard let day = CivilDate(year: c.year ?? 0, month: c.month ?? 0, day: c.day ?? 0) else { return nil }
        return (day.description, midnight)
    }

    /// Today's figures (the local day of the player's wall clock) into the player's status, with a showing that
    /// ended (its start and seconds on screen) counted when it started today.
    private func countToday(at t: Double, adding ended: (start: Date, seconds: Double)?) {
        guard let (day, midnight) = Self.day(of: wall(t), zone: services.wallClock.zone) else { return }
        if today?.day != day { today = (day, midnight, 0, 0) }  // a new day: only this player's showings are in it
        guard var figures = today else { return }
        if let ended, ended.start >= figures.midnight {
            figures.showings += 1
            figures.seconds += ended.seconds
            today = figures
        }
        services.playStats = PlayStats(day: day, showings: figures.showings, seconds: (figures.seconds * 1000).rounded() / 1000)
    }

    public func turn(at t: Double) -> [PlayerCommand] {
        if let report = services.health?.report { readDisplays(report) }
        if t >= nextBeat {
            nextBeat = t + Self.beat
            if isShowing { writer.heartbeat(at: wall(t)) }
        }
        if t >= nextPrune {
            nextPrune = t + 86_400
            writer.prune(before: wall(t).addingTimeInterval(-keepDays * 86_400), days: keepDays)
        }
        return []
    }

    public var deadline: Double? { isShowing ? nextBeat : nextPrune }

    /// Whether any screen shows something.
    private var isShowing: Bool { screens.contains { !$0.open.isEmpty } }

    /// Showing `row` (in `region` of `s`) began with `thumb` on screen: its hash goes into the row, and the picture,
    /// when it is one not kept yet, to the writer (once per distinct picture).
    private func keep(_ thumb: ProofThumbnail, forRow row: PlayLogWriter.Showing, region: String, on s: ScreenShowings) {
        let hash = thumb.hash
        if s.open[region]?.row == row, s.open[region]?.display.thumb == nil { s.open[region]?.display.thumb = hash }
        if thumbsKept.count >= Self.thumbsRemembered { thumbsKept.removeAll() }  // bounded: the table ignores a repeat anyway
        if thumbsKept.insert(hash).inserted { writer.thumbnail(thumb) }
    }

    /// Each open showing of `s` keeps the worse of what it knew and what the display side knows now
    /// (`ShowingDisplay.worse`).
    private func witness(_ s: ScreenShowings) {
        let now = s.display
        for (region, o) in s.open {
            let kept = o.display.worse(now)
            if kept != o.display { s.open[region]?.display = kept }
        }
    }

    /// Each screen's displays from the health monitor's latest round (read on its own thread; here only its
    /// cached report, under its lock), when it is a new one: a change makes the open showings' verdicts worse.
    private func readDisplays(_ report: HealthReport) {
        for s in screens where s.readAt != report.time {
            s.readAt = report.time
            let mine = report.displays.filter { $0.screen == s.name }
            guard !mine.isEmpty else { continue }
            s.connector = Self.connector(of: mine)
            witness(s)
        }
    }

    /// The state of a screen's displays together: `connected` (and that monitor) when one is, `none` when it has
    /// none (headless), `disconnected` when every one is, else `unknown`.
    static func connector(of displays: [DisplayHealth]) -> (state: String, id: String?) {
        if let on = displays.first(where: { $0.state == "connected" }) { return ("connected", on.monitor?.summary) }
        if displays.allSatisfy({ $0.state == "none" }) { return ("none", nil) }
        if displays.allSatisfy({ $0.state == "disconnected" }) { return ("disconnected", nil) }
        return ("unknown", nil)
    }
}
