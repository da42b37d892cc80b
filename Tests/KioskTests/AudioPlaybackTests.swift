import Foundation
import KioskAudio
import KioskCore
import KioskMedia
import XCTest

/// ALSA for real: `AudioDecoder` -> `AudioPlayer` -> `AudioOutput` on a `file`-over-`null` PCM from a test
/// asoundrc, with the written WAV compared to ffmpeg's decode after the same resampling.
final class AudioPlaybackTests: XCTestCase {
    let wanted = AudioFormat(sampleRate: 48_000, channels: 2, sample: .s16)

    override func tearDown() {
        ALSATestDevice.uninstall()
    }

    /// Log lines written during a test.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ l: String) { lock.lock(); lines.append(l); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    func testPlayedWAVMatchesFFmpegDecodeAfterTheSameResampling() throws {
        let dir = try TempDir()
        for clip in [try AudioCompare.twoTone(dir, "tones.wav", seconds: 2), try AudioCompare.monoMP3(dir, seconds: 2)] {
            let wav = dir.file("out-\(URL(fileURLWithPath: clip).lastPathComponent).wav")
            let device = try ALSATestDevice.install(writingTo: wav, in: dir)
            let output = try AudioOutput(device: device, format: wanted)
            XCTAssertEqual(output.format, wanted, "file-over-null takes 48 kHz stereo s16 as asked")
            XCTAssertGreaterThan(output.periodFrames, 0)
            XCTAssertGreaterThanOrEqual(output.bufferFrames, output.periodFrames)
            let decoder = try AudioDecoder(path: clip, format: output.format)
            let lines = Lines()
            let player = try AudioPlayer(source: decoder, output: output, log: Log(level: .debug, sink: { lines.add($0) }))
            player.start()
            XCTAssertEqual(player.waitForEnd(timeout: 20), .finished, clip)
            XCTAssertEqual(player.position, 2.0, accuracy: 0.03, "the clock ends at the clip's end")
            XCTAssertEqual(output.underruns, 0)
            output.close()
            let written = try WAVFile(path: wav)
            XCTAssertEqual(written.sampleRate, 48_000)
            XCTAssertEqual(written.channels, 2)
            XCTAssertEqual(written.bits, 16)
            let ref = try AudioCompare.reference(clip, output.format)
            let frames = written.data.count / 4, refFrames = ref.count / 4
            XCTAssertLessThanOrEqual(abs(frames - refFrames), output.periodFrames, "\(clip): length within one period")
            XCTAssertEqual(frames, refFrames, "\(clip): in fact exactly as long")
            XCTAssertEqual(AudioCompare.maxDifference(AudioCompare.s16(written.data), AudioCompare.s16(ref)), 0, "\(clip): samples")
            XCTAssertTrue(lines.all.isEmpty, "\(lines.all)")
        }
    }

    func testVolumeHalvesSamplesAndMuteWritesZeros() throws {
        let dir = try TempDir()
        let samples: [Int16] = (0..<9600).map { Int16(truncatingIfNeeded: ($0 &* 2654435761 >> 7) & 0xFFFF) }
        let bytes = samples.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        for (volume, muted) in [(100, false), (50, false), (0, false), (80, true)] {
            let wav = dir.file("v\(volume)\(muted).wav")
            let output = try AudioOutput(device: try ALSATestDevice.install(writingTo: wav, in: dir), format: wanted)
            output.volume = volume
            output.muted = muted
            try output.write(AudioChunk(format: wanted, bytes: bytes, pts: 0))
            try output.drain()
            XCTAssertEqual(output.position, 0.1, accuracy: 1e-9, "4800 frames at 48 kHz were heard")
            output.close()
            let got = AudioCompare.s16(try WAVFile(path: wav).data)
            XCTAssertEqual(got.count, samples.count)
            for (g, s) in zip(got, samples) {
                if muted || volume == 0 {
                    XCTAssertEqual(g, 0)
                } else if volume == 100 {
                    XCTAssertEqual(g, s)
                } else {
                    XCTAssertLessThanOrEqual(abs(2 * Int(g) - Int(s)), 1, "volume 50 halves \(s) (got \(g))")
                }
                if g != 0 && (muted || volume == 0) { break }
            }
        }
    }

    func testMissingDeviceFailsInOneLineNamingIt() throws {
        let dir = try TempDir()
        _ = try ALSATestDevice.install(writingTo: dir.file("unused.wav"), in: dir)
        XCTAssertThrowsError(try AudioOutput(device: "nosuchpcm", format: wanted)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("'nosuchpcm'") && text.contains("snd_pcm_open"), text)
            XCTAssertFalse(text.contains("\n"), text)
        }
        XCTAssertThrowsError(try AudioOutput(device: "hw:7,0", format: wanted)) { error in
            XCTAssertTrue("\(error)".contains("'hw:7,0'"), "\(error)")
            XCTAssertFalse("\(error)".contains("\n"), "\(error)")
        }
        // ALSA's own messages (normally printed on stderr) go to a log at debug level when asked, one line each.
        let lines = Lines()
        ALSALibrary.routeMessages(to: Log(level: .debug, sink: { lines.add($0) }))
        defer { ALSALibrary.routeMessages(to: nil) }
        XCTAssertThrowsError(try AudioOutput(device: "nosuchpcm", format: wanted))
        XCTAssertTrue(lines.all.contains { $0.contains("alsa:") && $0.contains("Unknown PCM nosuchpcm") }, "\(lines.all)")
    }

    func testProbeCommandReportsAudioDuration() throws {
        let dir = try TempDir()
        let mp3 = try AudioCompare.monoMP3(dir, seconds: 1.5)
        let r = try CLITests.run(["probe", mp3], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        let data = Data(r.stdout.utf8)
        let obj = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(obj["kind"] as? String, "audio")
        let ffprobe = try FFmpegCLI.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", mp3])
        let expected = try XCTUnwrap(Double(String(decoding: ffprobe, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertEqual(obj["duration"] as? Double ?? 0, expected, accuracy: 0.001)
    }

    func testPauseHoldsTheClockOnTheDevice() throws {
        let dir = try TempDir()
        let clip = try AudioCompare.twoTone(dir, "t.wav", seconds: 0.5)
        let wav = dir.file("o.wav")
        let output = try AudioOutput(device: try ALSATestDevice.install(writingTo: wav, in: dir), format: wanted)
        let player = try AudioPlayer(source: try AudioDecoder(path: clip, format: wanted), output: output, log: Log(level: .error))
        player.isPaused = true
        player.start()
        // A fixed wait on purpose: nothing must be heard for a while (there is no event for "still paused").
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(player.position, 0, "paused before the start: nothing heard")
        XCTAssertEqual(output.writtenFrames, 0)
        XCTAssertNil(player.end)
        player.isPaused = false
        XCTAssertEqual(player.waitForEnd(timeout: 20), .finished)
        XCTAssertEqual(player.position, 0.5, accuracy: 1e-6)
        try output.pause(true)  // in the set-up state after the drain: nothing to pause, no error
        try output.pause(false)
        output.close()
        XCTAssertEqual(try WAVFile(path: wav).data, try AudioCompare.reference(clip, wanted))
    }

    func testOtherFormatsAreNegotiatedAndPlayed() throws {
        let dir = try TempDir()
        let clip = try AudioCompare.monoMP3(dir, seconds: 0.5)
        for format in [AudioFormat(sampleRate: 44_100, channels: 1, sample: .s16),
                       AudioFormat(sampleRate: 32_000, channels: 2, sample: .s32),
                       AudioFormat(sampleRate: 48_000, channels: 2, sample: .float)] {
            let wav = dir.file("o-\(format.sample)-\(format.sampleRate).wav")
            let output = try AudioOutput(device: try ALSATestDevice.install(writingTo: wav, in: dir), format: format)
            XCTAssertEqual(output.format, format, "file-over-null takes every rate, channel count and sample type")
            XCTAssertEqual(output.periodFrames, format.sampleRate / 50, "a 20 ms period")
            XCTAssertEqual(output.bufferFrames, format.sampleRate / 10, "in a 100 ms buffer")
            XCTAssertTrue(output.canPause)
            let player = try AudioPlayer(source: try AudioDecoder(path: clip, format: output.format), output: output, log: Log(level: .error))
            player.start()
            XCTAssertEqual(player.waitForEnd(timeout: 20), .finished)
            output.close()
            XCTAssertEqual(try WAVFile(path: wav).data, try AudioCompare.reference(clip, output.format), "\(format)")
        }
    }

    func testSettingsOpenTheDeviceOrSayWhyInOneLine() throws {
        let dir = try TempDir()
        var settings = AudioSettings()
        settings.device = try ALSATestDevice.install(writingTo: dir.file("o.wav"), in: dir)
        settings.volume = 35
        settings.muted = true
        let lines = Lines()
        let log = Log(level: .info, sink: { lines.add($0) })
        let output = try XCTUnwrap(AudioOutput.open(settings, log: log))
        XCTAssertEqual(output.format, .standard)
        XCTAssertEqual(output.volume, 35)
        XCTAssertTrue(output.muted)
        output.close()
        XCTAssertEqual(lines.all.count, 1, "one info line saying what was opened: \(lines.all)")
        settings.device = "nosuchpcm"
        XCTAssertNil(AudioOutput.open(settings, log: log))
        XCTAssertEqual(lines.all.count, 2)
        XCTAssertTrue(lines.all.last?.contains("warn") == true && lines.all.last?.contains("'nosuchpcm'") == true, "\(lines.all)")
    }

    func testChunkOfAnotherFormatIsRefused() throws {
        let dir = try TempDir()
        let output = try AudioOutput(device: try ALSATestDevice.install(writingTo: dir.file("o.wav"), in: dir), format: wanted)
        let mono = AudioFormat(sampleRate: 44_100, channels: 1, sample: .s16)
        XCTAssertThrowsError(try output.write(AudioChunk(format: mono, bytes: [0, 0], pts: 0))) { error in
            XCTAssertTrue("\(error)".contains("kiosktest"), "\(error)")
        }
        let decoder = try AudioDecoder(path: try AudioCompare.monoMP3(dir, seconds: 0.2), format: mono)
        XCTAssertThrowsError(try AudioPlayer(source: decoder, output: output, log: Log(level: .error)))
    }

    func testWithoutDeviceItPlaysSilentlyInRealTime() throws {
        let dir = try TempDir()
        let clip = try AudioCompare.twoTone(dir, "t.wav", seconds: 0.6)
        let ended = Lines()
        let player = try AudioPlayer(source: try AudioDecoder(path: clip, format: wanted), output: nil,
                                     log: Log(level: .error), onEnd: { ended.add("\($0)") })
        let start = Date()
        player.start()
        XCTAssertTrue(eventually(20) { player.position > 0.1 }, "the silent clock runs in real time")
        XCTAssertLessThanOrEqual(player.position, Date().timeIntervalSince(start) + 0.01, "and never ahead of it")
        player.isPaused = true
        // Fixed waits on purpose: 0.2 s spent paused, which the end time must show, and 0.1 s in which the
        // clock must be seen NOT to move.
        Thread.sleep(forTimeInterval: 0.2)
        let p2 = player.position
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(player.position, p2, "paused: the clock stands still")
        player.isPaused = false
        XCTAssertEqual(player.waitForEnd(timeout: 20), .finished)
        let took = Date().timeIntervalSince(start)
        XCTAssertGreaterThan(took, 0.75, "0.6 s of audio plus 0.2 s paused")
        XCTAssertLessThan(took, 10, "ended, not hung (10x the 0.8 s it takes: the machine is shared; the 0.75 s floor checks the pause)")
        XCTAssertEqual(player.position, 0.6, accuracy: 1e-6)
        // onEnd runs on the player's thread right after the end is announced.
        XCTAssertTrue(eventually(20) { !ended.all.isEmpty }, "onEnd was called")
        XCTAssertEqual(ended.all, ["finished"])
    }

    func testStopEndsPromptly() throws {
        let dir = try TempDir()
        // 30 s, so that neither a stalled start nor a 10 s bound comes near the clip's own end.
        let clip = try AudioCompare.twoTone(dir, "t.wav", seconds: 30)
        let player = try AudioPlayer(source: try AudioDecoder(path: clip, format: wanted), output: nil, log: Log(level: .error))
        player.start()
        XCTAssertTrue(eventually(20) { player.position > 0.05 }, "it plays")
        let start = Date()
        player.stop()
        XCTAssertLessThan(Date().timeIntervalSince(start), 10, "stopped well before the 30 s clip would have ended")
        XCTAssertEqual(player.end, .stopped)
    }

    /// A source that closes the device after `after` chunks: the device failing mid-way.
    final class FailingDevice: AudioSource {
        let inner: AudioDecoder
        let output: AudioOutput
        var left: Int
        init(_ inner: AudioDecoder, _ output: AudioOutput, after: Int) { self.inner = inner; self.output = output; left = after }
        var format: AudioFormat { inner.format }
        func read(maxFrames: Int) throws -> AudioChunk? {
            left -= 1
            if left == 0 { output.close() }
            return try inner.read(maxFrames: maxFrames)
        }
        func seek(to seconds: Double) throws { try inner.seek(to: seconds) }
    }

    func testDeviceFailingMidwayGoesOnSilentlyWithOneLogLine() throws {
        let dir = try TempDir()
        // 3 s, so that a stall between the failure and the look at the clock cannot carry it to the end.
        let clip = try AudioCompare.twoTone(dir, "t.wav", seconds: 3)
        let output = try AudioOutput(device: try ALSATestDevice.install(writingTo: dir.file("o.wav"), in: dir), format: wanted)
        let source = FailingDevice(try AudioDecoder(path: clip, format: wanted), output, after: 10)
        let lines = Lines()
        let player = try AudioPlayer(source: source, output: output, log: Log(level: .info, sink: { lines.add($0) }),
                                     chunkFrames: 2400)
        let start = Date()
        player.start()
        XCTAssertTrue(eventually(20, every: 0.005) { player.deviceFailure != nil || player.end != nil })
        let early = player.position
        XCTAssertGreaterThanOrEqual(early, 0.45 - 1e-6, "the clock goes on from the 0.45 s heard before the failure")
        XCTAssertLessThan(early, 2.9, "on monotonic time, not at once to the end")
        XCTAssertEqual(player.waitForEnd(timeout: 20), .finished, "the stream still ends")
        XCTAssertGreaterThan(Date().timeIntervalSince(start), 2.4, "the rest (2.55 s) was paced in real time")
        XCTAssertEqual(player.position, 3.0, accuracy: 1e-6)
        XCTAssertEqual(lines.all.count, 1, "\(lines.all)")
        XCTAssertTrue(lines.all.first?.contains("kiosktest") ?? false, "\(lines.all)")
        XCTAssertNotNil(player.deviceFailure)
    }

    func testSourceBreakingEndsWithItsError() throws {
        let dir = try TempDir()
        let full = try AudioCompare.twoTone(dir, "full.flac", seconds: 1)
        let cut = dir.file("cut.flac")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: full))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let wav = dir.file("o.wav")
        let output = try AudioOutput(device: try ALSATestDevice.install(writingTo: wav, in: dir), format: wanted)
        let lines = Lines()
        let player = try AudioPlayer(source: try AudioDecoder(path: cut, format: wanted), output: output,
                                     log: Log(level: .info, sink: { lines.add($0) }))
        player.start()
        guard case .sourceFailed(let message)? = player.waitForEnd(timeout: 20) else { return XCTFail("\(String(describing: player.end))") }
        XCTAssertTrue(message.contains(cut), message)
        XCTAssertEqual(lines.all.count, 1, "\(lines.all)")
        output.close()
        XCTAssertEqual(try WAVFile(path: wav).data, try AudioCompare.reference(cut, wanted), "what was there was played")
    }

    func testAudioOptionsBecomeSettings() throws {
        let o = try ParsedOptions.parse(["--audio-device", "hw:1,0", "--mute", "--volume", "35"], specs: CommandSpecs.play, command: "play")
        let c = try CommandSpecs.config(from: o)
        XCTAssertEqual(c.audio.device, "hw:1,0")
        XCTAssertTrue(c.audio.muted)
        XCTAssertEqual(c.audio.volume, 35)
        XCTAssertEqual(try CommandSpecs.config(from: try ParsedOptions.parse([], specs: CommandSpecs.play, command: "play")).audio, AudioSettings())
        XCTAssertThrowsError(try ParsedOptions.parse(["--volume", "101"], specs: CommandSpecs.play, command: "play"))
    }
}
