import Foundation
import KioskAudio
import KioskCore
import KioskMedia

/// The sound of the item on screen: a clip's or a sound file's audio stream played through ALSA on its own
/// thread. Its `AudioPlayer` is the item's clock (the media time being heard), which the clip's frames follow.
/// With no device (or when it fails) the item plays on silently: one log line for the whole run.
final class ItemSound {
    private var settings: AudioSettings
    private let log: Log
    /// Set once opening the device failed: later items do not try (and log) again.
    private var deviceMissing = false
    private var playing: (sequence: Int, player: AudioPlayer, output: AudioOutput?, level: Double)?

    /// Sound for `settings` (device, volume, mute), logging on `log`.
    init(settings: AudioSettings, log: Log) {
        self.settings = settings
        self.log = log
    }

    /// Starts the sound of `path` for slot `sequence` at media time `start` (stopping what played before), at
    /// `level` times the volume (a layout region's `soundLevel`). A file whose sound cannot be decoded plays
    /// silently on the slot's own clock (one log line).
    func start(path: String, sequence: Int, at start: Double, level: Double = 1) {
        stop()
        var output: AudioOutput?
        if !deviceMissing {
            output = AudioOutput.open(settings, log: log)
            if output == nil { deviceMissing = true }
        }
        do {
            let decoder = try AudioDecoder(path: path, format: output?.format ?? .standard)
            if start > 0 { try decoder.seek(to: start) }
            let player = try AudioPlayer(source: decoder, output: output, log: log)
            output?.volume = Self.volume(settings.volume, level: level)
            player.start()
            playing = (sequence, player, output, level)
        } catch {
            log.warn("\(DecodeCache.describe(error, path: path)); playing without its sound")
            output?.close()
        }
    }

    /// The media time being heard for slot `sequence`, while its sound plays (after its end, a clip longer than
    /// its sound goes on on the slot's own clock).
    func clock(for sequence: Int) -> Double? {
        guard let p = playing, p.sequence == sequence, p.player.end == nil else { return nil }
        return p.player.now
    }

    /// Pauses or resumes the sound with the slideshow; the clip's frames follow its clock, so they hold too.
    func pause(_ paused: Bool) {
        guard let p = playing, p.player.isPaused != paused else { return }
        p.player.isPaused = paused
    }

    /// A volume command: a level (0...100), a step up or down, or mute; applied now and to the items after.
    func apply(_ change: VolumeChange) {
        switch change {
        case .set(let v): settings.volume = min(100, max(0, v))
        case .by(let step): settings.volume = min(100, max(0, settings.volume + step))
        case .mute(let m): settings.muted = m
        case .toggleMute: settings.muted.toggle()
        }
        playing?.output?.volume = Self.volume(settings.volume, level: playing?.level ?? 1)
        playing?.output?.muted = settings.muted
        log.info("volume \(settings.volume)\(settings.muted ? ", muted" : "")")
    }

    /// The device volume for the set `volume` (0...100) at `level` (a fraction; above 1 is held at 100).
    private static func volume(_ volume: Int, level: Double) -> Int {
        min(100, max(0, Int(saturating: Double(volume) * level)))
    }

    /// Whether slot `sequence`'s sound is playing now.
    func isPlaying(_ sequence: Int) -> Bool { playing?.sequence == sequence }

    /// The current volume (0...100) and mute, for tests and logs.
    var level: (volume: Int, muted: Bool) { (settings.volume, settings.muted) }

    /// Stops the sound and closes the device.
    func stop() {
        guard let p = playing else { return }
        playing = nil
        p.player.stop()
        p.output?.close()
    }
}
