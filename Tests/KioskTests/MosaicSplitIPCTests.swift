// The mosaic's split and the effect toggle over mpv's JSON IPC: the property table's answers against a recording
// sink (as MPVSessionTests), then a session over a real player on a virtual clock, whose frames show the bar
// where the remote put it.
import Foundation
import KioskCore
import KioskMedia
import KioskOutput
@testable import KioskPlayer
@testable import KioskRemote
import KioskRender
import XCTest

final class MosaicSplitIPCTests: XCTestCase {
    typealias Context = MPVSessionTests.Context
    typealias Sink = MPVSessionTests.Sink

    let a = ClientID(1)

    /// A session over `board` sending to `sink`, with one client connected.
    func session(board: PlayerBoard, sink: CommandSink, context: Context) throws -> MPVSession {
        let gate = try MediaGate(root: nil, log: Log(level: .error)) { [PlaylistItem(path: $0)] }
        let s = MPVSession(board: board, sink: sink, gate: gate, log: Log(level: .error), keys: { MPVKeyNames.code($0) })
        s.attach(wake: {})
        s.accepted(a, context: context)
        return s
    }

    func testKioskSplitGetSetObserveAndTheToggle() throws {
        let board = PlayerBoard(), sink = Sink(), context = Context()
        let s = try session(board: board, sink: sink, context: context)
        func say(_ line: String) -> [String] {
            s.received(Array(line.utf8), from: a, context: context)
            return context.take(a)
        }
        func answer() {
            sink.answer()
            s.woken(context: context)
        }
        var status = PlayerStatus()
        status.effect = "mosaic:split=0.3"
        status.effectSplit = 0.3
        board.post(status)
        XCTAssertEqual(say(#"{"command":["get_property","kiosk-split"],"request_id":1}"#),
                       [#"{"data":0.300000,"request_id":1,"error":"success"}"#])
        XCTAssertEqual(say(#"{"command":["observe_property",4,"kiosk-split"],"request_id":2}"#),
                       [#"{"request_id":2,"error":"success"}"#, #"{"event":"property-change","id":4,"name":"kiosk-split","data":0.300000}"#])
        XCTAssertEqual(say(#"{"command":["set_property","kiosk-split",0.6],"request_id":3}"#), [])
        XCTAssertEqual(sink.commands, [.effectSplit(0.6)])
        status.effectSplit = 0.6
        board.post(status)
        answer()
        XCTAssertEqual(context.take(a), [#"{"request_id":3,"error":"success"}"#,
                                         #"{"event":"property-change","id":4,"name":"kiosk-split","data":0.600000}"#])
        // Out of 0...1: refused as mpv refuses a value outside an option's range; nothing is sent.
        for bad in ["2", "-0.1", #""x""#] {
            XCTAssertEqual(say(#"{"command":["set_property","kiosk-split",\#(bad)],"request_id":5}"#),
                           [#"{"request_id":5,"error":"unsupported format for accessing property"}"#], bad)
        }
        XCTAssertEqual(sink.commands, [.effectSplit(0.6)])
        XCTAssertEqual(say(#"{"command":["set_property","kiosk-mosaic-split","0.25"],"request_id":6}"#), [], "the alias, from a string")
        XCTAssertEqual(sink.commands.last, .effectSplit(0.25))
        answer()
        _ = context.take(a)
        // cycle kiosk-effect is the toggle; kiosk-effect none turns it off too.
        XCTAssertEqual(say(#"{"command":["cycle","kiosk-effect"],"request_id":7}"#), [])
        XCTAssertEqual(sink.commands.last, .toggleEffect)
        answer()
        XCTAssertEqual(context.take(a), [#"{"data":null,"request_id":7,"error":"success"}"#])
        XCTAssertEqual(say(#"{"command":["set_property","kiosk-effect","none"],"request_id":8}"#), [])
        XCTAssertEqual(sink.commands.last, .effect(nil))
        answer()
        _ = context.take(a)
        // No split while no effect has one.
        status.effect = nil
        status.effectSplit = nil
        board.post(status)
        s.woken(context: context)
        XCTAssertEqual(context.take(a), [#"{"event":"property-change","id":4,"name":"kiosk-split"}"#])
        XCTAssertEqual(say(#"{"command":["get_property","kiosk-split"],"request_id":9}"#),
                       [#"{"request_id":9,"error":"property unavailable"}"#])
        XCTAssertEqual(say(#"{"command":["set_property","kiosk-split",0.5],"request_id":10}"#),
                       [#"{"request_id":10,"error":"property unavailable"}"#])
    }

    func testARemoteSetsTheSplitOfARealPlayerAndStopsTheSweep() throws {
        let size = PixelSize(width: 320, height: 160)
        let dir = try RenderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("a.png").path
        try PNGWriter.write(RenderMosaicBarTests.noRedPicture(size), to: path)
        var config = PlayerConfig()
        config.size = size
        config.slideshow.duration = 10
        config.effect = PieceSpec(name: "mosaic", options: ["split=0.2..0.8", "period=4"])
        let clock = VirtualClock()
        var frames: [(t: Double, image: RGBAImage)] = []
        let output = try VirtualTimeOutput(size: size, fps: 20, clock: clock, sink: { frames.append((clock.now, $0)) })
        let player = try Player(items: [PlaylistItem(path: path)], config: config, output: output, clock: clock,
                                log: Log(level: .error), waitForDecodes: true)
        let context = Context()
        let s = try session(board: player.board, sink: player.inbox, context: context)
        var said: [Double: [String]] = [:]
        let script: [(Double, String)] = [
            (0.5, #"{"command":["observe_property",1,"kiosk-split"],"request_id":1}"#),
            (1.0, #"{"command":["set_property","kiosk-split",0.25],"request_id":2}"#),
            (1.0, #"{"command":["get_property","kiosk-split"],"request_id":3}"#),
            (2.0, #"{"command":["cycle","kiosk-effect"],"request_id":4}"#),
            (2.0, #"{"command":["get_property","kiosk-effect"],"request_id":5}"#),
            (2.5, #"{"command":["cycle","kiosk-effect"],"request_id":6}"#),
            (2.5, #"{"command":["get_property","kiosk-split"],"request_id":7}"#),
        ]
        var next = 0
        _ = try player.run(length: 3.5, shouldStop: {
            s.woken(context: context)
            let got = context.take(self.a)
            if !got.isEmpty { said[clock.now] = got }
            while next < script.count, clock.now >= script[next].0 {
                s.received(Array(script[next].1.utf8), from: self.a, context: context)
                next += 1
            }
            return false
        })
        let replies = said.sorted { $0.key < $1.key }.flatMap(\.value)
        let lines = replies.filter { $0.contains("request_id") }
        XCTAssertEqual(lines, [
            #"{"request_id":1,"error":"success"}"#,
            #"{"request_id":2,"error":"success"}"#,
            #"{"data":0.250000,"request_id":3,"error":"success"}"#,
            #"{"data":null,"request_id":4,"error":"success"}"#,
            #"{"data":"none","request_id":5,"error":"success"}"#,
            #"{"data":null,"request_id":6,"error":"success"}"#,
            #"{"data":0.250000,"request_id":7,"error":"success"}"#,
        ])
        // Observed: the sweep's values until the set, then 0.25, then nothing while off, then 0.25 again.
        let changes = replies.filter { $0.contains("property-change") }
        XCTAssertGreaterThan(changes.count, 5, "the sweep moves the split every frame")
        let afterSet = changes.drop { !$0.contains("0.250000") }
        XCTAssertEqual(Array(afterSet), [#"{"event":"property-change","id":1,"name":"kiosk-split","data":0.250000}"#,
                                         #"{"event":"property-change","id":1,"name":"kiosk-split"}"#,
                                         #"{"event":"property-change","id":1,"name":"kiosk-split","data":0.250000}"#])
        // The frames: on the sweep until 1 s, the remote's split from then on (the sweep stopped), none while off.
        func red(_ t: Double) throws -> [Int] {
            RenderMosaicBarTests.columns(try XCTUnwrap(frames.last { $0.t <= t + 1e-9 }?.image), [255, 0, 0])
        }
        XCTAssertEqual(try red(0.5), [Int((SplitSweep(from: 0.2, to: 0.8, period: 4).split(after: 0.5) * 320).rounded()) - 1,
                                      Int((SplitSweep(from: 0.2, to: 0.8, period: 4).split(after: 0.5) * 320).rounded())])
        XCTAssertEqual(try red(1.5), [79, 80])
        XCTAssertEqual(try red(1.95), [79, 80], "t 1.95 would be 0.8 on the sweep")
        XCTAssertEqual(try red(2.2), [])
        XCTAssertEqual(try red(3.0), [79, 80])
    }
}
