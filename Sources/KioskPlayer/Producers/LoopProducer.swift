import KioskCore

/// A producer the frame loop asks once a turn, on the player's thread, with the player's clock: a schedule
/// (which must switch within a frame of a window's edge, on a virtual clock too), a watchdog. It answers with
/// commands to run now, and says when it next needs a turn, so a sleeping player wakes exactly then.
public protocol LoopProducer: AnyObject {
    /// Commands to run at `t` (player-clock seconds), before the inbox's.
    func turn(at t: Double) -> [PlayerCommand]
    /// The player-clock time of its next change, if it has one.
    var deadline: Double? { get }
}

extension Player {
    /// The longest a loop turn with nothing to do waits (idle, screen off, the grid at rest). The service
    /// watchdog is pinged from the loop at most once per half its time: turns a second apart could land just
    /// short of that and put the next ping near the watchdog's limit; a quarter second keeps pings within 1.25 s.
    static let longestWait = 0.25
}

extension Screen {
    /// `.screen(on:)`: powers the display and sets whether the loop sleeps.
    func setScreen(on: Bool) -> CommandReply {
        guard screenOff == on else { return .done() }
        if on { modes.pop(.screenOff, at: clock.now) } else { modes.push(modes.screenOff, as: .screenOff, at: clock.now) }
        if alertMode == nil { powerDisplay(on: on) }  // an alert keeps the display on until it ends
        log.info(on ? "screen on" : "screen off: sleeping until the next window")
        return .done()
    }

    /// Turns the display on or off (DPMS on a DRM display), and tells the observers (`.screenPower`): HDMI-CEC
    /// turns the TV on or sends it to standby by it.
    func powerDisplay(on: Bool) {
        do {
            try presenter?.output.setScreenPower(on: on)
        } catch {
            log.warn("screen power \(on ? "on" : "off"): \(error)")
        }
        publish([.screenPower(on: on)])
    }
}
