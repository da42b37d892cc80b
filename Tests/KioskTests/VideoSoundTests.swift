// A clip's sound through the player into real ALSA (a `file` PCM over `null`), and A/V sync on the audio clock.
import Foundation
import KioskAudio
import KioskCore
@testable import KioskPlayer
import XCTest

final class VideoSoundTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }
    override func tearDown() { ALSATestDevice.uninstall() }

    /// A 2 s clip, 160x120 at 25 fps: black with a white flash from 1.0 s to 1.2 s, and silence with a 1 kHz beep
    /// over the same 0.2 s (PCM in mkv, so the audio is exactly 2 s).
    static func flashAndBeep(_ dir: TempDir) throws -> String {
        let path = dir.file("flash.mkv")
        try FFmpegCLI.ffmpeg([
            "-f", "lavfi", "-i", "color=c=black:s=160x120:r=25:d=2,drawbox=c=white:t=fill:enable='between(t,1,1.19)'",
            "-f", "lavfi", "-i", "sine=f=1000:d=2:sample_rate=48000,volume=enable='not(between(t,1,1.2))':volume=0",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", "-ac", "2", path])
        return path
    }

    func testClipSoundPlaysThroughALSAWholeAndSampleExact() throws {
        let dir = try TempDir()
        let clip = try Self.flashAndBeep(dir)
        let wav = dir.file("out.wav")
        var config = PlayerConfig()
        config.size = PixelSize(width: 160, height: 120)
        config.slideshow.loop = false
        config.audio.device = try ALSATestDevice.install(writingTo: wav, in: dir)
        let lines = LineBox()
        _ = try PlayJob.play(items: [PlaylistItem(path: clip)], config: config, length: 10,
                             log: Log(level: .debug, sink: { lines.append($0) }), shouldStop: { false }, onFirstFrame: nil)
        // The WAV holds the clip's whole sound, sample for sample as ffmpeg decodes it.
        let written = try WAVFile(path: wav)
        let reference = try AudioCompare.reference(clip, .standard)
        XCTAssertEqual(written.sampleRate, 48_000)
        XCTAssertEqual(Double(written.data.count) / 4 / 48_000, Double(reference.count) / 4 / 48_000, accuracy: 0.001)
        XCTAssertEqual(written.data, reference)
        // The beep starts at 1.0 s of the written sound.
        var beep: Double?
        for i in stride(from: 0, to: written.data.count - 1, by: 4) {
            let s = Int16(bitPattern: UInt16(written.data[i]) | UInt16(written.data[i + 1]) << 8)
            if abs(Int(s)) > 1000 { beep = Double(i / 4) / 48_000; break }
        }
        let beepAt = try XCTUnwrap(beep)
        XCTAssertEqual(beepAt, 1.0, accuracy: 0.005)
    }

    /// The `null` PCM under the test device takes samples as fast as they come, so the clock check runs where
    /// time is real: with no device the item's audio clock runs on monotonic time, paced as a device would be.
    func testTheFlashIsPresentedWhenTheBeepIsHeardWithin40Milliseconds() throws {
        let dir = try TempDir()
        let clip = try Self.flashAndBeep(dir)
        var config = PlayerConfig()
        config.size = PixelSize(width: 160, height: 120)
        config.slideshow.loop = false
        config.audio.device = "kiosk-no-such-device"
        let lines = LineBox()
        _ = try PlayJob.play(items: [PlaylistItem(path: clip)], config: config, length: 10,
                             log: Log(level: .debug, sink: { lines.append($0) }), shouldStop: { false }, onFirstFrame: nil)
        XCTAssertEqual(lines.all.filter { $0.contains("without sound") }.count, 1, "one line: no device")
        // The flash frame (pts 1.0) is presented when the audio clock says 1.0 s (the beep) is being heard.
        let presented = lines.all.filter { $0.contains("presented") && $0.contains("frame 1.0000 s") }
        let line = try XCTUnwrap(presented.first, "\(lines.all.suffix(20))")
        let heard = try XCTUnwrap(line.components(separatedBy: "audio ").last.flatMap { Double($0.replacingOccurrences(of: " s", with: "")) }, line)
        XCTAssertEqual(heard, 1.0, accuracy: 0.040, "flash presented at audio \(heard) s, beep at 1.0 s")
        XCTAssertGreaterThan(lines.all.filter { $0.contains("presented") }.count, 40, "most of the 50 frames shown")
    }
}

final class RecordSoundTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    func testRecordMuxesTheSoundAndTheFlashLandsWithTheBeep() throws {
        let dir = try TempDir()
        let clip = try VideoSoundTests.flashAndBeep(dir)
        let still = dir.file("still.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=160x120", "-frames:v", "1", still])
        var config = PlayerConfig()
        config.size = PixelSize(width: 160, height: 120)
        config.slideshow.loop = false
        config.slideshow.transition = .none
        config.slideshow.duration = 0.5
        let out = dir.file("out.mp4")
        // A still first, so the clip's sound starts 0.5 s into the recording.
        _ = try PlayJob.record(items: [PlaylistItem(path: still), PlaylistItem(path: clip)], config: config, output: out,
                               fps: 25, length: nil, log: Log(level: .error, sink: { _ in }))
        let codec = String(decoding: try FFmpegCLI.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries",
                                                                 "stream=codec_name", "-of", "csv=p=0", out]), as: UTF8.self)
        XCTAssertEqual(codec.trimmingCharacters(in: .whitespacesAndNewlines), "aac")
        let pcm = [UInt8](try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", out, "-vn", "-ac", "1", "-ar", "48000",
                                                        "-f", "s16le", "-"]))
        XCTAssertEqual(Double(pcm.count) / 2 / 48_000, 2.5, accuracy: 0.05, "sound as long as the recording")
        var beep: Double?
        for i in stride(from: 0, to: pcm.count - 1, by: 2) where abs(Int(Int16(bitPattern: UInt16(pcm[i]) | UInt16(pcm[i + 1]) << 8))) > 1000 {
            beep = Double(i / 2) / 48_000
            break
        }
        let frames = try FFmpegCLI.referenceFrames(out, size: config.size)
        let flash = try XCTUnwrap(frames.firstIndex { f in
            var sum = 0
            for j in stride(from: 0, to: f.pixels.count, by: 4) { sum += Int(f.pixels[j]) }
            return sum / (f.pixels.count / 4) > 200
        })
        let beepAt = try XCTUnwrap(beep)
        let flashAt = Double(flash) / 25
        XCTAssertEqual(flashAt, 1.5, accuracy: 0.041)
        XCTAssertEqual(beepAt, flashAt, accuracy: 0.040, "beep at \(beepAt) s, flash at \(flashAt) s")
    }
}
