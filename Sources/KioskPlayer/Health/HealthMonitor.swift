import Foundation
import KioskCore
import KioskOutput

/// Gathers the health readings on its own thread, never on the frame loop: every `interval` seconds it reads the
/// machine (`MachineReadings`), the free space of the given folders, and each screen's displays (connector state,
/// EDID identity), late and dropped frames, decode failures and content checks, and leaves the report here; each
/// screen's status carries the latest (IPC's `kiosk-health`, `kiosk ctl health`, MQTT's `kiosk/ID/health`). Each
/// round also judges the health alerts (`HealthAlertTracker`): a raised one is a `warn` line, a cleared one an `info`
/// line, and each change waits here until the first screen's loop posts it as an event (IPC, MQTT). Thread-safe.
public final class HealthMonitor: @unchecked Sendable {
    /// What it reads and how often.
    public struct Settings: Sendable {
        /// Seconds between two rounds.
        public var interval = 10.0
        /// The sysfs and procfs root (`/`; a test's fake tree).
        public var root = "/"
        /// The folders whose free space is read, by what they hold (`cache`, `state`, `play log`).
        public var folders: [(name: String, path: String)] = []
        /// The health alerts' thresholds.
        public var alerts = HealthAlertRules()

        /// The defaults: every 10 s, the real tree, no folders, the default alerts.
        public init() {}
    }

    /// What the monitor reads of one screen (taken on the player's thread when it starts; each part thread-safe).
    /// The screen's own parts are held weakly: the monitor outlives the run, and must not keep a screen's decodes
    /// (and its clips' decoders, whose last line is said when they go) or its output alive after it.
    struct ScreenSource: @unchecked Sendable {
        let name: String
        let outputName: String
        let probe: DRMDisplayProbe?
        let frameTiming: FrameTiming?
        weak var cache: DecodeCache?
        weak var content: ContentControl?
        /// The board the screen posts its status to, each frame (thread-safe): whether the player has the screen on
        /// (`screen-power`) and its TV's power are read there.
        weak var board: PlayerBoard?
        let wake: () -> Void
    }

    private let settings: Settings
    private let machine: MachineReadings
    private let log: Log
    private let condition = NSCondition()
    private var latest: HealthReport?
    private var stopped = false
    private var sources: [ScreenSource] = []
    private var lastGoodCheck: [String: WallInstant] = [:]
    private var thread: Thread?
    /// The alerts that hold (the monitor's thread's).
    private var tracker: HealthAlertTracker
    /// The thresholds in force (`setAlertRules`), and new ones not yet handed to the tracker.
    private var rulesInForce: HealthAlertRules
    private var newRules: HealthAlertRules?
    /// Changes the first screen has not posted yet (under `condition`).
    private var unposted: [HealthAlertChange] = []
    /// The first screen's name: the one that posts the changes.
    private var firstScreen: String?
    /// The most changes kept for the first screen to post.
    static let unpostedLimit = 256

    /// A monitor with `settings`; nothing is read until `start`.
    public init(settings: Settings, log: Log) {
        self.settings = settings
        self.machine = MachineReadings(root: settings.root)
        self.log = log
        tracker = HealthAlertTracker(rules: settings.alerts)
        rulesInForce = settings.alerts
    }

    /// Judges by `rules` from the next round on (a reloaded config: SIGHUP); whether they differ from those in force.
    /// An alert they no longer raise is cleared once, as one whose condition ended.
    @discardableResult
    public func setAlertRules(_ rules: HealthAlertRules) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard rules != rulesInForce else { return false }
        rulesInForce = rules
        newRules = rules
        return true
    }

    /// The latest report; nil before the first round.
    public var report: HealthReport? {
        condition.lock()
        defer { condition.unlock() }
        return latest
    }

    /// The alert changes since the last call, for the screen `screen` to post as events: the first screen's (nil for
    /// any other, which leaves them to it). Call on the player's thread, after posting the status.
    public func takeAlertChanges(forScreen screen: String) -> [HealthAlertChange] {
        condition.lock()
        defer { condition.unlock() }
        guard screen == firstScreen, !unposted.isEmpty else { return [] }
        let due = unposted
        unposted.removeAll()
        return due
    }

    /// Starts reading `player`'s screens (call on the player's thread, after its outputs are attached): the first
    /// round at once, then every `interval` seconds, until `stop`.
    public func start(_ player: Player) {
        sources = player.screens.map { screen in
            let output = screen.presenter?.output
            return ScreenSource(name: screen.name, outputName: output?.name ?? "none", probe: output?.displayProbe,
                                frameTiming: output?.frameTiming, cache: screen.cache, content: screen.fetched.control,
                                board: screen.events.board, wake: { [weak output] in output?.wakeup() })
        }
        firstScreen = sources.first?.name
        log.info("health: every \(settings.interval) s; alerts: \(settings.alerts.summary)")
        player.services.health = self
        let t = Thread { [self] in loop() }
        t.name = "kiosk-health"
        t.qualityOfService = .utility
        thread = t
        t.start()
    }

    /// Ends the rounds (the one under way finishes).
    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func loop() {
        while true {
            var report = round(at: WallInstant(clamping: Date()), now: MonotonicClock.seconds())
            condition.lock()
            if let rules = newRules { tracker.rules = rules }
            newRules = nil
            condition.unlock()
            let changes = tracker.update(with: report)
            report.alerts = tracker.active
            for c in changes {
                if c.edge == .raised { log.warn(c.line) } else { log.info(c.line) }
            }
            condition.lock()
            latest = report
            if firstScreen != nil {  // bounded: a loop that stopped posting never holds more than the last ones
                unposted = Array((unposted + changes).suffix(Self.unpostedLimit))
            }
            condition.unlock()
            for s in sources { s.wake() }  // the next loop turn posts it with the status
            condition.lock()
            let until = Date(timeIntervalSinceNow: settings.interval)
            while !stopped, Date() < until { _ = condition.wait(until: until) }
            let done = stopped
            condition.unlock()
            if done { return }
        }
    }

    /// One round of readings at `time` (wall) and `now` (monotonic seconds).
    func round(at time: WallInstant, now: Double) -> HealthReport {
        var readings = machine.read(at: time)
        readings += MachineReadings.freeSpace(settings.folders, at: time)
        readings.append(HealthReading("version", text: KioskVersion.number, time: time))
        var displays: [DisplayHealth] = []
        for s in sources {
            displays += Self.displays(of: s, at: time)
            readings += screenReadings(s, at: time, now: now)
        }
        return HealthReport(time: time, readings: readings, displays: displays)
    }

    /// A screen's displays: each connector with its state and monitor; an output without displays as one entry
    /// saying so.
    static func displays(of s: ScreenSource, at time: WallInstant) -> [DisplayHealth] {
        guard let probe = s.probe else {
            return [DisplayHealth(screen: s.name, connector: s.outputName, state: "none",
                                  note: "no display: the \(s.outputName) output draws into memory", time: time)]
        }
        return probe.read().map { c in
            guard let bytes = c.edid else {
                return DisplayHealth(screen: s.name, connector: c.name, state: c.state, note: "no EDID", time: time)
            }
            do throws(EDIDIdentity.ParseError) {
                return DisplayHealth(screen: s.name, connector: c.name, state: c.state, monitor: try EDIDIdentity(parsing: bytes), time: time)
            } catch {
                return DisplayHealth(screen: s.name, connector: c.name, state: c.state, note: error.description, time: time)
            }
        }
    }

    /// A screen's TV power over HDMI-CEC as it last posted it (`tv-power`: `on`, `standby`, `to-on`, `to-standby` or
    /// `unknown`; `unknown` with a note without CEC). The alerts read `standby` as the TV being off.
    static func tvPower(_ status: PlayerStatus, screen: String, at time: WallInstant) -> HealthReading {
        var reading = HealthReading("tv-power", subject: screen, text: (status.tvPower ?? .unknown).rawValue, time: time)
        if status.tvPower == nil { reading.note = "no CEC: --cec off, or no adapter" }
        return reading
    }

    /// A screen's frames, decode failures, content checks and TV power.
    private func screenReadings(_ s: ScreenSource, at time: WallInstant, now: Double) -> [HealthReading] {
        var out: [HealthReading] = []
        if let status = s.board?.status {
            out.append(HealthReading("screen-power", subject: s.name, text: status.screenOn ? "on" : "off", time: time))
        }
        if let timing = s.frameTiming {
            let hour = timing.lastHour(now: now)
            out.append(HealthReading("frames-late", subject: s.name, value: Double(hour.late), unit: "per hour", time: time))
            out.append(HealthReading("frames-dropped", subject: s.name, value: Double(hour.dropped), unit: "per hour", time: time))
        } else {
            out.append(HealthReading("frames-late", subject: s.name, text: "not counted: \(s.outputName) has no page flips", time: time))
        }
        if let cache = s.cache {
            out.append(HealthReading("decode-failures", subject: s.name, value: Double(cache.failureCount), unit: "count", time: time))
        }
        if let content = s.content?.status, content.url != nil {
            if let check = content.lastCheck, content.result == .changed || content.result == .unchanged {
                lastGoodCheck[s.name] = check
            }
            out.append(HealthReading("content-result", subject: s.name, text: content.result.rawValue, time: time))
            if let good = lastGoodCheck[s.name] ?? content.fetched {
                out.append(HealthReading("content-last-good", subject: s.name, text: PlayReportQuery.text(good.date), time: time))
                out.append(HealthReading("content-age", subject: s.name,
                                         value: max(0, (time.secondsSince1970 - good.secondsSince1970).rounded()), unit: "s", time: time))
            }
        }
        if let status = s.board?.status { out.append(Self.tvPower(status, screen: s.name, at: time)) }
        return out
    }
}
