import Foundation
import KioskCore
@testable import KioskFleet
import KioskRemote
import XCTest

/// One vocabulary (issue 40): every MQTT command the player runs is said as mpv command arrays that the IPC socket
/// takes, and MQTT and IPC send the player the same commands for them. IPC here is mpv's protocol layer itself
/// (`MPVSession`), without a socket, over the same board, with a sink that records and answers at once.
final class FleetRequestTests: XCTestCase {
    /// Records the session's reply lines.
    private final class Replies: LineServerContext {
        var lines: [String] = []
        let clients = [ClientID(1)]
        func send(_ bytes: [UInt8], to client: ClientID) -> Bool {
            lines += String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            return true
        }
        func close(_ client: ClientID, flush: Bool) {}
    }

    /// Records the commands and answers each done at once.
    private final class Sink: CommandSink, @unchecked Sendable {
        var commands: [PlayerCommand] = []
        func send(_ command: PlayerCommand, reply: (@Sendable (CommandReply) -> Void)?) {
            commands.append(command)
            reply?(.done())
        }
    }

    /// What the IPC socket does with `array` over a board showing `status`: its reply line and the commands it sent.
    private func ipc(_ array: JSONValue,
                     status: PlayerStatus = FleetCommandTranslation.playing()) throws -> (reply: String, sent: [PlayerCommand]) {
        let board = PlayerBoard()
        board.post(status)
        let sink = Sink()
        let replies = Replies()
        let session = MPVSession(board: board, sink: sink, gate: try FleetCommandTranslation.gate(), log: Log(level: .error),
                                 keys: { MPVKeyNames.code($0) })
        session.attach(wake: {})
        session.accepted(ClientID(1), context: replies)
        let line = JSONValue.object([("command", array), ("request_id", .int(1))]).text
        session.received(Array(line.utf8), from: ClientID(1), context: replies)
        session.woken(context: replies)  // the player's replies, left in the session's mailbox
        return (replies.lines.joined(separator: "\n"), sink.commands)
    }

    /// Payloads for every MQTT command, each of its kinds once.
    private static let samples: [String: [String]] = [
        "next": ["", "PRESS", "offers", "main"],
        "previous": ["", "PRESS", "offers"],
        "pause": ["", "on", "off"],
        "resume": [""],
        "volume": ["0", "37", "100.0"],
        "mute": ["", "toggle", "on", "off"],
        "screen": ["on", "off"],
        "view": [#"{"reset": true}"#, #"{"zoom": 2, "x": 0.25, "y": 0.75}"#, #"{"yaw": 30, "pitch": -10, "roll": 5, "fov": 100}"#],
        "load": ["https://cms.example/sale.smil", "/media/sale"],
        "check-content": [""],
        "notify": ["fire"],
        "playlist": ["evening"],
        "snapshot": [""],
        "stats": [""],
        "sign-play-log": [""],
        "alert": ["Storm warning", #"{"clear": true}"#],
    ]

    func testEveryMQTTCommandThePlayerRunsIsAnIPCCommandThatSendsTheSame() throws {
        XCTAssertEqual(Set(Self.samples.keys), Set(FleetRequest.names), "a sample payload for every command")
        let translator = try FleetCommandTranslation.translator()
        var services: Set<String> = []
        for name in FleetRequest.names {
            for payload in Self.samples[name] ?? [] {
                let request = try FleetRequest.parse(name, payload: Array(payload.utf8))
                guard case .mpv(let arrays) = request else {
                    services.insert(name)
                    continue
                }
                XCTAssertFalse(arrays.isEmpty, "\(name) '\(payload)'")
                for array in arrays {
                    let overMQTT = try translator.commands(array)
                    let overIPC = try ipc(array)
                    XCTAssertTrue(overIPC.reply.contains(#""error":"success""#),
                                  "\(name) '\(payload)': \(array.text): \(overIPC.reply)")
                    XCTAssertFalse(overMQTT.isEmpty, "\(name) '\(payload)'")
                    XCTAssertEqual(overMQTT, overIPC.sent, "\(name) '\(payload)': \(array.text)")
                }
            }
        }
        // what goes through the fleet's own services, which the mpv table does not have
        XCTAssertEqual(services, ["load", "playlist", "snapshot", "stats", "sign-play-log", "alert"])
    }

    func testMQTTAndIPCSayTheSameThingToThePlayer() throws {
        func setProperty(_ name: String, _ value: JSONValue) -> JSONValue { .array([.string("set_property"), .string(name), value]) }
        func command(_ words: String...) -> JSONValue { .array(words.map { .string($0) }) }
        let pairs: [(mqtt: (String, String), ipc: JSONValue, sent: [PlayerCommand])] = [
            (("volume", "30"), setProperty("volume", .int(30)), [.volume(.set(30))]),
            (("pause", ""), setProperty("pause", .bool(true)), [.pause(.remote)]),
            (("resume", ""), setProperty("pause", .bool(false)), [.resume(.remote), .resume(.user)]),
            (("next", ""), command("playlist-next"), [.next]),
            (("previous", "PRESS"), command("playlist-prev", "force"), [.previous]),
            (("next", "offers"), command("playlist-next", "offers"), [.region("offers", .next)]),
            (("mute", "toggle"), command("cycle", "mute"), [.volume(.toggleMute)]),
            (("mute", "off"), setProperty("mute", .bool(false)), [.volume(.mute(false))]),
            (("screen", "off"), setProperty("kiosk-screen", .bool(false)), [.screen(on: false)]),
            (("view", #"{"reset": true}"#), command("reset-view"), [.view(.reset)]),
            (("view", #"{"zoom": 2}"#), setProperty("kiosk-zoom", .int(2)), [.view(.zoom(2))]),
            (("notify", "fire"), command("notify", "fire"), [.trigger(.notify("fire"))]),
            (("check-content", ""), command("check-content"), [.checkContent]),
            (("load", "https://cms.example/sale.smil"), command("loadfile", "https://cms.example/sale.smil"),
             [.loadContent(url: "https://cms.example/sale.smil")]),
        ]
        for pair in pairs {
            let (name, payload) = pair.mqtt
            XCTAssertEqual(try FleetCommandTranslation.commands(name, payload), pair.sent, "MQTT \(name) '\(payload)'")
            let overIPC = try ipc(pair.ipc)
            XCTAssertEqual(overIPC.sent, pair.sent, "IPC \(pair.ipc.text)")
            XCTAssertTrue(overIPC.reply.contains(#""error":"success""#), overIPC.reply)
        }
    }

    /// What the table refuses, the translator refuses with mpv's error and, when the command said, its reason; a
    /// command whose answer is a reply is no player command.
    func testRefusalsCarryMPVsErrorAndTheReason() throws {
        let translator = try FleetCommandTranslation.translator()
        func refusal(_ request: JSONValue, _ t: MPVCommandTranslator? = nil) -> MPVCommandRefusal? {
            do {
                _ = try (t ?? translator).commands(request)
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(refusal(.array([.string("get_property"), .string("volume")]))?.error, .unsupported)
        XCTAssertEqual(refusal(.array([.string("play-report")]))?.error, .command, "no play log: refused without reading one")
        XCTAssertEqual(refusal(.array([.string("script-message"), .string("hello")]))?.error, .unsupported)
        XCTAssertEqual(refusal(.array([.string("no-such-command")]))?.error, .invalidParameter)
        XCTAssertEqual(refusal(.string("playlist-next"))?.error, .invalidParameter)
        XCTAssertEqual(refusal(.array([.string("set_property"), .string("volume"), .int(101)]))?.description,
                       "set_property volume 101: unsupported format for accessing property")

        // MQTT's view while nothing is on screen: the property is unavailable, as over IPC
        var idle = FleetCommandTranslation.playing()
        idle.currentID = nil
        let zoom = try FleetCommandTranslation.arrays("view", #"{"zoom": 2}"#)
        XCTAssertEqual(refusal(zoom[0], try FleetCommandTranslation.translator(idle))?.description,
                       "set_property kiosk-zoom 2.0: property unavailable")

        // MQTT's check-content where kiosk plays local files: one line with the reason the remotes all give
        var local = FleetCommandTranslation.playing()
        local.content = nil
        let plain = try FleetCommandTranslation.translator(local)
        let arrays = try FleetCommandTranslation.arrays("check-content", "")
        XCTAssertEqual(arrays.count, 1)
        let said = try XCTUnwrap(refusal(arrays[0], plain))
        XCTAssertEqual(said, MPVCommandRefusal(command: "check-content", error: .command, reason: ContentStatus.notFetching))
        XCTAssertEqual(said.description, "check-content: kiosk is not playing content from a server")
        // and IPC says the same with mpv's error
        XCTAssertEqual(try ipc(arrays[0], status: local).reply, #"{"request_id":1,"error":"error running command"}"#)
    }
}
