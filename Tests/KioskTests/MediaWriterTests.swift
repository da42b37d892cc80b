import Foundation
import KioskCore
@testable import KioskMedia
import XCTest

/// PNGWriter round trips and VideoEncoder timing as ffprobe reports it.
final class MediaWriterTests: XCTestCase {
    /// A picture with varied colour and alpha.
    static func pattern(_ size: PixelSize, seed: Int = 0) -> RGBAImage {
        var p = [UInt8](repeating: 0, count: size.width * size.height * 4)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let i = (y * size.width + x) * 4
                p[i] = UInt8((x * 255) / max(1, size.width - 1))
                p[i + 1] = UInt8((y * 255) / max(1, size.height - 1))
                p[i + 2] = UInt8((x * 7 + y * 13 + seed * 40) & 0xFF)
                p[i + 3] = UInt8((x + y) % 256)
            }
        }
        return RGBAImage(size: size, pixels: p)
    }

    /// An opaque picture of smooth gradients, which a video codec keeps well.
    static func smooth(_ size: PixelSize, seed: Int) -> RGBAImage {
        var p = [UInt8](repeating: 255, count: size.width * size.height * 4)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let i = (y * size.width + x) * 4
                p[i] = UInt8((x * 255) / max(1, size.width - 1))
                p[i + 1] = UInt8((y * 255) / max(1, size.height - 1))
                p[i + 2] = UInt8((seed * 12) & 0xFF)
            }
        }
        return RGBAImage(size: size, pixels: p)
    }

    func testPNGRoundTripIsExact() throws {
        let dir = try TempDir()
        let image = Self.pattern(PixelSize(width: 123, height: 77))
        let path = dir.file("out.png")
        try PNGWriter.write(image, to: path)
        XCTAssertEqual(try FFmpegCLI.referenceRGBA(path, size: image.size).pixels, image.pixels)
        let item = try MediaFile.decode(path) { $0 }
        guard case .still(let decoded) = item.picture else { return XCTFail("not a still") }
        XCTAssertEqual(decoded, image)
        let bytes = try PNGWriter.encode(image)
        XCTAssertEqual(Array(bytes.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
    }

    func testPNGWriterBadPathThrows() {
        let image = RGBAImage(size: PixelSize(width: 4, height: 4), fill: (1, 2, 3, 4))
        XCTAssertThrowsError(try PNGWriter.write(image, to: "/nonexistent-dir/x.png")) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent-dir/x.png"), "\(error)")
        }
    }

    func testVideoEncoderExactTiming() throws {
        let dir = try TempDir()
        let size = PixelSize(width: 160, height: 120)
        let cases = [("out.mp4", "libx264"), ("out.y4m", "wrapped_avframe"), ("out.mkv", "libx264"), ("mpeg4.mp4", "mpeg4")]
        for (name, codec) in cases {
            let path = dir.file(name)
            let encoder = try VideoEncoder(path: path, size: size, fps: 10, allowH264: codec != "mpeg4")
            for i in 0..<20 { try encoder.append(Self.smooth(size, seed: i)) }
            try encoder.finish()
            XCTAssertEqual(encoder.codecName, codec, name)
            XCTAssertEqual(encoder.frameCount, 20)
            let duration = try FFmpegCLI.probe(path, "format=duration")
            XCTAssertEqual(Double(duration) ?? -1, 2.0, accuracy: 1e-6, "\(name) duration \(duration)")
            XCTAssertEqual(try FFmpegCLI.probe(path, "stream=nb_read_frames", countFrames: true), "20", name)
            if name.hasSuffix(".mp4") { XCTAssertEqual(try FFmpegCLI.probe(path, "stream=nb_frames"), "20") }
            let first = try FFmpegCLI.referenceRGBA(path, size: size)
            XCTAssertGreaterThanOrEqual(ImageCompare.psnr(first, Self.smooth(size, seed: 0)), 30, name)
        }
    }

    func testVideoEncoderRejectsBadPathSizeAndExtension() {
        let size = PixelSize(width: 64, height: 48)
        for (path, s) in [("/nonexistent-dir/v.mp4", size), ("/tmp/v.avi", size), ("/tmp/v.mp4", PixelSize(width: 63, height: 48))] {
            XCTAssertThrowsError(try VideoEncoder(path: path, size: s, fps: 10)) { error in
                XCTAssertTrue("\(error)".hasPrefix(path + ":"), "\(error)")
            }
        }
    }
}
