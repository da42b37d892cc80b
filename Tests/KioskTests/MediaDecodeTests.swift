import KioskCore
@testable import KioskMedia
import XCTest

/// Decoded pixels against ffmpeg's own decode and bicubic scale of the same file.
final class MediaDecodeTests: XCTestCase {
    /// The least PSNR (RGB) a JPEG decode must reach against ffmpeg's (the IDCT and chroma upsampling round
    /// apart): what it measured (29.99 dB at 1:1, 31.47 dB at 400x300, 29.03 dB through lowres) less 0.5 dB.
    static let jpegFloor = (fullSize: 29.5, reduced: 31.0, lowres: 28.5)

    /// Lossless stills are ffmpeg's decode byte for byte, at 1:1 and through the bicubic scaler (the same swscale
    /// filter); a JPEG is held to its measured floor; a PNG wanted smaller streams through libpng into the area
    /// downscaler (StreamedPNGDecoder), held to ffmpeg's area scale (StreamedPNGTests measures each kind of PNG).
    func testStillsMatchFFmpegAtFullAndReducedSize() throws {
        let dir = try TempDir()
        for name in ["a.jpg", "b.png", "c.bmp", "d.tiff"] {
            let path = dir.file(name)
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=640x480", "-frames:v", "1", "-q:v", "2", path])
            for target in [PixelSize(width: 640, height: 480), PixelSize(width: 400, height: 300)] {
                let item = try MediaFile.decode(path) { _ in target }
                guard case .still(let image) = item.picture else { return XCTFail("\(name): not a still") }
                XCTAssertEqual(image.size, target, name)
                let reference = try FFmpegCLI.referenceRGBA(path, size: target)
                if name == "a.jpg" {
                    let floor = target.width == 640 ? Self.jpegFloor.fullSize : Self.jpegFloor.reduced
                    XCTAssertGreaterThanOrEqual(ImageCompare.psnr(image, reference), floor, "\(name) at \(target)")
                } else if name == "b.png" && target.width < 640 {
                    let area = "format=rgba,scale=\(target.width):\(target.height):flags=area+accurate_rnd+full_chroma_int"
                    let db = ImageCompare.psnr(image, try FFmpegCLI.referenceRGBA(path, size: target, filter: area))
                    XCTAssertGreaterThanOrEqual(db, 35, "\(name) at \(target)")
                } else {
                    XCTAssertEqual(image.pixels.count, reference.pixels.count, "\(name) at \(target)")
                    let differing = zip(image.pixels, reference.pixels).filter { $0 != $1 }.count
                    XCTAssertEqual(differing, 0, "\(name) at \(target): \(differing) bytes differ from ffmpeg's decode")
                }
            }
        }
    }

    func testTargetIsNeverLargerThanTheSource() throws {
        let dir = try TempDir()
        let path = dir.file("small.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240", "-frames:v", "1", path])
        let item = try MediaFile.decode(path) { _ in PixelSize(width: 1920, height: 1080) }
        XCTAssertEqual(item.picture.size, PixelSize(width: 320, height: 240))
    }

    func testLargeJPEGUsesLowresAndMatchesFFmpeg() throws {
        let dir = try TempDir()
        let path = dir.file("big.jpg")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=3200x2400", "-frames:v", "1", "-q:v", "2", path])
        let target = PixelSize(width: 400, height: 300)
        XCTAssertEqual(FFmpegImageDecoder.lowresFactor(stored: PixelSize(width: 3200, height: 2400), target: target), 3)
        XCTAssertEqual(FFmpegImageDecoder.lowresFactor(stored: PixelSize(width: 3200, height: 2400),
                                                       target: PixelSize(width: 1000, height: 700)), 1)
        XCTAssertEqual(FFmpegImageDecoder.lowresFactor(stored: PixelSize(width: 640, height: 480),
                                                       target: PixelSize(width: 400, height: 300)), 0)
        let item = try MediaFile.decode(path) { _ in target }
        guard case .still(let image) = item.picture else { return XCTFail("not a still") }
        XCTAssertEqual(image.size, target)
        XCTAssertEqual(item.info.size, PixelSize(width: 3200, height: 2400))
        let reference = try FFmpegCLI.referenceRGBA(path, size: target)
        XCTAssertGreaterThanOrEqual(ImageCompare.psnr(image, reference), Self.jpegFloor.lowres)
    }

    func testAPNGFramesMatchFFmpeg() throws {
        let dir = try TempDir()
        let path = dir.file("anim.apng")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc=s=200x150:r=8", "-frames:v", "5", "-plays", "2",
                              "-f", "apng", path])
        let target = PixelSize(width: 100, height: 75)
        let item = try MediaFile.decode(path) { _ in target }
        guard case .animation(let frames, let loops) = item.picture else { return XCTFail("not an animation") }
        XCTAssertEqual(loops, 2)
        XCTAssertEqual(frames.count, 5)
        let reference = try FFmpegCLI.referenceFrames(path, size: target)
        XCTAssertEqual(reference.count, 5)
        for (i, frame) in frames.enumerated() {
            XCTAssertEqual(frame.duration, 0.125, accuracy: 0.001)
            XCTAssertEqual(frame.image.size, target)
            if i < reference.count {
                // Not swscale's bytes (the frames are composed, then scaled); 35.33 dB measured, less 0.5.
                XCTAssertGreaterThanOrEqual(ImageCompare.psnr(frame.image, reference[i]), 34.8, "frame \(i)")
            }
        }
    }

    /// The scaler is ffmpeg's bicubic: the same bytes.
    func testScalerMatchesFFmpegBicubic() throws {
        let dir = try TempDir()
        let path = dir.file("s.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240", "-frames:v", "1", path])
        let full = try FFmpegCLI.referenceRGBA(path, size: PixelSize(width: 320, height: 240))
        let size = PixelSize(width: 200, height: 150)
        let scaled = try Scaler.scale(full, to: size)
        XCTAssertEqual(scaled.size, size)
        let reference = try FFmpegCLI.referenceRGBA(path, size: size)
        let differing = zip(scaled.pixels, reference.pixels).filter { $0 != $1 }.count
        XCTAssertEqual(differing, 0, "\(differing) bytes differ from ffmpeg's bicubic (\(ImageCompare.psnr(scaled, reference)) dB)")
    }
}
