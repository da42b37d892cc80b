import Foundation
import KioskCore
import KioskMedia
import KioskPlayer

/// SIGHUP: reads the command line's config again (the same arguments, `--config FILE` read anew), and sends the
/// running player what changed: the playlist (the item on screen stays, with no transition, when it is still
/// listed), the schedule, and the slideshow's settings (duration, transition, loop, shuffle, effect). A config
/// that no longer parses changes nothing: one warn line naming the file and line, and kiosk plays on.
final class ConfigReload: @unchecked Sendable {
    private let raw: [String]
    private let log: Log
    private let schedule: ScheduleDriver?
    private let lock = NSLock()
    private var inbox: CommandInbox?

    /// A reloader of `raw` (the play command's arguments before `--config` was expanded).
    init(raw: [String], schedule: ScheduleDriver?, log: Log) {
        self.raw = raw
        self.schedule = schedule
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
            let expanded = try ConfigFile.expandLocated(raw, read: { FileAccess.contents($0).flatMap { String(data: $0, encoding: .utf8) } })
            let o: ParsedOptions
            let config: PlayerConfig
            do {
                o = try ParsedOptions.parse(expanded.args, specs: CommandSpecs.play, command: "play")
                config = try CommandSpecs.config(from: o)
                try RenderChoices.validate(config)
            } catch let e as UsageError {
                throw ConfigFile.locate(e, args: expanded.args, origins: expanded.origins)
            }
            let items = PlaylistLoader(log: log).load(o.positional)
            if let schedule, let file = o.string("schedule") {
                schedule.reload(try ScheduleSetup.read(file), fallback: items, paths: o.positional)
            } else {
                inbox.send(.load(items, .reload))
            }
            inbox.send(.imageDuration(config.slideshow.duration))
            inbox.send(.transition(config.slideshow.transition, seconds: config.slideshow.transitionTime))
            inbox.send(.loop(config.slideshow.loop))
            inbox.send(.shuffle(config.slideshow.shuffle))
            inbox.send(.effect(config.effect))
            log.info("SIGHUP: reloaded: \(items.count) item\(items.count == 1 ? "" : "s")\(schedule == nil ? "" : " and the schedule")")
        } catch let e as UsageError {
            log.warn("SIGHUP: not reloaded: \(e.message); playing on")
        } catch {
            log.warn("SIGHUP: not reloaded: \(error); playing on")
        }
    }
}
