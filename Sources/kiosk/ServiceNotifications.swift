import KioskCore
import KioskPlayer
import KioskSeat

extension SystemdNotifier {
    /// Follows `player` for the service manager: `WATCHDOG=1` from its frame loop (a hung loop is restarted), and
    /// `STATUS=` naming the item on screen, or saying that the player idles.
    func follow(_ player: Player) {
        player.onLoopTurn = { [self] in watchdog() }
        player.observe { [self] event in
            switch event {
            case .itemStarted(_, let path, _): status("showing \(path)")
            case .idle: status("idle: nothing to play")
            default: break
            }
        }
    }
}
