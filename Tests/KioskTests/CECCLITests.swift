import Foundation
import KioskCore
import KioskOutput
@testable import KioskPlayer
@testable import KioskRemote
import XCTest

/// HDMI-CEC from the command line and through the player: bad flags are usage errors naming the flag, a missing or
/// wrong adapter is one info line and the slideshow plays, and the TV's power and standby reach the player's
/// status (IPC's `cec-power`, `kiosk ctl status`) and its pause reasons.
final class CECCLITests: XCTestCase {
    func testBadFlagsAreUsageErrors() throws {
        let dir = try TempDir()
        let a = try ColourPictures.make(dir, "a.png", "green")
        for (args, line) in [
            (["--cec", "hdmi"], "kiosk: --cec: 'hdmi' is not auto, off or a /dev/cecN path"),
            (["--cec-name", "a-name-far-too-long"], "kiosk: --cec-name: 'a-name-far-too-long' is not 1 to 14 printable ASCII characters"),
            (["--cec-standby", "sometimes"], nil),
            (["--key", "cec:purple=next"], nil),
        ] as [([String], String?)] {
            let r = try CLITests.run(["play", "--output", "headless", "--length", "1"] + args + [a], timeout: 30)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            if let line { XCTAssertEqual(r.stderr, line + "\n") } else { XCTAssertTrue(r.stderr.contains(args[0]), r.stderr) }
        }
    }

    /// `--cec PATH` that is missing, or no CEC adapter (/dev/null): one info line each, and kiosk plays its 2 s.
    func testAMissingOrWrongAdapterIsOneLineAndPlaybackGoesOn() throws {
        let dir = try TempDir()
        let a = try ColourPictures.make(dir, "a.png", "green")
        for (device, reason) in [(dir.file("cec9"), "No such file or directory"), ("/dev/null", "not a CEC adapter")] {
            let r = try CLITests.run(["play", "--output", "headless", "--size", "160x90", "--length", "2", "--no-state",
                                      "--log-level", "info", "--cec", device, a], timeout: 60)
            XCTAssertEqual(r.status, 0, r.stderr)
            let lines = r.stderr.split(separator: "\n").filter { $0.contains("cec:") }
            XCTAssertEqual(lines.count, 1, r.stderr)
            XCTAssertTrue(lines.first?.hasPrefix("kiosk: info: cec: \(device): ") ?? false, r.stderr)
            XCTAssertTrue(lines.first?.contains(reason) ?? false, r.stderr)
            XCTAssertTrue(lines.first?.hasSuffix("the screen's power is DPMS alone") ?? false, r.stderr)
            XCTAssertTrue(r.stderr.contains("showing \(a)"), r.stderr)
        }
        // auto on the headless canvas looks for no adapter at all
        let r = try CLITests.run(["play", "--output", "headless", "--size", "160x90", "--length", "1", "--no-state",
                                  "--log-level", "info", a], timeout: 60)
        XCTAssertFalse(r.stderr.contains("cec:"), r.stderr)
    }

    /// What the CEC controller sends the player: the TV's power reaches the status (IPC `cec-power`) and a standby
    /// is a pause reason of its own (`tv`), which a resume of the TV's lifts and a user's resume does not.
    func testTheTVsPowerAndStandbyReachThePlayer() throws {
        setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1)
        let dir = try TempDir()
        let a = try ColourPictures.make(dir, "a.png", "green"), b = try ColourPictures.make(dir, "b.png", "blue")
        let clock = VirtualClock()
        var config = PlayerConfig()
        config.size = PixelSize(width: 160, height: 90)
        let output = try VirtualTimeOutput(size: config.size, fps: 10, clock: clock, sink: nil)
        let p = try Player(items: [PlaylistItem(path: a), PlaylistItem(path: b)], config: config, output: output, clock: clock,
                           log: Log(level: .error), waitForDecodes: true)
        var seen: [(Double, TVPower?, Set<PauseReason>)] = []
        p.onLoopTurn = { [unowned p] in
            let t = clock.now
            switch t {
            case 1..<1.05: p.inbox.queueFromLoop(.tvPower(.standby)); p.inbox.queueFromLoop(.pause(.tv))
            case 2..<2.05: p.inbox.queueFromLoop(.resume(.user))
            case 3..<3.05: p.inbox.queueFromLoop(.tvPower(.on)); p.inbox.queueFromLoop(.resume(.tv))
            default: break
            }
            seen.append((t, p.board.status.tvPower, p.board.status.pauseReasons))
        }
        _ = try p.run(length: 4)
        func at(_ t: Double) -> (TVPower?, Set<PauseReason>)? { seen.last { $0.0 <= t }.map { ($0.1, $0.2) } }
        XCTAssertEqual(at(0.5)?.0, nil, "no CEC, no TV power")
        XCTAssertEqual(at(1.5)?.0, .standby)
        XCTAssertEqual(at(1.5)?.1, [.tv])
        XCTAssertEqual(at(2.5)?.1, [.tv], "the user's resume leaves the TV's pause")
        XCTAssertEqual(at(3.5)?.0, .on)
        XCTAssertEqual(at(3.5)?.1, [])
        // the IPC property reads the status
        let property = try XCTUnwrap(MPVPropertyTable.byName["cec-power"])
        var status = PlayerStatus()
        XCTAssertNil(property.get(status))
        status.tvPower = .toStandby
        XCTAssertEqual(property.get(status), .string("to-standby"))
    }
}
