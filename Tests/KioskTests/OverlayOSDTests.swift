import Foundation
import KioskCore
import XCTest

/// What overlays show for a frame, built by hand: a 1920x1080 canvas, a context around one item, and the
/// texts the model is expected to lay out, so tests compare whole scenes.
enum OverlayFixture {
    static let canvas = PixelSize(width: 1920, height: 1080)
    /// The safe area less the margin on a 16:9 canvas with no overscan.
    static let area = OverlayRect.canvas.inset(dx: 0.03 / (1920.0 / 1080.0), dy: 0.03)
    static let noon = Date(timeIntervalSince1970: 1_800_000_000)
    static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .current

    /// Item 3 of 12, `slotTime` into a `length`-second slot.
    static func item(_ kind: OverlayContext.Item.Kind = .still, sequence: Int = 1, time: Double = 0, length: Double = 10,
                     caption: String? = nil, paused: Bool = false, metadata: ItemMetadata? = nil,
                     artwork: Bool = false, next: String? = "Beach") -> OverlayContext.Item {
        OverlayContext.Item(sequence: sequence, kind: kind, index: 3, count: 12, slotTime: time, slotLength: length,
                            name: "photo", caption: caption, paused: paused, metadata: metadata, hasArtwork: artwork,
                            nextName: next)
    }

    static func context(_ item: OverlayContext.Item? = item(), now: Date = noon, canvas: PixelSize = canvas) -> OverlayContext {
        OverlayContext(canvas: canvas, item: item, now: now, timeZone: berlin)
    }

    /// The scene with only an on-screen message saying `text`.
    static func osd(_ text: String) -> OverlayScene { OverlayScene(texts: [osdText(text)]) }

    static func osdText(_ text: String) -> OverlayText {
        OverlayText(role: .osd, text: text, anchor: .topLeft, area: area, sizeFraction: 0.045, maxLines: 2,
                    maxWidthFraction: 0.6, box: true)
    }

    static func settings(_ change: (inout OverlaySettings) -> Void) -> OverlaySettings {
        var s = OverlaySettings()
        change(&s)
        return s
    }
}

/// On-screen messages (mpv's OSD) on a virtual clock: what each note and event shows, for how long, which
/// replaces which, and what each `--osd-level` shows.
final class OverlayOSDTests: XCTestCase {
    typealias F = OverlayFixture
    private let none = OverlayScene()

    func testAUserPauseShowsForOneAndAHalfSecondsAndOthersReasonsSayNothing() {
        let s = OverlayState()
        let c = F.context()
        XCTAssertEqual(s.scene(at: 0, context: c), none)
        s.handle(.pauseChanged([.user]), at: 0)
        XCTAssertEqual(s.scene(at: 0, context: c), F.osd("Paused"))
        XCTAssertEqual(s.scene(at: 1.4, context: c), F.osd("Paused"))
        XCTAssertEqual(s.scene(at: 1.6, context: c), none)
        XCTAssertEqual(s.scene(at: 1.5, context: c), none, "gone exactly at 1.5 s: no fade")
        XCTAssertEqual(s.nextChange(after: 0, context: c), 1.5)
        XCTAssertNil(s.nextChange(after: 1.5, context: c), "a still with nothing timed does not change by itself")

        s.handle(.pauseChanged([.user, .interaction]), at: 5)
        XCTAssertEqual(s.scene(at: 5, context: c), none, "a finger down is not the user's pause")
        s.handle(.pauseChanged([.interaction]), at: 6)
        XCTAssertEqual(s.scene(at: 6, context: c), F.osd("Paused"), "still paused, by the finger")
        s.handle(.pauseChanged([]), at: 8)
        XCTAssertEqual(s.scene(at: 8, context: c), none, "the finger's release changes nothing the user asked")
        s.handle(.pauseChanged([.remote]), at: 10)
        XCTAssertEqual(s.scene(at: 10, context: c), F.osd("Paused"))
        s.handle(.pauseChanged([]), at: 12)
        XCTAssertEqual(s.scene(at: 12, context: c), F.osd("Playing"))
        s.handle(.pauseChanged([.schedule]), at: 20)
        XCTAssertEqual(s.scene(at: 20, context: c), none, "a schedule's pause says nothing")
    }

    func testVolumeMuteAndZoom() {
        let s = OverlayState()
        let c = F.context()
        s.noteVolume(.set(40), volume: 40, muted: false, at: 0)
        XCTAssertEqual(s.scene(at: 0.5, context: c), F.osd("Volume 40 %"))
        s.noteVolume(.by(10), volume: 50, muted: false, at: 1)
        XCTAssertEqual(s.scene(at: 1, context: c), F.osd("Volume 50 %"))
        s.noteVolume(.toggleMute, volume: 50, muted: true, at: 2)
        XCTAssertEqual(s.scene(at: 2, context: c), F.osd("Muted"))
        s.noteVolume(.mute(false), volume: 50, muted: false, at: 3)
        XCTAssertEqual(s.scene(at: 3, context: c), F.osd("Unmuted"))

        s.handle(.itemStarted(ItemID(1), path: "/m/a.jpg", sequence: 1), at: 10)
        s.noteZoom(1, at: 10)
        XCTAssertEqual(s.scene(at: 10, context: c), none, "the first zoom of an item is taken silently")
        s.noteZoom(1.0001, at: 10.1)
        XCTAssertEqual(s.scene(at: 10.1, context: c), none, "noise below a tenth says nothing")
        s.noteZoom(2.5, at: 11)
        XCTAssertEqual(s.scene(at: 11, context: c), F.osd("Zoom 2.5×"))
        s.noteZoom(2.5, at: 12)
        XCTAssertEqual(s.scene(at: 12.6, context: c), none, "an unchanged zoom posts nothing new")
        s.noteZoom(2, at: 13)
        XCTAssertEqual(s.scene(at: 13, context: c), F.osd("Zoom 2×"))
        s.handle(.itemStarted(ItemID(2), path: "/m/b.jpg", sequence: 2), at: 20)
        s.noteZoom(1, at: 20)
        XCTAssertEqual(s.scene(at: 20, context: c), none, "a new item's zoom of 1 is not a change")
    }

    func testANewerMessageReplacesAnOlder() {
        let s = OverlayState()
        let c = F.context()
        s.handle(.pauseChanged([.user]), at: 0)
        s.noteVolume(.set(30), volume: 30, muted: false, at: 1)
        XCTAssertEqual(s.scene(at: 1, context: c), F.osd("Volume 30 %"))
        XCTAssertEqual(s.scene(at: 2.4, context: c), F.osd("Volume 30 %"), "the newer one runs its own 1.5 s")
        XCTAssertEqual(s.scene(at: 2.5, context: c), none)
        XCTAssertEqual(s.nextChange(after: 1, context: c), 2.5)
    }

    func testLevelZeroShowsNothingOneShowsThePlaceAfterASkipTwoAtEveryItemAndWhatIsNext() {
        let c = F.context(F.item(time: 0))
        let quiet = OverlayState(settings: F.settings { $0.osdLevel = 0 })
        quiet.handle(.pauseChanged([.user]), at: 0)
        quiet.noteVolume(.set(10), volume: 10, muted: false, at: 0)
        quiet.showText("hello", seconds: 2, at: 0)
        quiet.handle(.itemEnded(ItemID(0), path: "/a", reason: .skipped), at: 0)
        quiet.handle(.itemStarted(ItemID(1), path: "/b", sequence: 1), at: 0)
        XCTAssertEqual(quiet.scene(at: 0, context: c), none)

        let one = OverlayState()
        one.handle(.itemEnded(ItemID(0), path: "/a", reason: .eof), at: 0)
        one.handle(.itemStarted(ItemID(1), path: "/b", sequence: 1), at: 0)
        XCTAssertEqual(one.scene(at: 0, context: c), none, "an item that comes on by itself says nothing at level 1")
        one.handle(.itemEnded(ItemID(1), path: "/b", reason: .skipped), at: 3)
        one.handle(.itemStarted(ItemID(2), path: "/c", sequence: 2), at: 3)
        XCTAssertEqual(one.scene(at: 3, context: c), F.osd("3 / 12"), "a user's next or previous shows the place")
        XCTAssertEqual(one.scene(at: 9, context: F.context(F.item(time: 8.5))), none, "no 'Next' at level 1")

        let two = OverlayState(settings: F.settings { $0.osdLevel = 2 })
        two.handle(.itemStarted(ItemID(1), path: "/b", sequence: 1), at: 0)
        XCTAssertEqual(two.scene(at: 0, context: c), F.osd("3 / 12"))
        XCTAssertEqual(two.scene(at: 7.9, context: F.context(F.item(time: 7.9))), none)
        XCTAssertEqual(two.nextChange(after: 7.5, context: F.context(F.item(time: 7.5))), 8, "the notice's start")
        XCTAssertEqual(two.scene(at: 8, context: F.context(F.item(time: 8))), F.osd("Next: Beach"))
        XCTAssertEqual(two.scene(at: 9.9, context: F.context(F.item(time: 9.9))), F.osd("Next: Beach"))
        XCTAssertEqual(two.scene(at: 9, context: F.context(F.item(time: 9, next: nil))), none, "nothing follows the last item")
        two.noteVolume(.set(20), volume: 20, muted: false, at: 9)
        XCTAssertEqual(two.scene(at: 9.2, context: F.context(F.item(time: 9.2))), F.osd("Volume 20 %"),
                       "a message newer than the notice shows over it")
    }

    func testShowTextShowProgressAndTheLongPress() {
        let s = OverlayState()
        s.showText("hello", seconds: 2, at: 0)
        XCTAssertEqual(s.scene(at: 1.9, context: F.context()), F.osd("hello"))
        XCTAssertEqual(s.scene(at: 2, context: F.context()), none)
        s.showText("only at 2", seconds: 5, level: 2, at: 3)
        XCTAssertEqual(s.scene(at: 3, context: F.context()), none, "its level is above the OSD level")

        s.showProgress(at: 4)
        XCTAssertEqual(s.scene(at: 4, context: F.context(F.item(time: 4.2))), F.osd("3 / 12  0:04 / 0:10"))
        XCTAssertEqual(s.scene(at: 4.9, context: F.context(F.item(time: 5.1))), F.osd("3 / 12  0:05 / 0:10"), "it counts")
        XCTAssertEqual(s.nextChange(after: 4, context: F.context(F.item(time: 4.5))), 4.5, "the slot's next second")
        XCTAssertEqual(s.scene(at: 5, context: F.context(F.item(time: 5.2))), none, "mpv's 1 s")

        s.handle(.itemStarted(ItemID(1), path: "/b", sequence: 1), at: 6)
        s.apply(.showInfo, at: 7)
        XCTAssertEqual(s.scene(at: 7, context: F.context()), F.osd("3 / 12 · Next: Beach"))
        XCTAssertEqual(s.scene(at: 7, context: F.context(nil)), none, "nothing to place while idle")
    }
}
