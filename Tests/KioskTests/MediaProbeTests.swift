import KioskCore
@testable import KioskMedia
import XCTest

/// `MediaFile.probe` against what ffprobe says and how the files were made.
final class MediaProbeTests: XCTestCase {
    func testStillFormatsReportTheirSize() throws {
        let dir = try TempDir()
        for (name, size) in [("a.jpg", "640x480"), ("b.png", "320x240"), ("c.bmp", "400x300"), ("d.tiff", "352x288")] {
            let path = dir.file(name)
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=\(size)", "-frames:v", "1", path])
            let info = try MediaFile.probe(path)
            let expected = PixelSize(parsing: size)
            XCTAssertEqual(info.size, expected, name)
            XCTAssertEqual(String(info.width), try FFmpegCLI.probe(path, "stream=width"), name)
            XCTAssertEqual(info.kind, .image, name)
            XCTAssertEqual(info.frames, 1, name)
            XCTAssertNil(info.duration, name)
            XCTAssertEqual(info.loops, 1, name)
            XCTAssertEqual(info.orientation, 1, name)
            XCTAssertEqual(info.path, path)
        }
    }

    func testAPNGFramesDurationAndLoops() throws {
        let dir = try TempDir()
        for (plays, rate) in [(0, 10), (3, 25)] {
            let path = dir.file("anim\(plays).apng")
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc=s=160x120:r=\(rate)", "-frames:v", "6",
                                  "-plays", String(plays), "-f", "apng", path])
            let info = try MediaFile.probe(path)
            XCTAssertEqual(info.kind, .animation)
            XCTAssertEqual(info.size, PixelSize(width: 160, height: 120))
            XCTAssertEqual(info.frames, 6)
            XCTAssertEqual(info.loops, plays)
            XCTAssertEqual(info.duration ?? 0, 6.0 / Double(rate), accuracy: 0.002)
        }
    }

    func testVideoAndAudioAreDescribed() throws {
        let dir = try TempDir()
        let video = dir.file("clip.mp4")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc=s=320x240:r=25:d=2", "-c:v", "mpeg4", video])
        let v = try MediaFile.probe(video)
        XCTAssertEqual(v.kind, .video)
        XCTAssertEqual(v.size, PixelSize(width: 320, height: 240))
        XCTAssertEqual(v.frames, 50)
        XCTAssertEqual(v.duration ?? 0, 2.0, accuracy: 0.05)
        XCTAssertThrowsError(try MediaFile.decode(video) { $0 }) { error in
            XCTAssertTrue("\(error)".contains("not a picture"), "\(error)")
        }
        let rotated = dir.file("rotated.mp4")
        try FFmpegCLI.ffmpeg(["-i", video, "-c", "copy", "-metadata:s:v:0", "rotate=90", rotated])
        let r = try MediaFile.probe(rotated)
        XCTAssertEqual(r.size, PixelSize(width: 240, height: 320))  // ffmpeg shows it through transpose=cclock
        XCTAssertEqual(r.orientation, Orientation.left.rawValue)
        let audio = dir.file("tone.wav")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "sine=d=1.5", audio])
        let a = try MediaFile.probe(audio)
        XCTAssertEqual(a.kind, .audio)
        XCTAssertEqual(a.duration ?? 0, 1.5, accuracy: 0.01)
    }
}
