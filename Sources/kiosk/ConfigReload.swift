import Foundation
import KioskCore
import KioskMedia
import KioskPlayer

/// SIGHUP: reads the command line's config again (the same arguments, `--config FILE` read anew), and sends the
/// running player what changed: the playlist (the item on screen stays, with no transition, when it is still
/// listed), the schedule, the slideshow's settings (duration, transition, loop, shuffle, effect) and the health
/// alerts' thresholds (`--health-alert-*`, from the next health round). A config
/// that no longer parses changes nothing: one warn line naming the file and line, and kiosk plays on. With several
/// screens (`--screen`, `[screen NAME]` sections) each screen gets its own source and section's settings.
final class ConfigReload: @unchecked Sendable {
    private let raw: [String]
    private let log: Log
    private let schedule: ScheduleDriver?
    private let health: HealthMonitor?
    private let lock = NSLock()
    private var inbox: CommandInbox?

    /// A reloader of `raw` (the play command's arguments before `--config` was expanded), which hands `health`
    /// the thresholds.
    init(raw: [String], schedule: ScheduleDriver?, health: HealthMonitor?, log: Log) {
        self.raw = raw
        self.schedule = schedule
        self.health = health
        self.log = log
    }

    /// Sends to `inbox` from now on.
    func attach(_ inbox: CommandInbox) {
        lock.lock()
        self.inbox = inbox
        lock.unlock()
    }

    /// Reads the config again and sends the changes.
    func reload() {
        lock.lock()
        let inbox = self.inbox
        lock.unlock()
        guard let inbox else { return log.warn("SIGHUP: the player is not running yet; nothing reloaded") }
        do {
            let expanded = try ConfigFile.expandScreens(raw, read: { FileAccess.contents($0).flatMap { String(data: $0, encoding: .utf8) } })
            let plans = try ScreenPlans.resolve(arguments: expanded.args, origins: expanded.origins, sections: expanded.sections)
            guard !plans.isEmpty else {
                let o: ParsedOptions
                let config: PlayerConfig
                let rules: HealthAlertRules
                do {
                    o = try ParsedOptions.parse(expanded.args, specs: CommandSpecs.play, command: "play")
                    config = try CommandSpecs.config(from: o)
                    try RenderChoices.validate(config)
                    rules = try HealthAlertRules(o)
                } catch let e as UsageError {
                    throw ConfigFile.locate(e, args: expanded.args, origins: expanded.origins)
                }
                let count = try send(o, config, to: nil, inbox: inbox, schedules: true)
                log.info("SIGHUP: reloaded: \(Self.items(count))\(schedule == nil ? "" : " and the schedule")\(applied(rules) ? " and the health thresholds" : "")")
                return
            }
            // several screens (issue 40): each its own source and section, the schedule the first screen's; every
            // screen checked before any is sent anything (a screen added or renamed since the start is the reply's
            // failure: the screens themselves are set at start)
            var rules: HealthAlertRules?  // the box's: the global options, as every screen's plan holds them
            for plan in plans {
                do {
                    try RenderChoices.validate(plan.config)
                    rules = try rules ?? HealthAlertRules(plan.options)
                } catch let e as UsageError {
                    throw ConfigFile.locate(e, args: plan.arguments, origins: plan.origins)
                }
            }
            for (i, plan) in plans.enumerated() {
                let count = try send(plan.options, plan.config, to: plan.name, inbox: inbox, schedules: i == 0)
                log.info("SIGHUP: reloaded screen \(plan.name): \(Self.items(count))")
            }
            if let rules, applied(rules) { log.info("SIGHUP: reloaded the health thresholds") }
        } catch let e as UsageError {
            log.warn("SIGHUP: not reloaded: \(e.message); playing on")
        } catch {
            log.warn("SIGHUP: not reloaded: \(error); playing on")
        }
    }

    /// Hands the health monitor `rules`; whether they changed what it judges by.
    private func applied(_ rules: HealthAlertRules) -> Bool {
        health?.setAlertRules(rules) == true
    }

    /// Sends screen `screen` (nil: the first) the playlist and the slideshow's settings `o` and `config` say (the
    /// schedule's reload instead of the playlist when `schedules` and one runs); the playlist's item count, nil for
    /// a URL (its content link goes on fetching it, and what it fetched plays on).
    private func send(_ o: ParsedOptions, _ config: PlayerConfig, to screen: String?, inbox: CommandInbox, schedules: Bool) throws -> Int? {
        let remote = o.positional.contains(where: ContentMap.isRemote)
        let items = remote ? [] : PlaylistLoader(log: log).load(o.positional)
        if remote {
            // nothing to load: the screen's content link keeps its URL
        } else if schedules, let schedule, let file = o.string("schedule") {
            schedule.reload(try ScheduleSetup.read(file), fallback: items, paths: o.positional)
        } else {
            inbox.send(.load(items, .reload), toScreen: screen)
        }
        inbox.send(.imageDuration(config.slideshow.duration), toScreen: screen)
        inbox.send(.transition(config.slideshow.transition, seconds: config.slideshow.transitionTime), toScreen: screen)
        inbox.send(.loop(config.slideshow.loop), toScreen: screen)
        inbox.send(.shuffle(config.slideshow.shuffle), toScreen: screen)
        inbox.send(.effect(config.effect), toScreen: screen)
        return remote ? nil : items.count
    }

    /// `3 items`, or what a URL's screen plays (nil).
    private static func items(_ count: Int?) -> String {
        count.map { "\($0) item\($0 == 1 ? "" : "s")" } ?? "its URL's content plays on (the settings reloaded)"
    }
}