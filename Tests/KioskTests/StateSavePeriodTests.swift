import KioskCore
import XCTest

/// Which changes of the kept state wait for the keeper's period (`PlayerState.onlyMovedOn`): the player moving on by
/// itself waits; what someone asked for, and the first item when none was kept, are saved at once (the systemd
/// VM check reads `state.json` seconds after the start and wants the item in it).
final class StateSavePeriodTests: XCTestCase {
    func testOnlyTheSlideshowMovingOnWaits() {
        var none = PlayerState()
        none.volume = 80
        var first = none
        first.path = "/m/a.png"
        XCTAssertFalse(first.onlyMovedOn(from: none), "the first item since nothing was kept is saved at once")
        var next = first
        next.path = "/m/b.png"
        XCTAssertTrue(next.onlyMovedOn(from: first), "the next item waits")
        var clip = first
        clip.path = "/m/long.mp4"
        clip.position = 12
        clip.duration = 600
        var later = clip
        later.position = 25
        XCTAssertTrue(later.onlyMovedOn(from: clip), "a clip's position waits")
        var louder = next
        louder.volume = 30
        XCTAssertFalse(louder.onlyMovedOn(from: next), "a volume someone set is saved at once")
        var paused = next
        paused.paused = true
        XCTAssertFalse(paused.onlyMovedOn(from: next), "a pause is saved at once")
        var saved = next
        saved.saved = 12345
        XCTAssertTrue(saved.onlyMovedOn(from: next), "the time of the save is no change")
    }
}
