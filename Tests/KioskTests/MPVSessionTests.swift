import Foundation
import KioskCore
@testable import KioskRemote
import XCTest

/// mpv's JSON IPC protocol layer without sockets: a recording server context, a sink that answers commands when
/// told, and a board the test posts to. The reply texts are checked byte for byte against mpv's format
/// (`{"data":…,"request_id":…,"error":…}`); MPVReferenceTests compares against mpv itself over sockets.
final class MPVSessionTests: XCTestCase {
    /// Records what the session sends.
    final class Context: LineServerContext {
        var sent: [ClientID: [String]] = [:]
        var clients: [ClientID] = []
        func send(_ bytes: [UInt8], to client: ClientID) -> Bool {
            let text = String(decoding: bytes, as: UTF8.self)
            sent[client, default: []] += text.split(separator: "\n").map(String.init)
            return true
        }
        func close(_ client: ClientID, flush: Bool) {}
        func take(_ c: ClientID) -> [String] {
            defer { sent[c] = [] }
            return sent[c] ?? []
        }
    }

    /// Keeps commands and answers them when the test says.
    final class Sink: CommandSink, @unchecked Sendable {
        var commands: [PlayerCommand] = []
        var replies: [(PlayerCommand, @Sendable (CommandReply) -> Void)] = []
        func send(_ command: PlayerCommand, reply: (@Sendable (CommandReply) -> Void)?) {
            commands.append(command)
            if let reply { replies.append((command, reply)) }
        }
        /// Answers every waiting command with `r` (a load is done with id 7: mpv's entry id 8).
        func answer(_ r: CommandReply = .done()) {
            let due = replies
            replies = []
            for (c, f) in due {
                if case .load = c, r.isDone { f(.done(ids: [7])) } else { f(r) }
            }
        }
    }

    var board = PlayerBoard()
    var sink = Sink()
    var context = Context()
    var session: MPVSession!
    let a = ClientID(1)

    override func setUpWithError() throws {
        board = PlayerBoard()
        sink = Sink()
        context = Context()
        let gate = try MediaGate(root: nil, log: Log(level: .error)) { [PlaylistItem(path: $0 + "/x.jpg")] }
        session = MPVSession(board: board, sink: sink, gate: gate, log: Log(level: .error), keys: { MPVKeyNames.code($0) })
        session.attach(wake: {})
        session.accepted(a, context: context)
        var s = PlayerStatus()
        s.playlist = [.init(id: 0, path: "/m/a.jpg", title: "Beach"), .init(id: 1, path: "/m/b.png")]
        s.currentID = 0
        s.timePosition = 1.5
        s.duration = 5
        s.itemKind = "image"
        board.post(s)
    }

    private func say(_ line: String, _ c: ClientID? = nil) -> [String] {
        session.received(Array(line.utf8), from: c ?? a, context: context)
        return context.take(c ?? a)
    }

    func testRepliesAreMPVsShape() {
        XCTAssertEqual(say(#"{"command":["get_property","pause"],"request_id":7}"#),
                       [#"{"data":false,"request_id":7,"error":"success"}"#])
        XCTAssertEqual(say(#"{"command":["get_property","playlist-pos"]}"#), [#"{"data":0,"request_id":0,"error":"success"}"#])
        XCTAssertEqual(say(#"{"command":["get_property","time-pos"],"request_id":"x"}"#),
                       [#"{"data":1.500000,"request_id":"x","error":"success"}"#])
        XCTAssertEqual(say(#"{"command":["get_property_string","pause"],"request_id":1}"#),
                       [#"{"data":"no","request_id":1,"error":"success"}"#])
        XCTAssertEqual(say(#"{"command":["get_property","playlist"],"request_id":2}"#),
                       [#"{"data":[{"filename":"/m/a.jpg","current":true,"playing":true,"title":"Beach","id":1},{"filename":"/m/b.png","id":2}],"request_id":2,"error":"success"}"#])
        XCTAssertEqual(say(#"{"command":["client_name"]}"#), [#"{"data":"ipc_0","request_id":0,"error":"success"}"#])
    }

    func testErrorsAreMPVsWords() {
        XCTAssertEqual(say(#"{"command":["get_property","no-such"],"request_id":1}"#),
                       [#"{"request_id":1,"error":"property not found"}"#])
        XCTAssertEqual(say(#"{"command":["get_property","kiosk-output"],"request_id":2}"#),
                       [#"{"request_id":2,"error":"property unavailable"}"#])
        XCTAssertEqual(say(#"{"command":["set_property","playlist-count",3],"request_id":3}"#),
                       [#"{"request_id":3,"error":"error accessing property"}"#])
        XCTAssertEqual(say(#"{"command":["no-such-command"],"request_id":4}"#), [#"{"request_id":4,"error":"invalid parameter"}"#])
        XCTAssertEqual(say(#"{"command":["get_property"],"request_id":5}"#), [#"{"request_id":5,"error":"invalid parameter"}"#])
        XCTAssertEqual(say(#"{"command":["playlist-remove",9],"request_id":6}"#), [#"{"request_id":6,"error":"error running command"}"#])
        XCTAssertEqual(say(#"{"command":["keypress","NOT_A_KEY"],"request_id":8}"#), [#"{"request_id":8,"error":"invalid parameter"}"#])
        // Malformed JSON, a non-object and a bad async flag are answered, and the connection goes on.
        XCTAssertEqual(say(#"{"command":["get_property","pause"]"#), [#"{"request_id":0,"error":"invalid parameter"}"#])
        XCTAssertEqual(say(#"{"command":"x","request_id":10}"#), [#"{"request_id":10,"error":"invalid parameter"}"#])
        XCTAssertEqual(say(#"{"command":["get_property","pause"],"async":3,"request_id":11}"#),
                       [#"{"request_id":11,"error":"invalid parameter"}"#])
        XCTAssertEqual(say(#"{"command":["get_property","mute"],"request_id":12}"#), [#"{"data":false,"request_id":12,"error":"success"}"#])
        XCTAssertTrue(sink.commands.isEmpty, "\(sink.commands)")
    }

    func testACommandWaitsForThePlayerAndLaterRequestsWaitBehindIt() {
        XCTAssertEqual(say(#"{"command":["set_property","pause",true],"request_id":1}"#), [])
        XCTAssertEqual(say(#"{"command":["get_property","pause"],"request_id":2}"#), [], "answered before the set ran")
        XCTAssertEqual(sink.commands, [.pause(.remote)])
        var s = board.status
        s.pauseReasons = [.remote]
        board.post(s)
        sink.answer()
        session.woken(context: context)
        XCTAssertEqual(context.take(a), [#"{"request_id":1,"error":"success"}"#, #"{"data":true,"request_id":2,"error":"success"}"#],
                       "a property set has no data; the get after it sees the new value")
        XCTAssertEqual(say(#"{"command":["playlist-next"],"request_id":3}"#), [])
        sink.answer(.failed("no"))
        session.woken(context: context)
        XCTAssertEqual(context.take(a), [#"{"request_id":3,"error":"error running command"}"#])
        XCTAssertEqual(say(#"{"command":["seek",1],"request_id":4}"#), [], "a still's timer seeks, as in mpv")
        XCTAssertEqual(sink.commands.last, .seek(1, relative: true))
    }

    /// A client that floods requests while one waits for the player is closed (bounded), with one log line.
    func testAFloodBehindAWaitingRequestClosesTheClient() {
        final class Closing: LineServerContext {
            var closed: [ClientID] = []
            var clients: [ClientID] = []
            func send(_ bytes: [UInt8], to client: ClientID) -> Bool { true }
            func close(_ client: ClientID, flush: Bool) { closed.append(client) }
        }
        let ctx = Closing()
        session.received(Array(#"{"command":["playlist-next"],"request_id":1}"#.utf8), from: a, context: ctx)
        for i in 0..<(MPVSession.maxWaitingRequests + 10) {
            session.received(Array(#"{"command":["get_property","pause"],"request_id":\#(i)}"#.utf8), from: a, context: ctx)
        }
        XCTAssertEqual(ctx.closed, [a], "closed once")
        XCTAssertEqual(sink.commands, [.next], "nothing else ran")
    }

    func testTextCommandsRunWithoutAReply() {
        XCTAssertEqual(say("set pause yes"), [])
        XCTAssertEqual(say("no-osd cycle mute"), [])  // waits behind the first
        sink.answer()
        session.woken(context: context)
        sink.answer()
        session.woken(context: context)
        XCTAssertEqual(sink.commands, [.pause(.remote), .volume(.toggleMute)], "cycle mute flips it in the player")
        XCTAssertEqual(context.take(a), [])
        XCTAssertEqual(MPVTextCommand.words(#"loadfile "/srv/a b.jpg" append # note"#), ["loadfile", "/srv/a b.jpg", "append"])
    }

    func testPlayerCommandsFromMPVNames() {
        let cases: [(String, [PlayerCommand])] = [
            (#"["playlist-prev"]"#, [.previous]),
            (#"["playlist-play-index",1]"#, [.goTo(.position(1))]),
            (#"["playlist-play-index",9]"#, [.stopPlayback]),
            (#"["set_property","playlist-pos",-1]"#, [.stopPlayback]),
            (#"["playlist-remove","current"]"#, [.remove(.position(0))]),
            (#"["playlist-move",0,2]"#, [.move(.position(0), to: 1)]),
            (#"["playlist-move",1,0]"#, [.move(.position(1), to: 0)]),
            (#"["playlist-clear"]"#, [.clear(keepCurrent: true)]),
            (#"["stop"]"#, [.clear(keepCurrent: false)]),
            (#"["playlist-shuffle"]"#, [.shuffle(true)]),
            (#"["set","volume","40"]"#, [.volume(.set(40))]),
            (#"["add","volume",-10]"#, [.volume(.set(90))]),
            (#"["cycle","shuffle"]"#, [.shuffle(true)]),
            (#"["set_property","loop-playlist","no"]"#, [.loop(false)]),
            (#"["set_property","image-display-duration",8]"#, [.imageDuration(8)]),
            (#"["set_property","kiosk-center",[0.25,0.75]]"#, [.view(.center(x: 0.25, y: 0.75))]),
            (#"["keypress","RIGHT"]"#, [.key(code: 106)]),
            (#"["loadfile","rtmp://example.com/a.jpg","append"]"#, [.load([PlaylistItem(path: "rtmp://example.com/a.jpg")], .append)]),
            // an http(s) URL is an index for the content fetcher, never a file for the playlist
            (#"["loadfile","https://example.com/a.smil#top"]"#, [.loadContent(url: "https://example.com/a.smil")]),
            (#"["loadlist","http://example.com/list.m3u8","replace"]"#, [.loadContent(url: "http://example.com/list.m3u8")]),
            (#"["loadfile","/srv/new.jpg","insert-next-play"]"#, [.load([PlaylistItem(path: "/srv/new.jpg")], .insertNext), .next]),
            (#"["quit"]"#, [.quit]),
        ]
        for (i, (command, expected)) in cases.enumerated() {
            sink.commands = []
            XCTAssertEqual(say(#"{"command":\#(command),"request_id":\#(i)}"#), [], command)
            XCTAssertEqual(sink.commands, expected, command)
            sink.answer()
            session.woken(context: context)
            // a URL for the content fetcher makes no playlist entry (yet): its data is null
            let data = command.contains("loadfile") && !command.contains("https:") ? #"{"playlist_entry_id":8}"# : "null"
            let reply = command.hasPrefix(#"["set_property""#) ? #"{"request_id":\#(i),"error":"success"}"#
                : #"{"data":\#(data),"request_id":\#(i),"error":"success"}"#
            XCTAssertEqual(context.take(a), [reply], command)
        }
    }

    func testObservedPropertiesAndEvents() {
        XCTAssertEqual(say(#"{"command":["observe_property",5,"pause"],"request_id":1}"#),
                       [#"{"request_id":1,"error":"success"}"#,
                        #"{"event":"property-change","id":5,"name":"pause","data":false}"#])
        _ = say(#"{"command":["observe_property_string",6,"path"],"request_id":2}"#)
        var s = board.status
        s.pauseReasons = [.user]
        board.post(s)
        board.post([.itemEnded(0, path: "/m/a.jpg", reason: .skipped), .itemStarted(1, path: "/m/b.png", sequence: 1)])
        session.woken(context: context)
        XCTAssertEqual(context.take(a), [
            #"{"event":"end-file","reason":"stop","playlist_entry_id":1}"#,
            #"{"event":"start-file","playlist_entry_id":2}"#, #"{"event":"file-loaded"}"#, #"{"event":"video-reconfig"}"#,
            #"{"event":"playback-restart"}"#,
            #"{"event":"property-change","id":5,"name":"pause","data":true}"#,
        ])
        s.currentID = nil
        board.post(s)
        board.post([.itemFailed(1, path: "/m/b.png", reason: "broken")])
        _ = say(#"{"command":["disable_event","start-file"],"request_id":3}"#)
        session.woken(context: context)
        XCTAssertEqual(context.take(a), [
            #"{"event":"end-file","reason":"error","playlist_entry_id":2,"file_error":"loading failed"}"#,
            #"{"event":"property-change","id":6,"name":"path"}"#,
        ])
        _ = say(#"{"command":["unobserve_property",5],"request_id":4}"#)
        s.pauseReasons = []
        board.post(s)
        session.woken(context: context)
        XCTAssertEqual(context.take(a), [])
    }

    func testNamedFormAndLogMessages() throws {
        XCTAssertEqual(say(#"{"command":{"name":"playlist-play-index","index":1},"request_id":1}"#), [])
        XCTAssertEqual(sink.commands, [.goTo(.position(1))])
        sink.answer()
        session.woken(context: context)
        XCTAssertEqual(context.take(a), [#"{"data":null,"request_id":1,"error":"success"}"#])
        XCTAssertEqual(say(#"{"command":{"name":"get_property","property":"pause"},"request_id":2}"#),
                       [#"{"request_id":2,"error":"invalid parameter"}"#], "the IPC layer's own commands take arrays only")
        // request_log_messages: the lines the log writes, at the asked level, as log-message events.
        let log = Log(level: .info, sink: { _ in })
        let gate = try MediaGate(root: nil, log: log) { _ in [] }
        let s2 = MPVSession(board: board, sink: sink, gate: gate, log: log, keys: { _ in nil })
        s2.attach(wake: {})
        s2.accepted(a, context: context)
        s2.received(Array(#"{"command":["request_log_messages","warn"],"request_id":3}"#.utf8), from: a, context: context)
        log.info("not asked for")
        log.warn("disk nearly full")
        s2.woken(context: context)
        XCTAssertEqual(context.take(a), [#"{"request_id":3,"error":"success"}"#,
                                         #"{"event":"log-message","prefix":"kiosk","level":"warn","text":"disk nearly full\n"}"#])
    }

    func testListsAreCompleteAndConsistent() throws {
        let reply = say(#"{"command":["get_property","property-list"]}"#)
        let names = try JSONValue.parse(Array(reply[0].utf8))["data"]
        guard case .array(let list)? = names else { return XCTFail(reply[0]) }
        let properties = list.compactMap(\.string)
        for p in ["pause", "volume", "playlist", "playlist-pos", "time-pos", "idle-active", "kiosk-zoom", "command-list"] {
            XCTAssertTrue(properties.contains(p), p)
        }
        // Every listed property answers get_property with a value or "property unavailable", never "not found".
        for p in properties {
            XCTAssertFalse(say(#"{"command":["get_property","\#(p)"]}"#)[0].contains("not found"), p)
        }
        let commands = say(#"{"command":["get_property","command-list"]}"#)
        for c in ["loadfile", "playlist-next", "seek", "screenshot-to-file", "keypress", "cycle", "quit"] {
            XCTAssertTrue(commands[0].contains(#"{"name":"\#(c)","args":"#), c)
        }
    }

    func testMediaRootRefusesEscapes() throws {
        let dir = try TempDir()
        let root = dir.file("root")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/escape", withDestinationPath: "/etc")
        let gate = try MediaGate(root: root, log: Log(level: .error)) { [PlaylistItem(path: $0)] }
        XCTAssertNotNil(gate.admitted(root + "/new.png", what: "t"))
        XCTAssertNil(gate.admitted(root + "/escape/passwd", what: "t"))
        XCTAssertNil(gate.admitted(root + "/../outside.png", what: "t"))
        XCTAssertNil(gate.admitted(root + "x/y.png", what: "t"))
        XCTAssertThrowsError(try gate.items(root + "/escape/hosts", list: false))
        XCTAssertThrowsError(try gate.outputPath("/tmp/shot.png"))
        XCTAssertThrowsError(try MediaGate(root: dir.file("missing"), log: Log(level: .error)) { _ in [] })
    }

    /// Answers each command as it is sent, as a player that is not busy does.
    final class AnsweringSink: CommandSink, @unchecked Sendable {
        var commands: [PlayerCommand] = []
        func send(_ command: PlayerCommand, reply: (@Sendable (CommandReply) -> Void)?) {
            commands.append(command)
            reply?(.done())
        }
    }

    /// The web page's runner reads properties and checks commands through the socket's own resolver: the same
    /// request gets the same reply (less the request id), errors and property lists included.
    func testTheWebPagesRunnerAnswersAsTheSocketDoes() throws {
        let gate = try MediaGate(root: nil, log: Log(level: .error)) { [PlaylistItem(path: $0 + "/x.jpg")] }
        let answering = AnsweringSink()
        let runner = MPVRequestRunner(board: board, sink: answering, gate: gate, reports: PlayReports(), log: Log(level: .error))
        let requests = [#"["get_property","pause"]"#, #"["get_property_string","time-pos"]"#, #"["get_property","playlist"]"#,
                        #"["get_property","property-list"]"#, #"["get_property","command-list"]"#, #"["set_property","property-list",1]"#,
                        #"["set_property_string","pause",true]"#, #"["set_property","playlist-count",3]"#, #"["get_property","no-such"]"#,
                        #"["get_property","kiosk-output"]"#, #"["get_property"]"#, #"["keypress","NOT_A_KEY"]"#, #"["no-such-command"]"#,
                        #"["loadfile"]"#]
        for r in requests {
            let socket = say(#"{"command":\#(r)}"#)
            XCTAssertEqual(socket.count, 1, r)
            guard case .object(let members)? = try? JSONValue.parse(Array((socket.first ?? "").utf8)) else { return XCTFail(r) }
            let web = runner.run(try JSONValue.parse(Array(r.utf8)))
            XCTAssertEqual(web.text, JSONValue.object(members.filter { $0.0 != "request_id" }).text, r)
        }
        XCTAssertTrue(sink.commands.isEmpty && answering.commands.isEmpty, "none of these reaches the player")
        // a command for the player is answered once the player has run it; a client's own commands are the socket's
        XCTAssertEqual(runner.run(try JSONValue.parse(Array(#"["playlist-next"]"#.utf8))).text, #"{"data":null,"error":"success"}"#)
        XCTAssertEqual(answering.commands.count, 1)
        XCTAssertEqual(runner.run(try JSONValue.parse(Array(#"["observe_property",1,"pause"]"#.utf8))).text, #"{"error":"invalid parameter"}"#)
    }
}
