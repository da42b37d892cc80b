import Foundation
import KioskCore
@testable import KioskFleet
import XCTest

/// The fleet's options and payload rules without a broker: `--mqtt` and its flags (in-process and through the
/// kiosk command line), and what each command's payload may be.
final class MQTTFleetOptionTests: XCTestCase {
    private func settings(_ args: [String], files: [String: String] = [:]) throws -> FleetSettings? {
        let o = try ParsedOptions.parse(args, specs: CommandSpecs.play, command: "play")
        return try FleetSettings.parse(o, hostName: "pi.local", readFile: { files[$0] })
    }

    private func usage(_ args: [String], files: [String: String] = [:]) -> String? {
        do {
            _ = try settings(args, files: files)
            return nil
        } catch let e as UsageError {
            return e.message
        } catch {
            return "\(error)"
        }
    }

    func testSettingsFromOptions() throws {
        XCTAssertNil(try settings([]))
        let plain = try XCTUnwrap(try settings(["--mqtt", "broker.lan"]))
        XCTAssertEqual(plain.host, "broker.lan")
        XCTAssertEqual(plain.port, 1883)
        XCTAssertEqual(plain.id, "pi-local", "the host name, made topic-safe")
        XCTAssertEqual(plain.keepalive, 30)
        let full = try XCTUnwrap(try settings(["--mqtt", "[::1]:1884", "--mqtt-id", "lobby_2", "--mqtt-user", "kiosk",
                                               "--mqtt-password-file", "/pw", "--mqtt-tls-ca", "/ca.pem", "--mqtt-keepalive", "5"],
                                              files: ["/pw": "s3cret\nignored\n", "/ca.pem": "PEM"]))
        XCTAssertEqual(full, FleetSettings(host: "::1", port: 1884, id: "lobby_2", username: "kiosk", password: "s3cret",
                                           tlsCAFile: "/ca.pem", keepalive: 5))
        XCTAssertEqual(try settings(["--mqtt", "b", "--mqtt-tls-ca", "/ca.pem"], files: ["/ca.pem": ""])?.port, 8883)
    }

    func testBadOptionsAreOneUsageErrorNamingTheFlag() {
        XCTAssertEqual(usage(["--mqtt-user", "u"]), "--mqtt-user needs --mqtt")
        XCTAssertEqual(usage(["--mqtt-keepalive", "10"]), "--mqtt-keepalive needs --mqtt")
        XCTAssertEqual(usage(["--mqtt", "b", "--mqtt-user", "u", "--mqtt-password-file", "/nope"]),
                       "--mqtt-password-file: cannot read '/nope'")
        XCTAssertEqual(usage(["--mqtt", "b", "--mqtt-password-file", "/pw"], files: ["/pw": "x"]),
                       "--mqtt-password-file needs --mqtt-user")
        for id in ["a/b", "a+b", "a#", "", "a b", "é", String(repeating: "x", count: 65)] {
            XCTAssertTrue(usage(["--mqtt", "b", "--mqtt-id", id])?.hasPrefix("--mqtt-id") ?? false, id)
        }
        for broker in ["b:0", "b:65536", "b:x", ":1883", "[::1", "::1", "b:"] {
            XCTAssertTrue(usage(["--mqtt", broker])?.hasPrefix("--mqtt: '\(broker)'") ?? false, "\(broker): \(usage(["--mqtt", broker]) ?? "ok")")
        }
        XCTAssertEqual(usage(["--mqtt", "b", "--mqtt-tls-ca", "/none"]), "--mqtt-tls-ca: cannot read '/none'")
    }

    /// Through the command line: one line on standard error and exit 2, as every usage error.
    func testBadFlagsExitAsUsageErrors() throws {
        let dir = try TempDir()
        let a = try ColourPictures.make(dir, "a.png", "red")
        for (args, line) in [(["--mqtt-user", "u"], "kiosk: --mqtt-user needs --mqtt"),
                             (["--mqtt", "127.0.0.1", "--mqtt-user", "u", "--mqtt-password-file", dir.file("none")],
                              "kiosk: --mqtt-password-file: cannot read '\(dir.file("none"))'"),
                             (["--mqtt", "127.0.0.1", "--mqtt-id", "a/b"], "kiosk: --mqtt-id: 'a/b' must be"),
                             (["--mqtt", "127.0.0.1:99999"], "kiosk: --mqtt: '127.0.0.1:99999': the port must be 1...65535"),
                             (["--media-root", dir.path], "kiosk: --media-root needs --input-ipc-server, --mqtt or --http")] {
            let r = try CLITests.run(["play", "--output", "headless", "--length", "1"] + args + [a], timeout: 30)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            let lines = r.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "\(args): \(r.stderr)")
            XCTAssertTrue(lines.first?.hasPrefix(line) ?? false, "\(args): \(r.stderr)")
        }
    }

    func testPayloadsBecomeCommands() throws {
        func parse(_ command: String, _ payload: String) throws -> FleetRequest {
            try FleetRequest.parse(command, payload: Array(payload.utf8))
        }
        // what the player gets: the payload's mpv command arrays through IPC's table (FleetCommandTranslation)
        func commands(_ command: String, _ payload: String) throws -> [PlayerCommand] {
            try FleetCommandTranslation.commands(command, payload)
        }
        XCTAssertEqual(try commands("next", ""), [.next])
        XCTAssertEqual(try commands("previous", "PRESS"), [.previous])
        XCTAssertEqual(try commands("next", "offers"), [.region("offers", .next)], "a layout's region steps")
        XCTAssertEqual(try commands("previous", " main\n"), [.previous], "the slideshow's one region, main, is its step")
        XCTAssertEqual(try commands("pause", ""), [.pause(.remote)])
        XCTAssertEqual(try commands("pause", "off"), [.resume(.remote), .resume(.user)])
        XCTAssertEqual(try commands("resume", ""), [.resume(.remote), .resume(.user)])
        XCTAssertEqual(try commands("volume", " 37\n"), [.volume(.set(37))])
        XCTAssertEqual(try commands("volume", "37.0"), [.volume(.set(37))])
        XCTAssertEqual(try commands("mute", ""), [.volume(.toggleMute)])
        XCTAssertEqual(try commands("mute", "toggle"), [.volume(.toggleMute)])
        XCTAssertEqual(try commands("mute", "ON"), [.volume(.mute(true))])
        XCTAssertEqual(try commands("screen", "off"), [.screen(on: false)])
        XCTAssertEqual(try commands("view", #"{"yaw": 30, "zoom": 2, "x": 0.25, "y": 0.75, "reset": true}"#),
                       [.view(.reset), .view(.zoom(2)), .view(.center(x: 0.25, y: 0.75)), .view(.yaw(30))])
        XCTAssertEqual(try parse("load", "/media/a.jpg"), .load("/media/a.jpg"))
        XCTAssertEqual(try parse("playlist", "evening"), .playlist("evening"))
        XCTAssertEqual(try parse("snapshot", ""), .snapshot)
        for (command, payload) in [("volume", "abc"), ("volume", "-1"), ("volume", "101"), ("volume", "37.5"), ("volume", "nan"),
                                   ("mute", "maybe"), ("screen", ""), ("view", "not json"), ("view", "[]"), ("view", "{}"),
                                   ("view", #"{"zoom": 9}"#), ("view", #"{"x": 0.5}"#), ("view", #"{"tilt": 1}"#),
                                   ("view", #"{"yaw": "left"}"#), ("load", ""), ("load", "a\nb"), ("playlist", ""),
                                   ("dance", ""), ("cmd/next", "")] {
            XCTAssertThrowsError(try parse(command, payload), "\(command) '\(payload)'")
        }
        XCTAssertThrowsError(try FleetRequest.parse("volume", payload: [0xFF, 0xFE]), "not UTF-8")
        XCTAssertThrowsError(try FleetRequest.parse("load", payload: [UInt8](repeating: 0x61, count: 64 * 1024 + 1)), "too long")
    }

    func testTopicsStayUnderTheKiosksOwnPrefix() {
        let t = FleetTopics(id: "lobby")
        XCTAssertEqual(t.command(in: "kiosk/lobby/cmd/next"), "next")
        XCTAssertNil(t.command(in: "kiosk/lobby2/cmd/next"))
        XCTAssertNil(t.command(in: "kiosk/other/cmd/next"))
        XCTAssertNil(t.command(in: "kiosk/lobby/state"))
        XCTAssertEqual(t.discovery("switch", "paused"), "homeassistant/switch/lobby_paused/config")
    }
}
