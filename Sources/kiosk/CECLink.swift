import Foundation
import KioskCEC
import KioskCore
import KioskPlayer

/// `kiosk play`'s HDMI-CEC: the adapter `--cec` picks, claimed as a playback device once the player (and so the
/// display) is open, and a controller that follows the screen's power and hands the TV remote's keys to the
/// player's inbox.
final class CECLink {
    private let option: String
    private let settings: CECSettings
    private let log: Log
    private var controller: CECController?

    /// The settings the options give (a bad one is a usage error); nil with `--cec off`, or with `auto` on the
    /// headless canvas (no TV there; a path named is still used).
    init?(_ o: ParsedOptions, headless: Bool, log: Log) throws {
        let option = o.string("cec") ?? "auto"
        if !["auto", "off"].contains(option), !option.hasPrefix("/") {
            throw UsageError("--cec: '\(option)' is not auto, off or a /dev/cecN path")
        }
        var s = CECSettings()
        s.osdName = try CommandSpecs.cecName(from: o)
        s.sendsStandby = o.string("cec-standby") != "none"
        s.followsStandby = o.string("cec-follow-standby") != "ignore"
        guard option != "off", !(option == "auto" && headless) else { return nil }
        self.option = option
        settings = s
        self.log = log
    }

    /// Opens the adapter for `player`'s display and starts following it. Without an adapter, one info line.
    func start(_ player: Player) {
        guard let adapter = CECAdapterChoice.open(option, connector: player.drmConnector, log: log) else { return }
        do {
            try adapter.claim(osdName: settings.osdName)
        } catch {
            log.info("cec: \(error); the screen's power is DPMS alone")
            return
        }
        let c = CECController(bus: adapter, settings: settings, sink: player.inbox, log: log)
        player.observe { event in
            if case .screenPower(let on) = event { c.screen(on: on) }
        }
        player.inbox.send(.tvPower(.unknown), reply: nil)
        c.start(screenOn: player.isScreenOn)
        controller = c
    }

    func stop() { controller?.stop() }
}
