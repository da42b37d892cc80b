import XCTest
@testable import KioskCore

/// Keys and remotes: the default map, `--key` bindings and the kiosk safety rules.
final class KeyMapTests: XCTestCase {
    private func press(_ m: inout KeyMap, _ name: String) -> KeyOutcome {
        guard let c = KeyCode.parse(name) else { XCTFail(name); return .ignored }
        let o = m.handle(code: c, pressed: true)
        _ = m.handle(code: c, pressed: false)
        return o
    }

    func testDefaultMap() {
        var m = KeyMap()
        XCTAssertEqual(press(&m, "KEY_RIGHT"), .action(.next))
        XCTAssertEqual(press(&m, "KEY_NEXTSONG"), .action(.next))
        XCTAssertEqual(press(&m, "KEY_LEFT"), .action(.previous))
        XCTAssertEqual(press(&m, "KEY_PREVIOUSSONG"), .action(.previous))
        XCTAssertEqual(press(&m, "KEY_SPACE"), .action(.pause))
        XCTAssertEqual(press(&m, "KEY_PLAYPAUSE"), .action(.pause))
        XCTAssertEqual(press(&m, "KEY_ZOOMIN"), .action(.zoomIn))
        XCTAssertEqual(press(&m, "KEY_KPPLUS"), .action(.zoomIn))
        XCTAssertEqual(press(&m, "KEY_MINUS"), .action(.zoomOut))
        XCTAssertEqual(press(&m, "KEY_ZOOMOUT"), .action(.zoomOut))
        XCTAssertEqual(press(&m, "KEY_VOLUMEUP"), .action(.volumeUp))
        XCTAssertEqual(press(&m, "KEY_VOLUMEDOWN"), .action(.volumeDown))
        XCTAssertEqual(press(&m, "KEY_MUTE"), .action(.mute))
        XCTAssertEqual(press(&m, "KEY_OK"), .action(.overlay))
        XCTAssertEqual(press(&m, "KEY_ENTER"), .action(.overlay))
        XCTAssertEqual(press(&m, "KEY_BACK"), .action(.back))
    }

    func testNoKeyQuitsWithoutAllowQuit() throws {
        var m = KeyMap()
        XCTAssertEqual(press(&m, "KEY_ESC"), .ignored)
        XCTAssertEqual(press(&m, "KEY_Q"), .ignored)
        try m.bind("KEY_F5=quit")
        XCTAssertEqual(press(&m, "59"), .ignored)
        XCTAssertEqual(press(&m, "63"), .ignored, "a quit bound by --key is still refused")
        var q = KeyMap(allowQuit: true)
        XCTAssertEqual(press(&q, "KEY_ESC"), .action(.quit))
        XCTAssertEqual(press(&q, "q"), .action(.quit))
    }

    func testVTSwitchOnlyWhenAllowed() {
        for allowed in [false, true] {
            var m = KeyMap(allowVTSwitch: allowed)
            XCTAssertEqual(m.handle(code: 29, pressed: true), .ignored)
            XCTAssertEqual(m.handle(code: 56, pressed: true), .ignored)
            XCTAssertEqual(m.handle(code: 60, pressed: true), allowed ? .switchVT(2) : .ignored)
            XCTAssertEqual(m.handle(code: 60, pressed: true), .ignored, "autorepeat switches once")
            _ = m.handle(code: 60, pressed: false)
            _ = m.handle(code: 56, pressed: false)
            XCTAssertEqual(m.handle(code: 60, pressed: true), .ignored, "F2 without Alt does nothing")
        }
    }

    func testBindings() throws {
        var m = KeyMap()
        try m.bind("KEY_F5=next")
        try m.bind("0x160=pause")
        try m.bind("57=none")
        try m.bind("KEY_I=overlay")
        XCTAssertEqual(m.handle(code: 63, pressed: true), .action(.next))
        XCTAssertEqual(m.handle(code: 0x160, pressed: true), .action(.pause))
        XCTAssertEqual(m.handle(code: 57, pressed: true), .ignored)
        XCTAssertEqual(m.handle(code: 23, pressed: true), .action(.overlay))
        XCTAssertThrowsError(try m.bind("KEY_NOPE=next")) { XCTAssertTrue("\($0)".contains("--key")) }
        XCTAssertThrowsError(try m.bind("28=explode")) { XCTAssertTrue("\($0)".hasPrefix("--key: 'explode'")) }
        XCTAssertThrowsError(try m.bind("28")) { XCTAssertEqual("\($0)", "--key: '28' is not CODE=ACTION") }
    }

    func testKeysDriveTheSlideshow() {
        let show = Slideshow(items: (0..<3).map { PlaylistItem(path: "i\($0)") }, options: { var o = SlideshowOptions(); o.transition = .none; return o }())
        let input = Interaction(canvas: PixelSize(width: 640, height: 480), settings: InteractionSettings())
        let geo = LayerGeometry(picture: PixelSize(width: 640, height: 480), canvas: PixelSize(width: 640, height: 480), spherical: false)
        func frame(_ t: Double) {
            _ = show.run(input.step(at: t), at: t)
            if let s = show.update(at: t, availability: { _ in .ready(.still) }) {
                _ = input.views(sequence: s.current.sequence, current: true, geometry: geo, flat: FlatView(), sphere: SphereView())
            }
        }
        frame(0)
        _ = show.run(input.handle(.key(code: 57, pressed: true, time: 1)), at: 1)  // space: pause
        _ = show.run(input.handle(.key(code: 57, pressed: false, time: 1.1)), at: 1.1)
        for t in stride(from: 1.0, through: 12, by: 0.5) { frame(t) }
        XCTAssertEqual(show.currentID?.value, 0, "paused: the item stays past its duration")
        _ = show.run(input.handle(.key(code: 106, pressed: true, time: 12)), at: 12)  // right: next, still paused
        frame(12.1)
        XCTAssertEqual(show.currentID?.value, 1)
        XCTAssertTrue(show.isPaused)
        _ = show.run(input.handle(.key(code: 0x1a2, pressed: true, time: 13)), at: 13)  // zoom in
        frame(13.5)
        XCTAssertTrue(input.isZoomed)
        _ = show.run(input.handle(.key(code: 158, pressed: true, time: 14)), at: 14)  // back: home
        frame(14.5)
        XCTAssertFalse(input.isZoomed)
        XCTAssertFalse(show.isPaused, "back returns to the running slideshow")
    }

    func testInputOptionsFromTheCommandLineAndTheConfigFile() throws {
        let text = "key = KEY_F5=next\nkey = 0x160=pause\nallow-quit = true\ntouch-idle = 30\ninput-device = /dev/input/event7\n"
        let args = try ConfigFile.expand(["--config", "kiosk.conf", "--seat", "seat1"], read: { _ in text })
        let o = try ParsedOptions.parse(args, specs: CommandSpecs.play, command: "play")
        var i = try CommandSpecs.inputOptions(from: o)
        XCTAssertEqual(i.seat, "seat1")
        XCTAssertEqual(i.devices, ["/dev/input/event7"])
        XCTAssertEqual(i.interaction.touchIdle, 30)
        XCTAssertTrue(i.enabled)
        XCTAssertEqual(i.interaction.keys.handle(code: 63, pressed: true), .action(.next))
        XCTAssertEqual(i.interaction.keys.handle(code: 0x160, pressed: true), .action(.pause))
        XCTAssertEqual(i.interaction.keys.handle(code: 1, pressed: true), .action(.quit))
        XCTAssertFalse(i.interaction.keys.allowVTSwitch)
        let off = try CommandSpecs.inputOptions(from: ParsedOptions.parse(["--no-input"], specs: CommandSpecs.play, command: "play"))
        XCTAssertFalse(off.enabled)
    }
}
