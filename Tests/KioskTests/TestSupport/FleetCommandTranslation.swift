import Foundation
import KioskCore
@testable import KioskFleet
import KioskRemote

/// MQTT's commands as the player gets them: the payload parsed (`FleetRequest`), then its mpv command arrays turned
/// into player commands by KioskRemote's translator over a board, as `FleetClient` does. The board shows the first
/// of three pictures of a slideshow that plays content from a server (so every command the fleet sends is one the
/// player could run now).
enum FleetCommandTranslation {
    /// The board's status: three pictures, the first on screen, content fetched from a server.
    static func playing() -> PlayerStatus {
        var s = PlayerStatus()
        s.playlist = [.init(id: 0, path: "/m/a.jpg"), .init(id: 1, path: "/m/b.png"), .init(id: 2, path: "/m/c.jpg")]
        s.currentID = 0
        s.itemKind = "image"
        var content = ContentStatus()
        content.url = "https://cms.example/lobby.smil"
        s.content = content
        return s
    }

    /// A gate confined to nothing (MQTT's commands name no local file through it) that lists no folder.
    static func gate() throws -> MediaGate {
        try MediaGate(root: nil, log: Log(level: .error)) { _ in [] }
    }

    /// A translator over a board showing `status`.
    static func translator(_ status: PlayerStatus = playing()) throws -> MPVCommandTranslator {
        let board = PlayerBoard()
        board.post(status)
        return MPVCommandTranslator(board: board, gate: try gate(), log: Log(level: .error))
    }

    /// The mpv command arrays `command` with `payload` becomes; throws when it is refused or is not a player command.
    static func arrays(_ command: String, _ payload: String) throws -> [JSONValue] {
        guard case .mpv(let arrays) = try FleetRequest.parse(command, payload: Array(payload.utf8)) else {
            throw FleetRefusal("\(command) is not a player command (it goes through the fleet's own services)")
        }
        return arrays
    }

    /// The player commands `command` with `payload` sends, in order, over a board showing `status`.
    static func commands(_ command: String, _ payload: String, status: PlayerStatus = playing()) throws -> [PlayerCommand] {
        let translator = try translator(status)
        return try arrays(command, payload).flatMap { array throws -> [PlayerCommand] in try translator.commands(array) }
    }
}
