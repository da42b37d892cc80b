import Foundation
import KioskCore
@testable import KioskRemote
import XCTest

/// mpv's `show-text` and `show-progress` over the JSON IPC session, without sockets (MPVSessionTests' context
/// and sink): the commands they become, mpv's defaults, and mpv's reply shape.
final class OverlayIPCTests: XCTestCase {
    private var board = PlayerBoard()
    private var sink = MPVSessionTests.Sink()
    private var context = MPVSessionTests.Context()
    private var session: MPVSession?
    private let a = ClientID(1)

    override func setUpWithError() throws {
        let gate = try MediaGate(root: nil, log: Log(level: .error)) { [PlaylistItem(path: $0 + "/x.jpg")] }
        let s = MPVSession(board: board, sink: sink, gate: gate, log: Log(level: .error), keys: { MPVKeyNames.code($0) })
        s.attach(wake: {})
        s.accepted(a, context: context)
        var status = PlayerStatus()
        status.playlist = [.init(id: 0, path: "/m/a.jpg")]
        status.currentID = 0
        board.post(status)
        session = s
    }

    /// Sends one line, answers what it sent the player with success, and returns the replies.
    private func say(_ line: String) throws -> [String] {
        let s = try XCTUnwrap(session)
        s.received(Array(line.utf8), from: a, context: context)
        sink.answer()
        s.woken(context: context)
        return context.take(a)
    }

    func testShowTextBecomesTheCommandWithMPVsDurationAndLevel() throws {
        let cases: [(String, PlayerCommand)] = [
            (#"["show-text","hello",2000]"#, .showText("hello", seconds: 2, level: 1)),
            (#"["show-text","hello"]"#, .showText("hello", seconds: 1, level: 1)),
            (#"["show-text","hello",-1,2]"#, .showText("hello", seconds: 1, level: 2)),
            (#"["show-text","hello","500"]"#, .showText("hello", seconds: 0.5, level: 1)),
            (#"["show-text",42]"#, .showText("42", seconds: 1, level: 1)),
            (#"["show-progress"]"#, .showProgress),
        ]
        for (i, (command, expected)) in cases.enumerated() {
            sink.commands = []
            XCTAssertEqual(try say(#"{"command":\#(command),"request_id":\#(i)}"#),
                           [#"{"data":null,"request_id":\#(i),"error":"success"}"#], command)
            XCTAssertEqual(sink.commands, [expected], command)
        }
        sink.commands = []
        XCTAssertEqual(try say(#"{"command":{"name":"show-text","text":"named","duration":2500}, "request_id":9}"#),
                       [#"{"data":null,"request_id":9,"error":"success"}"#])
        XCTAssertEqual(sink.commands, [.showText("named", seconds: 2.5, level: 1)])
    }

    func testTextCommandsAndBadArguments() throws {
        sink.commands = []
        XCTAssertEqual(try say(#"show-text "two words" 1500"#), [], "an input.conf line has no reply")
        XCTAssertEqual(sink.commands, [.showText("two words", seconds: 1.5, level: 1)])
        sink.commands = []
        XCTAssertEqual(try say(#"{"command":["show-text"],"request_id":1}"#), [#"{"request_id":1,"error":"invalid parameter"}"#])
        XCTAssertEqual(try say(#"{"command":["show-text","x","soon"],"request_id":2}"#), [#"{"request_id":2,"error":"invalid parameter"}"#])
        XCTAssertEqual(try say(#"{"command":["show-text","x",1.5],"request_id":3}"#), [#"{"request_id":3,"error":"invalid parameter"}"#])
        XCTAssertEqual(sink.commands, [])
        let list = try say(#"{"command":["get_property","command-list"]}"#)
        XCTAssertTrue(list[0].contains(#"{"name":"show-text","args":[{"name":"text","type":"String","optional":false},"#), list[0])
        XCTAssertTrue(list[0].contains(#"{"name":"show-progress","args":[],"vararg":false}"#), list[0])
    }
}
