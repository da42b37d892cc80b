import Foundation
import KioskCore
import KioskMedia
import KioskOutput
@testable import KioskPlayer
import XCTest

/// signageOS's named triggers through the whole player on a virtual clock: the keys of a key sequence, a tap
/// anywhere (a mouse trigger) and a notify by the trigger's id reach the layout as kiosk's own triggers do
/// (through the command inbox, where IPC's, MQTT's and the input's land), and what they begin shows over the loop
/// in the trigger's region, then is gone.
final class SMILDialectPlayerTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    func testKeysATapAndANotifyFireTheHeadsTriggers() throws {
        let dir = try TempDir()
        for c in ["green", "blue", "red", "yellow"] {
            _ = try ColourPictures.make(dir, "\(c).png", c)
        }
        let smil = dir.file("triggers.smil")
        try """
            <smil><head>
            <triggers>
            <trigger id="trigger-code" condition="or"><condition origin="keyboard" data="246" action="keyUp"/></trigger>
            <trigger id="trigger-touch" condition="or"><condition origin="mouse" action="click"/></trigger>
            <trigger id="trigger-tag" condition="or"><condition origin="rfid1" data="3" action="picked"/></trigger>
            </triggers>
            <layout><root-layout width="160" height="90"/><region regionName="main" fit="fill"/>
            <region regionName="trigger-region" z-index="2" fit="fill"/></layout></head>
            <body><par><seq repeatCount="indefinite"><img src="green.png" region="main" dur="30s"/></seq>
            <seq begin="trigger-code"><img src="blue.png" region="trigger-region" dur="1.5s"/></seq>
            <seq begin="trigger-touch"><img src="red.png" region="trigger-region" dur="1.5s"/></seq>
            <seq begin="trigger-tag"><img src="yellow.png" region="trigger-region" dur="1.5s"/></seq></par></body></smil>
            """.write(toFile: smil, atomically: true, encoding: .utf8)
        let file = try SMILFile.load(smil)
        XCTAssertEqual(file.document.warnings.count, 1, "\(file.document.warnings)")  // the rfid origin
        let clock = VirtualClock()
        let size = PixelSize(width: 160, height: 90)
        var config = PlayerConfig()
        config.size = size
        let output = try VirtualTimeOutput(size: size, fps: 10, clock: clock, sink: { _ in })
        let p = try Player(items: [], config: config, output: output, clock: clock, log: Log(level: .error), waitForDecodes: true)
        try p.play(layout: file)
        XCTAssertEqual(p.screen.layoutMode?.screen.accessKeys, ["2", "4", "6"], "the sequence's keys go to the layout")
        XCTAssertEqual(p.screen.layoutMode?.screen.hearsTaps, true)
        // 2 4 6 from 1.0 s (blue 1.4-2.9), a tap at 4 (red 4-5.5), notify(trigger-tag) at 7 (yellow 7-8.5)
        var queue: [(Double, PlayerCommand)] = [(1.0, .trigger(.key("2"))), (1.2, .trigger(.key("4"))), (1.4, .trigger(.key("6"))),
                                                (4.0, .trigger(.tap(x: 0.5, y: 0.5))), (7.0, .trigger(.notify("trigger-tag")))]
        p.onLoopTurn = { [unowned p] in
            while let (t, command) = queue.first, clock.now >= t {
                queue.removeFirst()
                p.inbox.queueFromLoop(command)
            }
        }
        var seen: [Double: String] = [:]
        let probes = [0.8, 2.0, 3.5, 4.8, 6.0, 7.8, 9.0]
        _ = try p.run(length: 10, shouldStop: {
            for t in probes where seen[t] == nil && clock.now >= t {
                let regions = p.screen.layoutMode?.regions(at: clock.now) ?? []
                seen[t] = regions.first { $0.name == "trigger-region" }?.src ?? regions.first { $0.name == "main" }?.src ?? "-"
            }
            return false
        })
        XCTAssertEqual(probes.map { seen[$0] ?? "not reached" },
                       ["green.png", "blue.png", "green.png", "red.png", "green.png", "yellow.png", "green.png"])
    }
}
