import Foundation
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

    /// Zero frame delays (a lazy or corrupt writer; the fuzzer found an APNG whose delays summed below zero): the
    /// probe's total agrees with ffprobe and with the decoded frames, and no frame's time stands or runs back.
    func testAPNGZeroDelaysGetADefault() throws {
        let dir = try TempDir()
        let made = dir.file("made.apng"), path = dir.file("zero.apng")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc=s=32x24:r=10", "-frames:v", "4", "-plays", "0",
                              "-f", "apng", made])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: made)))
        var at = 8, patched = 0
        while at + 12 <= bytes.count {
            let length = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[at + 4..<at + 8], as: UTF8.self) == "fcTL" {
                for i in 20..<24 { bytes[at + 8 + i] = 0 }  // delay_num, delay_den
                let crc = Self.crc32(bytes[at + 4..<at + 8 + length])
                for i in 0..<4 { bytes[at + 8 + length + i] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * i)) }
                patched += 1
            }
            at += 12 + length
        }
        XCTAssertEqual(patched, 4)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        // ffprobe's packet durations are the reference (ffmpeg's APNG demuxer gives a 0 delay its own default).
        let probed = String(decoding: try FFmpegCLI.run("ffprobe", ["-v", "error", "-select_streams", "v:0",
                                                                    "-show_entries", "packet=duration_time",
                                                                    "-of", "csv=p=0", path]), as: UTF8.self)
        let reference = probed.split(whereSeparator: \.isNewline).compactMap { Double($0) }
        XCTAssertEqual(reference.count, 4, probed)
        let info = try MediaFile.probe(path)
        XCTAssertEqual(info.frames, 4)
        XCTAssertEqual(info.duration ?? 0, reference.reduce(0, +), accuracy: 1e-4)
        let item = try MediaFile.decode(path) { $0 }
        guard case .animation(let frames, _) = item.picture else { return XCTFail("not an animation: \(item.picture)") }
        XCTAssertTrue(frames.allSatisfy { $0.duration > 0 }, "\(frames.map(\.duration))")
        XCTAssertEqual(frames.map(\.duration).reduce(0, +), info.duration ?? 0, accuracy: 1e-9)
    }

    /// PNG's CRC-32 (ISO 3309) of a chunk's type and data.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
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
