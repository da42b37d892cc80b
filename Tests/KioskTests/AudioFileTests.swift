import Foundation
import KioskCore
@testable import KioskMedia
import XCTest

/// Audio-only files: `MediaFile.probe` (kind and duration against ffprobe) and `MediaFile.coverArt`.
final class AudioFileTests: XCTestCase {
    func testAudioOnlyFilesProbeAsAudioWithFFprobesDuration() throws {
        let dir = try TempDir()
        let files = [
            try AudioCompare.monoMP3(dir, seconds: 2.5),
            try AudioCompare.twoTone(dir, "a.m4a", seconds: 2.5, codec: ["-c:a", "aac"]),
            try AudioCompare.twoTone(dir, "a.aac", seconds: 2.5, codec: ["-c:a", "aac"]),
            try AudioCompare.twoTone(dir, "a.flac", seconds: 2.5),
            try AudioCompare.twoTone(dir, "a.wav", seconds: 2.5),
            try AudioCompare.twoTone(dir, "a.ogg", seconds: 2.5, codec: ["-c:a", "libvorbis"]),
            try AudioCompare.twoTone(dir, "a.opus", seconds: 2.5, codec: ["-c:a", "libopus"]),
        ]
        for path in files {
            let info = try MediaFile.probe(path)
            XCTAssertEqual(info.kind, .audio, path)
            let ffprobe = String(decoding: try FFmpegCLI.run("ffprobe", ["-v", "error", "-show_entries", "format=duration",
                                                                          "-of", "default=noprint_wrappers=1:nokey=1", path]), as: UTF8.self)
            let expected = try XCTUnwrap(Double(ffprobe.trimmingCharacters(in: .whitespacesAndNewlines)), path)
            XCTAssertEqual(info.duration ?? 0, expected, accuracy: 0.001, path)
            XCTAssertEqual(info.duration ?? 0, 2.5, accuracy: 0.1, path)
        }
    }

    /// A 96x64 picture as PNG (lossless, so the cover can be compared with ffmpeg's decode).
    private func cover(_ dir: TempDir, size: String = "96x64", noise: Bool = false) throws -> String {
        let path = dir.file(noise ? "noise.png" : "cover.png")
        let source = noise ? "nullsrc=s=\(size),geq=random(1)*255:random(2)*255:random(3)*255" : "testsrc2=s=\(size)"
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", source, "-frames:v", "1", "-pix_fmt", "rgb24", path])
        return path
    }

    func testCoverArtOfMKAAndMP3DecodesAsTheEmbeddedPicture() throws {
        let dir = try TempDir()
        let wav = try AudioCompare.twoTone(dir, "a.wav", seconds: 1)
        let png = try cover(dir)
        let mka = dir.file("withcover.mka")  // Matroska keeps covers as attachments with an image MIME type
        try FFmpegCLI.ffmpeg(["-i", wav, "-attach", png, "-metadata:s:t", "mimetype=image/png",
                              "-metadata:s:t", "filename=cover.png", "-c:a", "flac", mka])
        let m4a = dir.file("withcover.m4a")
        try FFmpegCLI.ffmpeg(["-i", wav, "-i", png, "-map", "0", "-map", "1", "-c:a", "aac", "-c:v", "png",
                              "-disposition:v", "attached_pic", m4a])
        let mp3 = dir.file("withcover.mp3")
        try FFmpegCLI.ffmpeg(["-i", wav, "-i", png, "-map", "0", "-map", "1", "-c:a", "libmp3lame", "-c:v", "png",
                              "-id3v2_version", "3", "-disposition:v", "attached_pic", mp3])
        let ref = try FFmpegCLI.referenceRGBA(png, size: PixelSize(width: 96, height: 64))
        for path in [mka, m4a, mp3] {
            let info = try MediaFile.probe(path)
            XCTAssertEqual(info.kind, .audio, "\(path): a cover does not make it a video")
            let art = try XCTUnwrap(try MediaFile.coverArt(path) { $0 }, path)
            XCTAssertEqual(art.size, PixelSize(width: 96, height: 64), path)
            XCTAssertEqual(art.pixels, ref.pixels, "\(path): the PNG cover decodes exactly")
            let small = try XCTUnwrap(try MediaFile.coverArt(path) { _ in PixelSize(width: 48, height: 32) })
            XCTAssertEqual(small.size, PixelSize(width: 48, height: 32))
            let bigger = try XCTUnwrap(try MediaFile.coverArt(path) { _ in PixelSize(width: 960, height: 640) })
            XCTAssertEqual(bigger.size, PixelSize(width: 96, height: 64), "never larger than the cover")
        }
        XCTAssertNil(try MediaFile.coverArt(wav) { $0 }, "no cover: nil")
        XCTAssertNil(try MediaFile.coverArt(try AudioCompare.monoMP3(dir, seconds: 0.5)) { $0 })
    }

    func testMP3WithCoverLargerThanTheProbeHeadStillProbes() throws {
        let dir = try TempDir()
        let png = try cover(dir, size: "800x700", noise: true)
        XCTAssertGreaterThan(try FileBytes.size(png), 1 << 20, "the tag must outgrow the 1 MiB head")
        let wav = try AudioCompare.twoTone(dir, "a.wav", seconds: 1)
        let mp3 = dir.file("bigcover.mp3")
        try FFmpegCLI.ffmpeg(["-i", wav, "-i", png, "-map", "0", "-map", "1", "-c:a", "libmp3lame", "-c:v", "copy",
                              "-id3v2_version", "3", "-disposition:v", "attached_pic", mp3])
        let info = try MediaFile.probe(mp3)
        XCTAssertEqual(info.kind, .audio)
        XCTAssertEqual(info.duration ?? 0, 1, accuracy: 0.1)
        XCTAssertEqual(try MediaFile.coverArt(mp3) { $0 }?.size, PixelSize(width: 800, height: 700))
        let decoder = try AudioDecoder(path: mp3, format: .standard)
        XCTAssertEqual(try AudioCompare.readAll(decoder).bytes, try AudioCompare.reference(mp3, .standard))
    }
}
