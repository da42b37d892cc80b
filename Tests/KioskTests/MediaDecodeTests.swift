import KioskCore
@testable import KioskMedia
import XCTest

/// Decoded pixels against ffmpeg's own decode and bicubic scale of the same file.
final class MediaDecodeTests: XCTestCase {
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
                XCTAssertGreaterThanOrEqual(ImageCompare.psnr(image, reference), 30, "\(name) at \(target)")
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
        XCTAssertGreaterThanOrEqual(ImageCompare.psnr(image, reference), 30)
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
                XCTAssertGreaterThanOrEqual(ImageCompare.psnr(frame.image, reference[i]), 30, "frame \(i)")
            }
        }
    }

    func testScalerMatchesFFmpegBicubic() throws {
        let dir = try TempDir()
        let path = dir.file("s.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240", "-frames:v", "1", path])
        let full = try FFmpegCLI.referenceRGBA(path, size: PixelSize(width: 320, height: 240))
        let size = PixelSize(width: 200, height: 150)
        let scaled = try Scaler.scale(full, to: size)
        XCTAssertEqual(scaled.size, size)
        XCTAssertGreaterThanOrEqual(ImageCompare.psnr(scaled, try FFmpegCLI.referenceRGBA(path, size: size)), 30)
    }
}
