import Foundation
import KioskCore
import KioskFleet
import KioskPlayer

/// The ways in from outside that `play` and `record` share: mpv's JSON IPC on a Unix socket and an MQTT fleet
/// client, both reading one board. Bound before the player starts (a bad flag, a socket another server holds or a
/// bad TLS file fails at once); attached to the player once it runs.
struct RemoteLinks {
    /// The board every reader reads: IPC, MQTT and the state file.
    let board = PlayerBoard()
    /// The play log as IPC's `play-report` and MQTT's `stats` read it, once it is open (`PlayLogRemote.connect`).
    let reports = PlayReports()
    let ipc: RemoteControl?
    let fleet: FleetClient?

    /// Binds what the options ask for; neither without `--input-ipc-server` and `--mqtt`.
    init(_ o: ParsedOptions, log: Log) throws {
        ipc = try RemoteControl.bind(o, board: board, reports: reports, log: log)
        fleet = try FleetControl.client(o, board: board, reports: reports, log: log)
    }

    /// Whether a remote may send the player items (it then waits for them rather than exiting when empty).
    var any: Bool { ipc != nil || fleet != nil }

    /// Serves `player` from now on: IPC requests and MQTT commands become commands in its inbox. With
    /// `waitsForItems` (play) an empty player waits for what a remote sends; a recording ends when its items do.
    func attach(_ player: Player, waitsForItems: Bool = true, log: Log) {
        player.board = board
        if any, waitsForItems { player.keepsRunningWhenEmpty = true }
        if let ipc { ipc.serve(player) }
        if let fleet {
            player.postStatusNow()
            do { try fleet.start(sending: player.inbox) } catch { log.error("mqtt: \(error)") }
        }
    }

    /// Closes the socket and leaves the broker.
    func stop() {
        ipc?.stop()
        fleet?.stop()
    }
}
