// Clips through the whole player: snapshot at a time, probe fields, untimed and timed playback, bad clips.
import Foundation
import KioskCore
@testable import KioskMedia
@testable import KioskPlayer
import XCTest

final class VideoPlayerTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    static let quiet = Log(level: .error, sink: { _ in })

    /// A 160x120 test-pattern H.264 clip of `seconds` at `fps`.
    static func clip(_ dir: TempDir, _ name: String, seconds: Double = 1, fps: Int = 10, extra: [String] = []) throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=\(fps):duration=\(seconds)"] + extra
                             + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", path])
        return path
    }

    func testSnapshotAtATimeIsTheFrameShownThenAndHonoursRotation() throws {
        let dir = try TempDir()
        let plain = try Self.clip(dir, "plain.mp4", seconds: 2)
        let rotated = dir.file("rotated.mp4")
        try FFmpegCLI.ffmpeg(["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=90", rotated])
        var config = PlayerConfig()
        config.size = PixelSize(width: 160, height: 120)
        // 1.25 s at 10 fps shows frame 12; ffmpeg's own decode, frame by frame, is the reference.
        let reference = try VideoDecodeTests.referenceFrames(plain)
        let shot = try PlayJob.snapshotImage(input: plain, config: config, at: 1.25, view: FlatView(fit: .contain), log: Self.quiet)
        let psnrs = reference.map { ImageCompare.psnrRGB(shot.pixels, $0.pixels) }
        XCTAssertEqual(psnrs.firstIndex(of: psnrs.max() ?? 0), 12)
        XCTAssertGreaterThanOrEqual(psnrs[12], 35)
        // The rotated clip is shown upright as ffmpeg autorotates it (120x160 on a 120x160 canvas): the reference
        // turns the frame after upsampling its chroma, as the shader samples the stored frame and then turns it.
        config.size = PixelSize(width: 120, height: 160)
        let turned = try PlayJob.snapshotImage(input: rotated, config: config, at: 0.55, view: FlatView(fit: .contain), log: Self.quiet)
        let data = [UInt8](try FFmpegCLI.run("ffmpeg", [
            "-v", "error", "-nostdin", "-noautorotate", "-i", rotated, "-vf",
            "select=eq(n\\,5),scale=160:120:in_h_chr_pos=0:in_v_chr_pos=128:flags=bilinear+accurate_rnd+full_chroma_int,"
            + "format=yuv444p,scale=flags=accurate_rnd+full_chroma_int,transpose=cclock", "-frames:v", "1",
            "-pix_fmt", "rgba", "-f", "rawvideo", "-"]))
        XCTAssertEqual(data.count, 120 * 160 * 4)
        XCTAssertGreaterThanOrEqual(ImageCompare.psnrRGB(turned.pixels, data), 35)
    }

    func testProbeReportsStreamsCodecsDurationAndRotation() throws {
        let dir = try TempDir()
        let av = dir.file("av.mp4")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=1", "-f", "lavfi", "-i", "sine=f=440:d=1",
                              "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest", av])
        let rotated = dir.file("rot.mp4")
        try FFmpegCLI.ffmpeg(["-i", av, "-c", "copy", "-metadata:s:v:0", "rotate=90", rotated])
        let line = PlayJob.probeLine(rotated).json
        XCTAssertTrue(line.contains("\"width\":120,\"height\":160"), line)
        XCTAssertTrue(line.contains("\"video_codec\":\"h264\",\"audio_codec\":\"aac\",\"rotation\":270"), line)
        XCTAssertTrue(line.contains("{\"type\":\"audio\",\"codec\":\"aac\",\"sample_rate\":44100,\"channels\":1}"), line)
        XCTAssertTrue(line.hasPrefix("{\"path\":"), line)
        XCTAssertTrue(line.contains("\"source\":\"none\",\"video_codec\""), "new fields come after the old ones: \(line)")
    }

    func testUntimedPlaysEveryFrameOfEachClipAndEndsWithNoLoop() throws {
        let dir = try TempDir()
        let a = try Self.clip(dir, "a.mp4", seconds: 1, fps: 20)
        let b = try Self.clip(dir, "b.mp4", seconds: 1, fps: 10)
        var config = PlayerConfig()
        config.size = PixelSize(width: 160, height: 120)
        config.untimed = true
        config.slideshow.loop = false
        config.slideshow.transition = .none
        let start = Date()
        let report = try PlayJob.play(items: [PlaylistItem(path: a), PlaylistItem(path: b)], config: config, length: nil,
                                      log: Self.quiet, shouldStop: { false }, onFirstFrame: nil)
        XCTAssertEqual(report.slotsShown, 2)
        XCTAssertEqual(report.framesPresented, 30, "every frame of both clips, each once")
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
    }

    func testTimedPlaybackWithNoAudioDeviceRunsToTheEndOnItsClock() throws {
        let dir = try TempDir()
        let a = try Self.clip(dir, "a.mp4", seconds: 1.5, fps: 10, extra: ["-f", "lavfi", "-i", "sine=d=1.5", "-c:a", "aac"])
        var config = PlayerConfig()
        config.size = PixelSize(width: 160, height: 120)
        config.slideshow.loop = false
        config.audio.device = "kiosk-no-such-device"
        let lines = LineBox()
        let start = Date()
        let report = try PlayJob.play(items: [PlaylistItem(path: a)], config: config, length: 10,
                                      log: Log(level: .info, sink: { lines.append($0) }), shouldStop: { false }, onFirstFrame: nil)
        let took = Date().timeIntervalSince(start)
        XCTAssertEqual(report.slotsShown, 1)
        XCTAssertGreaterThanOrEqual(report.framesPresented, 10, "\(lines.all)")
        XCTAssertGreaterThan(took, 1.3, "played in real time")
        XCTAssertLessThan(took, 6)
    }

    func testVideoMaxCapsTheSlot() throws {
        let dir = try TempDir()
        let a = try Self.clip(dir, "long.mp4", seconds: 3, fps: 10)
        var config = PlayerConfig()
        config.size = PixelSize(width: 160, height: 120)
        config.untimed = true
        config.videoMax = 1
        config.slideshow.loop = false
        config.slideshow.transition = .none
        let report = try PlayJob.play(items: [PlaylistItem(path: a)], config: config, length: nil,
                                      log: Self.quiet, shouldStop: { false }, onFirstFrame: nil)
        XCTAssertEqual(report.framesPresented, 10)
        XCTAssertEqual(report.endTime, 1, accuracy: 0.11)
    }

    func testTruncatedClipEndsItsItemWithOneLogLineAndTheShowGoesOn() throws {
        let dir = try TempDir()
        let whole = try Self.clip(dir, "whole.mkv", seconds: 3, fps: 10)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = dir.file("cut.mkv")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let next = try Self.clip(dir, "next.mp4", seconds: 0.5, fps: 10)
        var config = PlayerConfig()
        config.size = PixelSize(width: 160, height: 120)
        config.untimed = true
        config.slideshow.loop = false
        config.slideshow.transition = .none
        let lines = LineBox()
        let start = Date()
        let report = try PlayJob.play(items: [PlaylistItem(path: cut), PlaylistItem(path: next)], config: config, length: nil,
                                      log: Log(level: .warn, sink: { lines.append($0) }), shouldStop: { false }, onFirstFrame: nil)
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
        XCTAssertEqual(report.slotsShown, 2)
        let about = lines.all.filter { $0.contains(cut) }
        XCTAssertEqual(about.count, 1, "\(lines.all)")
        XCTAssertTrue(about.first?.contains("item ended") ?? false, "\(about)")
    }

    func testASoundFilePlaysToItsEndShowingItsCoverArt() throws {
        let dir = try TempDir()
        let cover = dir.file("cover.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=64x64", "-frames:v", "1", cover])
        let song = dir.file("song.mp3")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "sine=d=1.2", "-i", cover, "-map", "0:a", "-map", "1:v", "-c:a", "libmp3lame",
                              "-c:v", "png", "-disposition:v", "attached_pic", song])
        var config = PlayerConfig()
        config.size = PixelSize(width: 160, height: 120)
        config.slideshow.loop = false
        config.audio.device = "kiosk-no-such-device"
        let start = Date()
        let report = try PlayJob.play(items: [PlaylistItem(path: song)], config: config, length: 10,
                                      log: Self.quiet, shouldStop: { false }, onFirstFrame: nil)
        XCTAssertEqual(report.slotsShown, 1)
        XCTAssertGreaterThanOrEqual(report.framesPresented, 1)
        XCTAssertEqual(Date().timeIntervalSince(start), 1.2, accuracy: 0.8, "plays for the file's length")
        let picture = SoundPicture(path: song, length: 1.2, canvas: config.size)
        XCTAssertEqual(picture.image.size, PixelSize(width: 64, height: 64))
        XCTAssertGreaterThan(picture.image.pixels[0], 240, "the red cover")
        XCTAssertLessThan(picture.image.pixels[1], 15)
        let plain = SoundPicture(path: dir.file("none.mp3"), length: 1, canvas: config.size)
        XCTAssertEqual(plain.image.size, PixelSize(width: 480, height: 270), "a generated placeholder")
    }

    func testResumeBookKeepsOnlyLongClips() {
        let book = ResumeBook()
        book.leave("/short.mp4", at: 30, length: 419)
        book.leave("/long.mp4", at: 100, length: 420)
        book.leave("/done.mp4", at: 599.5, length: 600)
        XCTAssertEqual(book.start(for: "/short.mp4"), 0)
        XCTAssertEqual(book.start(for: "/long.mp4"), 100)
        XCTAssertEqual(book.start(for: "/done.mp4"), 0)
    }
}

final class VideoRecordTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    func testRecordedClipsFollowEachOtherWithNoBlackFrame() throws {
        let dir = try TempDir()
        let a = try VideoPlayerTests.clip(dir, "a.mp4", seconds: 1, fps: 10)
        let b = try VideoPlayerTests.clip(dir, "b.mp4", seconds: 1, fps: 10, extra: ["-vf", "hue=h=120"])
        var config = PlayerConfig()
        config.size = PixelSize(width: 160, height: 120)
        config.slideshow.loop = false
        config.slideshow.transitionTime = 0.3
        let out = dir.file("out.y4m")
        let report = try PlayJob.record(items: [PlaylistItem(path: a), PlaylistItem(path: b)], config: config, output: out,
                                        fps: 10, length: nil, log: VideoPlayerTests.quiet)
        XCTAssertEqual(report.slotsShown, 2)
        let frames = try FFmpegCLI.referenceFrames(out, size: config.size)
        XCTAssertGreaterThanOrEqual(frames.count, 17)
        for (i, f) in frames.enumerated() {
            var sum = 0
            for j in stride(from: 0, to: f.pixels.count, by: 4) { sum += Int(f.pixels[j]) + Int(f.pixels[j + 1]) + Int(f.pixels[j + 2]) }
            XCTAssertGreaterThan(Double(sum) / Double(f.pixels.count / 4 * 3), 40, "frame \(i) is black")
        }
        // The first recorded frames are the clip's own frames, in order, at their times (the recording is 4:2:0
        // again, so the closest reference frame is found by PSNR).
        let reference = try VideoDecodeTests.referenceFrames(a)
        for i in [0, 3, 6] {
            let psnrs = reference.map { ImageCompare.psnrRGB(frames[i].pixels, $0.pixels) }
            XCTAssertEqual(psnrs.firstIndex(of: psnrs.max() ?? 0), i, "recorded frame \(i): \(psnrs)")
            XCTAssertGreaterThanOrEqual(psnrs[i], 25, "frame \(i)")
        }
    }
}
