import Foundation
@preconcurrency import Glibc
@testable import KioskCore
@testable import KioskFleet
@testable import KioskMedia
@testable import KioskRemote
import XCTest

/// Numbers from outside past what an `Int` holds (1e19, 2^63-1, -2^63, 1e300, NaN, inf) never trap: each is
/// clamped where mpv clamps, or refused with mpv's reply (as mpv 0.35 answers them), in the IPC, MQTT payloads,
/// the state file, playlists and the seeks they lead to (issue 23 item 1).
final class NumericInputTests: XCTestCase {
    static let huge = ["1e19", "9223372036854775807", "-9223372036854775808", "1e300", "-1e300", "nan", "inf", "-inf"]

    func testWholeNumberRefusesOrClampsWithoutTrapping() {
        XCTAssertNil(Int(whole: 1e19))
        XCTAssertNil(Int(whole: 9_223_372_036_854_775_807.0), "2^63 as a double is one past Int.max")
        XCTAssertEqual(Int(whole: -9_223_372_036_854_775_808.0), Int.min)
        XCTAssertNil(Int(whole: .nan))
        XCTAssertNil(Int(whole: .infinity))
        XCTAssertNil(Int(whole: 1.5))
        XCTAssertNil(Int(whole: 2_147_483_648, in: Int.mpvIntegerRange))
        XCTAssertEqual(Int(whole: -2_147_483_648, in: Int.mpvIntegerRange), -2_147_483_648)
        XCTAssertEqual(Int(clamping: 1e300, to: 0...Int.max), Int.max)
        XCTAssertEqual(Int(clamping: 9_223_372_036_854_775_807.0, to: 0...Int.max), Int.max)
        XCTAssertEqual(Int(clamping: -.infinity, to: -3...3), -3)
        XCTAssertEqual(Int(clamping: 2.5, to: 0...9), 3)
        XCTAssertEqual(Int(clamping: 9_223_372_036_854_774_784.0, to: 0...Int.max), 9_223_372_036_854_774_784,
                       "the largest double below 2^63 converts as it is")
        XCTAssertNil(Int(clamping: .nan, to: 0...9))
    }

    // MARK: - IPC, through the session (MPVSessionTests' recording context and sink)

    private var board = PlayerBoard()
    private var sink = MPVSessionTests.Sink()
    private var context = MPVSessionTests.Context()
    private var session: MPVSession?
    private let client = ClientID(1)

    override func setUpWithError() throws {
        board = PlayerBoard()
        sink = MPVSessionTests.Sink()
        context = MPVSessionTests.Context()
        let gate = try MediaGate(root: nil, log: Log(level: .error)) { [PlaylistItem(path: $0 + "/x.jpg")] }
        let s = MPVSession(board: board, sink: sink, gate: gate, log: Log(level: .error), keys: { MPVKeyNames.code($0) })
        s.attach(wake: {})
        s.accepted(client, context: context)
        session = s
        post(current: 0)
    }

    /// Three pictures, the one at `current` on screen.
    private func post(current: Int) {
        var s = PlayerStatus()
        s.playlist = [.init(id: 0, path: "/m/a.jpg"), .init(id: 1, path: "/m/b.png"), .init(id: 2, path: "/m/c.png")]
        s.currentID = ItemID(current)
        s.duration = 5
        s.timePosition = 1
        s.itemKind = "image"
        board.post(s)
    }

    /// What one request got: its reply's `error`, and the player commands it sent.
    struct Answer: Equatable {
        var error: String
        var sent: [PlayerCommand] = []
    }

    /// The answer to `command` (a JSON array), checking that it got one reply.
    private func ask(_ command: String, file: StaticString = #filePath, line: UInt = #line) -> Answer {
        sink.commands = []
        session?.received(Array(#"{"command":\#(command),"request_id":1}"#.utf8), from: client, context: context)
        sink.answer()
        session?.woken(context: context)
        let replies = context.take(client)
        XCTAssertEqual(replies.count, 1, "\(command): \(replies)", file: file, line: line)
        let error = replies.first.flatMap { try? JSONValue.parse(Array($0.utf8)) }?["error"]?.string ?? "no reply"
        return Answer(error: error, sent: sink.commands)
    }

    func testPlaylistPosPastIntIsRefusedAsInMPV() {
        for v in Self.huge + ["-1e19", "2147483648"] {
            XCTAssertEqual(ask(#"["set_property_string","playlist-pos","\#(v)"]"#),
                           Answer(error: "unsupported format for accessing property"), v)
        }
        for v in ["9223372036854775807", "-9223372036854775808", "2147483648"] {
            XCTAssertEqual(ask(#"["set_property","playlist-pos",\#(v)]"#).error, "unsupported format for accessing property", v)
        }
        for v in ["1e19", "1e300", "-1e300", "9223372036854775808"] {  // JSON doubles, as mpv answers them
            XCTAssertEqual(ask(#"["set_property","playlist-pos",\#(v)]"#).error, "error accessing property", v)
        }
        XCTAssertEqual(ask(#"["set","playlist-pos","1e19"]"#).error, "error running command")
        XCTAssertEqual(ask(#"["set_property","playlist-pos",2147483647]"#).sent, [.stopPlayback], "in range, past the list")
        XCTAssertEqual(ask(#"["set_property","playlist-pos",1]"#).sent, [.goTo(.position(1))])
    }

    func testAddAndMultiplyClampIntoThePlaylistAsInMPV() {
        XCTAssertEqual(ask(#"["add","playlist-pos",9223372036854775807]"#).sent, [.goTo(.position(2))])
        XCTAssertEqual(ask(#"["add","playlist-pos",1e300]"#).sent, [.goTo(.position(2))])
        XCTAssertEqual(ask(#"["add","playlist-pos","1e19"]"#).sent, [.goTo(.position(2))])
        XCTAssertEqual(ask(#"["add","playlist-pos",-9223372036854775808]"#).sent, [.goTo(.position(0))])
        XCTAssertEqual(ask(#"["add","playlist-pos",1]"#).sent, [.goTo(.position(1))], "an ordinary step still steps")
        post(current: 1)
        XCTAssertEqual(ask(#"["multiply","playlist-pos",1e19]"#).sent, [.goTo(.position(2))])
        XCTAssertEqual(ask(#"["multiply","playlist-pos",-1e300]"#).sent, [.goTo(.position(0))])
        XCTAssertEqual(ask(#"["cycle","playlist-pos"]"#).sent, [.goTo(.position(2))])
        for v in ["nan", "inf", "-inf"] {
            XCTAssertEqual(ask(#"["add","playlist-pos","\#(v)"]"#), Answer(error: "invalid parameter"), v)
            XCTAssertEqual(ask(#"["multiply","playlist-pos","\#(v)"]"#), Answer(error: "invalid parameter"), v)
        }
        XCTAssertEqual(ask(#"["add","volume",1e300]"#).sent, [.volume(.set(100))], "mpv clamps to its volume-max")
        XCTAssertEqual(ask(#"["add","volume",-9223372036854775808]"#).sent, [.volume(.set(0))])
        XCTAssertEqual(ask(#"["multiply","volume",1e19]"#).sent, [.volume(.set(100))])
        for v in Self.huge {
            XCTAssertEqual(ask(#"["set_property_string","volume","\#(v)"]"#), Answer(error: "unsupported format for accessing property"), v)
        }
    }

    /// mpv 0.35's loop-playlist is a choice ("no", "inf", "yes", "force") or a whole 1...10000 (1 is "no"). Every
    /// reply here was read from mpv 0.35.1 (`mpv --idle --vo=null`, the same requests): 2^63-1, 1e19 and 2^31 are
    /// refused, not taken as "loop".
    func testLoopPlaylistPastItsRangeIsRefusedAsInMPV() {
        let refused = Self.huge.filter { $0 != "inf" } + ["-1e19", "2^63", "9223372036854775808", "18446744073709551616",
                                                         "2147483647", "2147483648", "10001", "0", "-1", "1.5", "1e3",
                                                         "5 ", "0x", "-0", "-0x10", "0x2711", "+ 5", "1_0", "１",
                                                         "infinite", "Inf"]
        for v in refused {
            XCTAssertEqual(ask(#"["set_property_string","loop-playlist","\#(v)"]"#),
                           Answer(error: "unsupported format for accessing property"), v)
            XCTAssertEqual(ask(#"["set","loop-playlist","\#(v)"]"#), Answer(error: "error running command"), v)
        }
        for v in ["9223372036854775807", "-9223372036854775808", "2147483647", "2147483648", "10001", "0", "-1"] {
            XCTAssertEqual(ask(#"["set_property","loop-playlist",\#(v)]"#),
                           Answer(error: "unsupported format for accessing property"), "JSON integer \(v)")
        }
        for v in ["1e19", "-1e19", "1e300", "9223372036854775808", "-9223372036854775809", "1.5", "2.0", "1e3", "null"] {
            XCTAssertEqual(ask(#"["set_property","loop-playlist",\#(v)]"#), Answer(error: "error accessing property"),
                           "JSON \(v): mpv takes no double for it")
        }
        let taken: [(String, Bool)] = [("inf", true), ("yes", true), ("force", true), ("no", false), ("1", false),
                                       ("2", true), ("10000", true), (" 5", true), (#"\t\u000b5"#, true), ("+5", true),
                                       ("0x10", true), ("+0x10", true), ("0X10", true), ("0x2710", true), ("007", true), ("010", true),
                                       ("", true)]  // "": the flag form (--loop-playlist alone is inf)
        for (v, loops) in taken {
            XCTAssertEqual(ask(#"["set_property_string","loop-playlist","\#(v)"]"#), Answer(error: "success", sent: [.loop(loops)]), v)
            XCTAssertEqual(ask(#"["set","loop-playlist","\#(v)"]"#), Answer(error: "success", sent: [.loop(loops)]), v)
        }
        for (v, loops) in [("10000", true), ("2", true), ("1", false), ("true", true), ("false", false), (#""inf""#, true)] {
            XCTAssertEqual(ask(#"["set_property","loop-playlist",\#(v)]"#), Answer(error: "success", sent: [.loop(loops)]), v)
        }
    }

    func testIntegerArgumentsPastInt32AreInvalidAsInMPV() {
        for v in Self.huge.map({ "\"\($0)\"" }) + ["1e19", "9223372036854775807", "-9223372036854775808", "1e300", "2147483648"] {
            XCTAssertEqual(ask(#"["playlist-play-index",\#(v)]"#), Answer(error: "invalid parameter"), v)
            XCTAssertEqual(ask(#"["playlist-remove",\#(v)]"#), Answer(error: "invalid parameter"), v)
            XCTAssertEqual(ask(#"["playlist-move",\#(v),0]"#), Answer(error: "invalid parameter"), v)
            XCTAssertEqual(ask(#"["show-text","x",\#(v)]"#), Answer(error: "invalid parameter"), v)
            XCTAssertEqual(ask(#"["show-text","x",1000,\#(v)]"#), Answer(error: "invalid parameter"), v)
            XCTAssertEqual(ask(#"["quit",\#(v)]"#), Answer(error: "invalid parameter"), "\(v): no quit on a bad code")
        }
        XCTAssertEqual(ask(#"["playlist-play-index",2147483647]"#).sent, [.stopPlayback], "in range, past the list")
        XCTAssertEqual(ask(#"["quit",3]"#).sent, [.quit])
    }

    func testHugeSeeksAndTimesReachThePlayerFiniteOrNotAtAll() {
        for v in ["\"nan\"", "\"inf\"", "\"-inf\""] {
            XCTAssertEqual(ask(#"["seek",\#(v)]"#), Answer(error: "invalid parameter"), v)
            XCTAssertEqual(ask(#"["set_property","image-display-duration",\#(v)]"#),
                           Answer(error: "unsupported format for accessing property"), v)
        }
        // These are the player's to take (mpv takes them too); what reaches it is finite. The player's side of
        // them is the end-to-end test's.
        XCTAssertEqual(ask(#"["seek",1e308]"#).sent, [.seek(1e308, relative: true)])
        XCTAssertEqual(ask(#"["seek",1e308,"absolute-percent"]"#).sent, [.seek(.infinity, relative: false)],
                       "5 s × 1e308 % overflows to inf, which the player refuses (mpv: error running command)")
        XCTAssertEqual(ask(#"["set_property","image-display-duration",1e300]"#).sent, [.imageDuration(1e300)])
    }

    // MARK: - MQTT command payloads

    func testMQTTPayloadsPastIntAreRefusedWithALine() {
        func refusal(_ command: String, _ payload: String) -> String {
            do {
                return "taken: \(try FleetRequest.parse(command, payload: Array(payload.utf8)))"
            } catch {
                return error.description
            }
        }
        for v in Self.huge + ["1e400", "18446744073709551616"] {
            XCTAssertTrue(refusal("volume", v).hasSuffix("0...100"), "\(v): \(refusal("volume", v))")
        }
        for v in ["1e19", "9223372036854775807", "-9223372036854775808", "1e300"] {
            XCTAssertEqual(refusal("view", #"{"zoom":\#(v)}"#), "zoom \(Double(v) ?? 0) is out of range 1...4")
            XCTAssertEqual(refusal("view", #"{"fov":\#(v)}"#), "fov \(Double(v) ?? 0) is out of range (0...360)")
        }
        XCTAssertTrue(refusal("view", #"{"yaw":1e400}"#).hasPrefix("not JSON"), refusal("view", #"{"yaw":1e400}"#))
        XCTAssertEqual(try FleetCommandTranslation.commands("volume", "37.0"), [.volume(.set(37))])
    }

    // MARK: - The state file

    func testStateFileWithHugeNumbersIsRefusedWithALineNamingTheValue() {
        /// A whole state file with `change` over its members.
        func decode(_ change: [String: String]) -> String {
            var members = ["kiosk-state": "1", "path": #""/v.mp4""#, "position": "3", "duration": "600", "volume": "50",
                           "muted": "false", "paused": "false", "resume": "{}", "saved": "0"]
            members.merge(change) { _, new in new }
            let json = "{" + members.sorted { $0.key < $1.key }.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",") + "}"
            do {
                _ = try PlayerState.decode(Data(json.utf8))
                return "taken"
            } catch {
                return error.description
            }
        }
        XCTAssertEqual(decode([:]), "taken")
        XCTAssertEqual(decode(["volume": "1e19"]), "volume 1e+19 is not 0...100")
        XCTAssertEqual(decode(["volume": "18446744073709551616"]), "volume 1.8446744073709552e+19 is not 0...100")
        XCTAssertEqual(decode(["volume": "1e300"]), "volume 1e+300 is not 0...100")
        XCTAssertEqual(decode(["position": "1e400"]), "a number in it is out of range")
        XCTAssertEqual(decode(["volume": "9223372036854775807"]), "volume 9223372036854775807 is not 0...100")
        XCTAssertEqual(decode(["volume": "-9223372036854775808"]), "volume -9223372036854775808 is not 0...100")
        XCTAssertEqual(decode(["kiosk-state": "1e19"]), #"its "kiosk-state" marker is not a format number"#)
        XCTAssertEqual(decode(["kiosk-state": "9223372036854775807"]), "state format 9223372036854775807 is not this kiosk's (1)")
        XCTAssertEqual(decode(["position": "1e300"]), "position 1e+300 s is not from 0 to 100 years", "every time is a TimeSpan")
        XCTAssertEqual(decode(["duration": "1e19"]), "duration 1e+19 s is not from 0 to 100 years")
        XCTAssertEqual(decode(["resume": #"{"/w.mp4":1e300}"#]), "resume position of /w.mp4: 1e+300 s is not from 0 to 100 years")
        XCTAssertEqual(decode(["position": "3e9", "resume": #"{"/w.mp4":3e9}"#]), "taken", "95 years is a time")
    }

    // MARK: - Playlists and the times they lead to

    func testHugeEXTINFDurationsDoNotTrap() {
        let text = "#EXTINF:1e400,inf\n/m/a.gif\n#EXTINF:nan,n\n/m/b.gif\n#EXTINF:1e300,big\n/m/c.gif\n#EXTINF:inf,i\n/m/d.gif\n"
        let items = M3U.entries(in: text, base: "/m", source: "/m/list.m3u", log: Log(level: .error))
        XCTAssertEqual(items.map(\.duration), [nil, nil, nil, nil], "a duration that is no number, or past 100 years (TimeSpan), is none")
        let gif = MediaTiming.animation(frameDurations: [0.1, 0.1], loops: 0)
        XCTAssertEqual(gif.plays(forDuration: 1e300), Int.max)
        XCTAssertEqual(gif.plays(forDuration: .infinity), Int.max)
        XCTAssertEqual(MediaTiming.animation(frameDurations: [0.1], loops: 3).plays(forDuration: 1e300), 3)
        XCTAssertEqual(DurationText.format(1e300), DurationText.format(Double(Int.max)))
        XCTAssertEqual(DurationText.progress(0, of: 1e19), "0:00 / 2562047788015215:30:07")
    }

    func testResumingAClipAt1e300DoesNotTrap() throws {
        let dir = try TempDir()
        let clip = dir.file("clip.mp4")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10", "-f", "lavfi", "-i", "sine=frequency=440",
                              "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", clip])
        let info = try MediaFile.probe(clip)
        for start in [1e300, 9.3e12, Double.greatestFiniteMagnitude] {
            // The state file's resume position goes here: a frame (the last), or an error, never a trap.
            if let item = try? MediaFile.openClip(clip, info: info, log: Log(level: .error), startAt: start, timeout: 20),
               case .clip(let decoder) = item.picture {
                (decoder as? VideoDecoder)?.close()
            }
            let sound = try AudioDecoder(path: clip, format: AudioFormat(sampleRate: 48_000, channels: 2, sample: .s16))
            try? sound.seek(to: start)
            _ = try? sound.read(maxFrames: 1024)
        }
    }

    // MARK: - End to end: a real kiosk keeps its socket

    /// `kiosk play` (headless, bounded in time, its stderr read as it runs) gets the numbers that trapped it and
    /// still answers: `playlist-pos` is where the clamped `add` put it, and it stops cleanly on SIGTERM. The
    /// playlist's first entry is an animation with `#EXTINF:3e9` (95 years, the most a `TimeSpan` nearly holds: its
    /// loop count past Int32), and the remote then sets a
    /// still's duration to 1e300 and shows the progress text (its `H:MM:SS`).
    func testALiveKioskSurvivesNumbersPastIntAndStillAnswers() throws {
        let dir = try TempDir()
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=5", "-t", "1", dir.file("anim.gif")])
        for name in ["a.png", "b.png"] {
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48", "-frames:v", "1", dir.file(name)])
        }
        let list = dir.file("list.m3u")
        try "#EXTINF:3e9,forever\nanim.gif\na.png\nb.png\n".write(toFile: list, atomically: true, encoding: .utf8)
        let sock = dir.file("ipc.sock")
        let p = try LiveProcess(["play", "--output", "headless", "--size", "160x120", "--duration", "30", "--transition", "none",
                                 "--input-ipc-server", sock, "--log-level", "info", list])
        defer { if p.isRunning { _ = p.finish(timeout: 1) } }
        XCTAssertTrue(p.waitFor("ipc: listening on \(sock)", timeout: 20), p.stderr)
        let c = try IPCConnection(path: sock)
        func error(_ command: String) throws -> String { try c.request(command, timeout: 10)["error"]?.string ?? "none" }
        /// `property` once it is `value` (the item changes when it has decoded), or what it is after 20 s.
        func settled(_ property: String, _ value: JSONValue) throws -> JSONValue? {
            let deadline = Date(timeIntervalSinceNow: 20)
            while try c.get(property) != value, Date() < deadline { usleep(50_000) }
            return try c.get(property)
        }
        XCTAssertEqual(try settled("playlist-pos", .int(0)), .int(0), p.stderr)
        XCTAssertEqual(try error(#"["set_property_string","playlist-pos","1e19"]"#), "unsupported format for accessing property")
        XCTAssertEqual(try c.get("playlist-pos"), .int(0), "a refused position moves nothing")
        XCTAssertEqual(try error(#"["add","playlist-pos",9223372036854775807]"#), "success")
        XCTAssertEqual(try settled("playlist-pos", .int(2)), .int(2), "clamped to the last item, as mpv clamps")
        XCTAssertEqual(try c.get("path"), .string(dir.file("b.png")))
        // The numbers that reach the player: each is answered, and none stops it.
        for command in [#"["set_property","image-display-duration",1e300]"#, #"["show-progress"]"#, #"["seek",1e308]"#,
                        #"["seek",1e308,"absolute"]"#, #"["set_property","kiosk-zoom",1e300]"#,
                        #"["set_property","kiosk-yaw",-1e300]"#, #"["set_property","kiosk-transition-duration",1e300]"#,
                        #"["show-text","x",2147483647,2147483647]"#, #"["add","volume",-9223372036854775808]"#,
                        #"["playlist-play-index",-9223372036854775808]"#, #"["add","playlist-pos",-1e300]"#] {
            XCTAssertNotEqual(try error(command), "none", command)
        }
        XCTAssertEqual(try settled("playlist-pos", .int(0)), .int(0), "add -1e300 clamps to the first item")
        XCTAssertEqual(try c.get("volume"), .double(0))
        XCTAssertTrue(p.isRunning, p.stderr)
        p.send(SIGTERM)
        let end = p.finish(timeout: 15)
        XCTAssertEqual(end.status, 0, p.stderr)
    }
}
