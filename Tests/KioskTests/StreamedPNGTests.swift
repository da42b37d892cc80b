import Foundation
import KioskCore
@testable import KioskMedia
import XCTest

/// PNG wanted smaller than it is, read a row at a time by libpng (StreamedPNGDecoder): pixels against ffmpeg's own
/// decode and area scale for each kind of PNG, what is left to the whole decode, and damage.
final class StreamedPNGTests: XCTestCase {
    /// Least PSNR (dB) against ffmpeg's area scale (measured 44.7–84.6 dB, lowest with alpha; the rest is rounding).
    private let least = 35.0
    private let size = "2000x1500"

    /// ffmpeg's decode of `path` made RGBA at full size, then scaled to `target` with its area filter. (RGBA first:
    /// swscale's area scale straight from 1-bit `monob` is not the area mean, 28 dB from it, while every other
    /// format is within 0.1 dB either way.)
    private func areaReference(_ path: String, _ target: PixelSize) throws -> [UInt8] {
        let vf = "format=rgba,scale=\(target.width):\(target.height):flags=area+accurate_rnd+full_chroma_int"
        return [UInt8](try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-frames:v", "1", "-vf", vf,
                                                    "-pix_fmt", "rgba", "-f", "rawvideo", "-"]))
    }

    /// A PNG made by ffmpeg from the lavfi graph `source`, stored as `pixelFormat`.
    private func png(_ dir: TempDir, _ name: String, _ source: String, _ pixelFormat: String, _ extra: [String] = []) throws -> String {
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", source, "-frames:v", "1", "-pix_fmt", pixelFormat] + extra + [dir.file(name)])
        XCTAssertEqual(try FFmpegCLI.probe(dir.file(name), "stream=pix_fmt"), pixelFormat, name)
        return dir.file(name)
    }

    func testEveryKindOfPNGMatchesFFmpegsAreaScale() throws {
        let dir = try TempDir()
        let alpha = "testsrc2=s=\(size),format=rgba[c];gradients=s=\(size),format=gray[a];[c][a]alphamerge"
        let files = [
            ("rgb24.png", try png(dir, "rgb24.png", "testsrc2=s=\(size)", "rgb24")),
            ("gradient.png", try png(dir, "gradient.png", "gradients=s=\(size)", "rgb24")),
            ("rgba.png", try png(dir, "rgba.png", alpha, "rgba")),
            ("gray.png", try png(dir, "gray.png", "testsrc2=s=\(size)", "gray")),
            ("gray16.png", try png(dir, "gray16.png", "gradients=s=\(size)", "gray16be")),
            ("rgb48.png", try png(dir, "rgb48.png", "testsrc2=s=\(size)", "rgb48be")),
            ("rgba64.png", try png(dir, "rgba64.png", alpha, "rgba64be")),
            ("palette.png", try png(dir, "palette.png", "testsrc2=s=\(size)", "pal8")),
            ("1-bit.png", try png(dir, "1-bit.png", "testsrc2=s=\(size)", "monob")),
        ]
        var report: [String] = []
        for (name, path) in files {
            for target in [PixelSize(width: 360, height: 270), PixelSize(width: 333, height: 250)] {
                // the streamed path takes it (not the whole decode) ...
                guard let item = try StreamedPNGDecoder.decode(path: path, limits: .standard, targetSize: { _ in target }),
                      case .still(let image) = item.picture else { XCTFail("\(name): not streamed"); continue }
                XCTAssertEqual(image.size, target, name)
                XCTAssertEqual(item.info.size, PixelSize(width: 2000, height: 1500), name)
                // ... and MediaFile's decode is that one
                guard case .still(let through) = try MediaFile.decode(path, targetSize: { _ in target }).picture else {
                    XCTFail("\(name): not a still"); continue
                }
                XCTAssertEqual(through, image, name)
                // every channel, alpha included: it is averaged as ffmpeg averages it
                let db = ImageCompare.psnr(image.pixels, try areaReference(path, target))
                report.append("\(name) \(target): \(String(format: "%.1f", db)) dB")
                XCTAssertGreaterThanOrEqual(db, least, "\(name) at \(target)")
            }
        }
        print("streamed PNG against ffmpeg's area scale: " + report.joined(separator: ", "))
    }

    func testAProbeReadsTheHeaderOnly() throws {
        let dir = try TempDir()
        let path = try png(dir, "a.png", "testsrc2=s=\(size)", "rgb24")
        let info = try XCTUnwrap(StreamedPNGDecoder.probe(path: path, limits: .standard))
        XCTAssertEqual(info, try FFmpegImageDecoder.probe(path: path))
        XCTAssertEqual(info.size, PixelSize(width: 2000, height: 1500))
        XCTAssertEqual(info.kind, .image)
        XCTAssertThrowsError(try StreamedPNGDecoder.probe(path: path, limits: DecodeLimits(maxPixels: 1_000_000, animationBytes: DecodeLimits.standard.animationBytes))) { error in
            XCTAssertTrue("\(error)".hasPrefix(path + ": picture 2000x1500 is over the pixel limit"), "\(error)")
        }
    }

    func testInterlacedFullSizeAndAnimatedPNGsAreLeftToTheWholeDecode() throws {
        let dir = try TempDir()
        let interlaced = try png(dir, "adam7.png", "testsrc2=s=\(size)", "rgb24", ["-flags", "+ildct"])
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: interlaced)))[28], 1, "Adam7 in the IHDR")
        let small = PixelSize(width: 360, height: 270)
        XCTAssertNil(try StreamedPNGDecoder.decode(path: interlaced, limits: .standard) { _ in small })
        let item = try MediaFile.decode(interlaced) { _ in small }
        guard case .still(let image) = item.picture else { return XCTFail("not a still") }
        XCTAssertGreaterThanOrEqual(ImageCompare.psnr(image.pixels, try areaReference(interlaced, small)), least)
        let plain = try png(dir, "plain.png", "testsrc2=s=\(size)", "rgb24")
        XCTAssertNil(try StreamedPNGDecoder.decode(path: plain, limits: .standard) { $0 }, "wanted whole: decoded whole")
        let apng = dir.file("moving.apng")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240:r=5", "-frames:v", "3", "-f", "apng", apng])
        XCTAssertNil(try StreamedPNGDecoder.decode(path: apng, limits: .standard) { _ in small })
        XCTAssertNil(try StreamedPNGDecoder.probe(path: apng, limits: nil))
    }

    func testDamagedPNGsGiveOneLineNamingTheFile() throws {
        let dir = try TempDir()
        let good = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try png(dir, "good.png", "testsrc2=s=\(size)", "rgb24"))))
        let iend = Array(good.suffix(12))
        var flipped = good  // image data changed in the middle: its chunk's CRC no longer matches
        for i in stride(from: good.count / 2, to: good.count / 2 + 64, by: 1) { flipped[i] ^= 0x5A }
        var header = good  // the IHDR's CRC broken
        header[29] ^= 0xFF
        let damaged: [(String, [UInt8], String)] = [
            ("cut.png", Array(good.prefix(good.count / 2)), "no IEND chunk"),
            ("cut-with-end.png", Array(good.prefix(good.count / 2)) + iend, "libpng"),
            ("flipped.png", flipped, "libpng"),
            ("header.png", header, "libpng"),
        ]
        for (name, bytes, reason) in damaged {
            let path = dir.file(name)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            for decode in [{ _ = try MediaFile.decode(path) { _ in PixelSize(width: 360, height: 270) } },
                           { _ = try Thumbnailer.thumbnail(path: path, override: nil, side: 64) }] {
                XCTAssertThrowsError(try decode(), name) { error in
                    let text = "\(error)"
                    XCTAssertTrue(text.hasPrefix(path + ": truncated or corrupt PNG"), text)
                    XCTAssertTrue(text.contains(reason), text)
                    XCTAssertFalse(text.contains("\n"), text)
                }
            }
        }
    }
}
