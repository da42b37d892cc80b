import Foundation
import KioskCore
@testable import KioskPlayer
import XCTest

/// The player is a composition of parts a newcomer can list: its stored properties, read by reflection from a
/// real player, are its screen, the services its screens share and one hook; the modes and the play log hold
/// their screen or the services, never the `Player` (read from the sources, so a new mode that reaches back into
/// the player fails here).
final class PlayerPartsTests: XCTestCase {
    private let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/KioskPlayer").path

    func testThePlayerIsItsScreenAndWhatScreensShare() {
        let player = Player(items: [], config: PlayerConfig(), clock: VirtualClock(), log: Log(level: .error), waitForDecodes: true)
        let stored = Mirror(reflecting: player).children.compactMap(\.label)
        XCTAssertEqual(stored, ["screens", "services", "onLoopTurn"])
        XCTAssertLessThanOrEqual(stored.count, 15, "the issue's bound on Player's stored properties")
        // the screen's parts are its own: a second screen would not share its slideshow, decodes or modes
        let screen = player.screen
        XCTAssertTrue(screen.services === player.services)
        XCTAssertTrue(screen.modes.active === screen.modes.idle, "an empty playlist: the idle mode owns the screen")
    }

    func testModesAndThePlayLogTakeTheirPartsNotThePlayer() throws {
        var files = try FileManager.default.contentsOfDirectory(atPath: sources + "/Modes").map { "Modes/" + $0 }
        files += ["Loop/ModeStack.swift", "State/PlayerPlayLog.swift"]
        XCTAssertGreaterThanOrEqual(files.count, 8)
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            let holds = text.split(separator: "\n").filter { line in
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                return code.contains(": Player\n") || code.hasSuffix(": Player") || code.contains(": Player ") || code.contains(": Player)")
                    || code.contains(": Player,")
            }
            // PlayerPlayLog's public init takes the player to find its parts; it must not keep it
            let kept = holds.filter { $0.contains("let ") || $0.contains("var ") }
            XCTAssertEqual(kept, [], "\(file) keeps the Player")
            if file.hasPrefix("Modes/") || file.hasPrefix("Loop/") { XCTAssertEqual(holds, [], "\(file) takes the Player") }
        }
    }
}
