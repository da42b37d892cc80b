import Foundation
import KioskCEC
import KioskCore
import KioskPlayer

/// `kiosk play`'s HDMI-CEC: for each screen, the adapter its `cec` option picks, claimed as a playback device
/// once the player (and so the display) is open, and a controller that follows that screen's power and hands its
/// TV's remote keys and power reports to that screen. A player of one screen takes its adapter by
/// `CECAdapterChoice`'s rules; a player of several gives each screen its own (`CECScreenAdapters`: the one its
/// section names, else the one tied to its connector; one already taken, or none, is one line, and DPMS alone).
/// `cec-name`, `cec-standby` and `cec-follow-standby` are each screen's own too: each screen has its own TV.
final class CECLink {
    /// One screen's CEC options.
    struct Wanted {
        /// The screen's name.
        var screen: String
        /// `auto`, `off` or a path.
        var option: String
        /// How its controller behaves on its bus.
        var settings: CECSettings
    }

    private let wanted: [Wanted]
    private let log: Log
    private var controllers: [CECController] = []

    /// The settings the options give: `o`'s for the first screen (named `firstName`) and each further screen's own
    /// in `more` (a bad value is a usage error). Nil when no screen has CEC: `off`, or `auto` on the headless
    /// canvas (no TV there; a path named is still used).
    init?(_ o: ParsedOptions, firstName: String = "main", more: [ScreenPlan] = [], headless: Bool, log: Log) throws {
        var wanted: [Wanted] = []
        for (name, options) in [(firstName, o)] + more.map({ ($0.name, $0.options) }) {
            wanted.append(Wanted(screen: name, option: try CommandSpecs.cecAdapter(from: options), settings: try Self.settings(options)))
        }
        self.wanted = wanted.filter { $0.option != "off" && !($0.option == "auto" && headless) }
        guard !self.wanted.isEmpty else { return nil }
        self.log = log
    }

    /// How a controller with options `o` behaves.
    private static func settings(_ o: ParsedOptions) throws(UsageError) -> CECSettings {
        var s = CECSettings()
        s.osdName = try CommandSpecs.cecName(from: o)
        s.sendsStandby = o.string("cec-standby") != "none"
        s.followsStandby = o.string("cec-follow-standby") != "ignore"
        return s
    }

    /// Opens each screen's adapter and starts following its screen. Without an adapter, one info line.
    func start(_ player: Player) {
        guard player.screenNames.count > 1 else {
            guard let one = wanted.first,
                  let adapter = CECAdapterChoice.open(one.option, connector: player.drmConnector, log: log) else { return }
            follow(player, screen: nil, adapter: adapter, settings: one.settings, log: log)
            return
        }
        let wishes = wanted.map { CECScreenAdapters.Wish(screen: $0.screen, option: $0.option, connector: player.drmConnector(screen: $0.screen)) }
        var opened: [String: CECAdapter] = [:]
        var there: [CECScreenAdapters.Adapter]?
        if wishes.contains(where: { $0.option == "auto" && $0.connector != nil }) {
            there = CECAdapter.list().compactMap { path in
                do {
                    let adapter = try CECAdapter(path: path)
                    opened[path] = adapter
                    return CECScreenAdapters.Adapter(path: path, connector: adapter.connector)
                } catch {
                    log.info("cec: \(error)")
                    return nil
                }
            }
        }
        let outcomes = CECScreenAdapters.choose(wishes, adapters: there)
        for (screen, outcome) in zip(wanted, outcomes) {
            let screenLog = log.prefixed("screen \(screen.screen): ")
            switch outcome {
            case .none:
                continue
            case .refused(let line):
                screenLog.info(line)
            case .adapter(let path):
                let adapter: CECAdapter
                if let known = opened[path] {
                    adapter = known
                } else {
                    do {
                        adapter = try CECAdapter(path: path)
                    } catch {
                        screenLog.info("cec: \(error); the screen's power is DPMS alone")
                        continue
                    }
                }
                follow(player, screen: screen.screen, adapter: adapter, settings: screen.settings, log: screenLog)
            }
        }
    }

    /// Claims `adapter` and starts a controller that follows screen `screen`'s power (nil: the player's only
    /// screen) and sends its TV's keys and power there.
    private func follow(_ player: Player, screen: String?, adapter: CECAdapter, settings: CECSettings, log: Log) {
        do {
            try adapter.claim(osdName: settings.osdName)
        } catch {
            log.info("cec: \(error); the screen's power is DPMS alone")
            return
        }
        let sink: CommandSink = screen.map { player.commandSink(forScreen: $0) } ?? player.inbox
        let c = CECController(bus: adapter, settings: settings, sink: sink, log: log)
        // the observer holds the controller only (never the player or its screen: they would outlive the run)
        let observer: (PlayerEvent) -> Void = { event in
            if case .screenPower(let on) = event { c.screen(on: on) }
        }
        if let screen { player.observe(screen: screen, observer) } else { player.observe(observer) }
        sink.send(.tvPower(.unknown), reply: nil)
        c.start(screenOn: screen.flatMap { player.isScreenOn(screen: $0) } ?? player.isScreenOn)
        controllers.append(c)
    }

    func stop() { for c in controllers { c.stop() } }
}
