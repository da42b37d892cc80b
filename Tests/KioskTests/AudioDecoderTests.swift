import Foundation
import KioskCore
@testable import KioskMedia
import XCTest

/// `AudioDecoder` against ffmpeg's own decode of the same files after the same resampling (`-ar`/`-ac`).
final class AudioDecoderTests: XCTestCase {
    let stereo48 = AudioFormat(sampleRate: 48_000, channels: 2, sample: .s16)

    func testSamplesMatchFFmpegForEveryAudioFormat() throws {
        let dir = try TempDir()
        let files = [
            try AudioCompare.twoTone(dir, "clip.wav"),
            try AudioCompare.monoMP3(dir),
            try AudioCompare.twoTone(dir, "clip.m4a", codec: ["-c:a", "aac", "-b:a", "128k"]),
            try AudioCompare.twoTone(dir, "clip.flac"),
            try AudioCompare.twoTone(dir, "clip.ogg", codec: ["-c:a", "libvorbis"]),
            try AudioCompare.twoTone(dir, "clip.opus", codec: ["-c:a", "libopus"]),
        ]
        for path in files {
            for format in [stereo48, AudioFormat(sampleRate: 44_100, channels: 1, sample: .s16)] {
                let decoder = try AudioDecoder(path: path, format: format)
                let ours = try AudioCompare.readAll(decoder, maxFrames: 777).bytes
                let ref = try AudioCompare.reference(path, format)
                XCTAssertEqual(ours.count, ref.count, "\(path) \(format): frame count")
                XCTAssertEqual(AudioCompare.maxDifference(AudioCompare.s16(ours), AudioCompare.s16(ref)), 0,
                               "\(path) \(format): samples")
            }
        }
    }

    func testFloatAndS32OutputMatchFFmpeg() throws {
        let dir = try TempDir()
        let mp3 = try AudioCompare.monoMP3(dir, seconds: 1)
        for sample in [AudioFormat.Sample.float, .s32] {
            let format = AudioFormat(sampleRate: 48_000, channels: 2, sample: sample)
            let ours = try AudioCompare.readAll(try AudioDecoder(path: mp3, format: format)).bytes
            XCTAssertEqual(ours, try AudioCompare.reference(mp3, format), "\(sample)")
        }
    }

    func testChunksAreContiguousInTimeAndDurationIsKnown() throws {
        let dir = try TempDir()
        let path = try AudioCompare.twoTone(dir, "clip.wav", seconds: 1.5)
        let decoder = try AudioDecoder(path: path, format: stereo48)
        XCTAssertEqual(decoder.duration ?? 0, 1.5, accuracy: 0.001)
        XCTAssertEqual(decoder.format, stereo48)
        let chunks = try AudioCompare.readAll(decoder, maxFrames: 480).chunks
        XCTAssertEqual(chunks.first?.pts, 0)
        var expected = 0.0
        for c in chunks {
            XCTAssertLessThanOrEqual(c.frames, 480)
            XCTAssertEqual(c.pts, expected, accuracy: 1e-9)
            expected += c.duration
        }
        XCTAssertEqual(expected, 1.5, accuracy: 1e-9)
        XCTAssertNil(try decoder.read(maxFrames: 480), "stays at the end")
    }

    func testSeekStartsAtTheTargetSample() throws {
        let dir = try TempDir()
        let path = try AudioCompare.twoTone(dir, "clip.wav", seconds: 2)
        let ref = try AudioCompare.reference(path, stereo48)
        let decoder = try AudioDecoder(path: path, format: stereo48)
        _ = try decoder.read(maxFrames: 4800)
        for target in [1.25, 0.5, 0.0] {
            try decoder.seek(to: target)
            let rest = try AudioCompare.readAll(decoder, maxFrames: 1024)
            XCTAssertEqual(rest.chunks.first?.pts ?? -1, target, accuracy: 1e-9)
            let offset = Int(target * 48_000) * 4
            XCTAssertEqual(rest.bytes, Array(ref[offset...]), "after a seek to \(target) the samples are ffmpeg's from that point")
        }
        let mp3 = try AudioCompare.monoMP3(dir, seconds: 2)
        let d = try AudioDecoder(path: mp3, format: stereo48)
        try d.seek(to: 1.0)
        let first = try XCTUnwrap(try d.read(maxFrames: 100))
        XCTAssertEqual(first.pts, 1.0, accuracy: 1e-9)
        let total = try AudioCompare.readAll(d).bytes.count / 4 + first.frames
        XCTAssertEqual(Double(total) / 48_000, (d.duration ?? 0) - 1.0, accuracy: 0.05)
    }

    func testBadFilesFailInOneLineNamingTheFile() throws {
        let dir = try TempDir()
        let empty = dir.file("empty.mp3")
        try Data().write(to: URL(fileURLWithPath: empty))
        let junk = dir.file("junk.mp3")
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }).write(to: URL(fileURLWithPath: junk))
        let silentVideo = dir.file("video.mp4")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc=s=64x48:d=0.2", "-c:v", "mpeg4", silentVideo])
        for (path, words) in [(empty, "empty"), (junk, "unsupported"), (silentVideo, "no audio stream"),
                              (dir.file("missing.wav"), "no such file")] {
            XCTAssertThrowsError(try AudioDecoder(path: path, format: stereo48)) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains(path) && text.contains(words), text)
                XCTAssertFalse(text.contains("\n"), text)
            }
        }
    }

    func testTruncatedFileHandsOutWhatItHasThenFails() throws {
        let dir = try TempDir()
        // FLAC (STREAMINFO), MP3 (Xing frame count) and faststart M4A declare their length; a cut file falls short.
        // (A cut WAV or Ogg cannot be told from a shorter one: their demuxers take the length from the file size.)
        for (name, codec) in [("cut.flac", [String]()), ("cut.mp3", ["-c:a", "libmp3lame"]),
                              ("cut.m4a", ["-c:a", "aac", "-movflags", "+faststart"])] {
            let full = try AudioCompare.twoTone(dir, "full-" + name, seconds: 2, codec: codec)
            let cut = dir.file(name)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: full))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
            let ref = try AudioCompare.reference(cut, stereo48)
            let decoder = try AudioDecoder(path: cut, format: stereo48)
            var got: [UInt8] = []
            var failure: Error?
            do {
                while let c = try decoder.read(maxFrames: 1024) { got += c.bytes }
            } catch {
                failure = error
            }
            XCTAssertEqual(got, ref, "\(name): everything ffmpeg decodes of the cut file is handed out first")
            XCTAssertGreaterThan(got.count, 48_000, "\(name): a good part was there")
            let text = "\(try XCTUnwrap(failure, name))"
            XCTAssertTrue(text.contains(cut) && text.contains("truncated"), text)
            XCTAssertFalse(text.contains("\n"), text)
            XCTAssertThrowsError(try decoder.read(maxFrames: 1024), "\(name): the error sticks")
        }
    }

    func testCorruptMiddleNeverHangsOrCrashes() throws {
        let dir = try TempDir()
        for name in ["c.mp3", "c.m4a", "c.ogg", "c.flac"] {
            let path: String
            if name == "c.mp3" {
                path = try AudioCompare.monoMP3(dir, name, seconds: 3)
            } else {
                path = try AudioCompare.twoTone(dir, name, seconds: 3,
                                                codec: name == "c.m4a" ? ["-c:a", "aac"] : name == "c.ogg" ? ["-c:a", "libvorbis"] : [])
            }
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            var x: UInt32 = 12345
            for i in (bytes.count / 3)..<(bytes.count / 2) {
                x = x &* 1_103_515_245 &+ 12345
                bytes[i] = UInt8(truncatingIfNeeded: x >> 16)
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let start = Date()
            var frames = 0
            do {
                let decoder = try AudioDecoder(path: path, format: stereo48)
                while let c = try decoder.read(maxFrames: 4096) {
                    frames += c.frames
                    XCTAssertLessThan(frames, 48_000 * 10, "\(name): no endless output")
                    if frames > 48_000 * 10 { break }
                }
            } catch {
                let text = "\(error)"
                XCTAssertTrue(text.contains(path), text)
                XCTAssertFalse(text.contains("\n"), text)
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 10, "\(name) ends promptly")
        }
    }
}
