import Foundation
import KioskCore
@testable import KioskPlayer
import XCTest

/// The item's sound follows the slideshow's pause and the volume keys (no sound card here: the silent clock).
final class ItemSoundTests: XCTestCase {
    func testPauseHoldsTheSoundClockAndVolumeKeysClamp() throws {
        let dir = try TempDir()
        let wav = dir.file("tone.wav")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=30", wav])
        var settings = AudioSettings()
        settings.device = "nosuchpcm"
        settings.volume = 95
        let sound = ItemSound(settings: settings, log: Log(level: .error, sink: { _ in }))
        sound.start(path: wav, sequence: 7, at: 0)
        defer { sound.stop() }
        // The tone is 30 s long, so that a stalled machine cannot reach its end (no clock then) before the checks.
        XCTAssertTrue(eventually(20) { (sound.clock(for: 7) ?? 0) > 0.1 }, "the sound clock runs")
        sound.pause(true)
        let held = try XCTUnwrap(sound.clock(for: 7))
        // A fixed wait on purpose: the clock must be seen NOT to move for a while.
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(try XCTUnwrap(sound.clock(for: 7)), held, accuracy: 0.02, "paused: the clock holds")
        sound.pause(false)
        XCTAssertTrue(eventually(20) { (sound.clock(for: 7) ?? 0) > held + 0.2 }, "resumed: it moves on")
        XCTAssertNil(sound.clock(for: 8), "another slot has no sound clock")
        sound.apply(.by(10))
        XCTAssertEqual(sound.level.volume, 100)
        sound.apply(.by(-30))
        XCTAssertEqual(sound.level.volume, 70)
        sound.apply(.toggleMute)
        XCTAssertTrue(sound.level.muted)
    }
}
