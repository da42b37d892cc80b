import Foundation
import KioskCore
@testable import KioskMedia
import XCTest

/// JPEG through libjpeg-turbo (TurboJPEGDecoder): pixels against ffmpeg's own decode and area scale for each kind of
/// JPEG, the DCT scale chosen, a 24 MP picture streamed through a band of rows, ffmpeg as the fallback, and damage.
final class TurboJPEGTests: XCTestCase {
    /// Least PSNR (dB) against ffmpeg's area scale.
    private let least = 35.0

    /// ffmpeg's decode of `path` scaled to `size` with its area filter, RGBA.
    private func areaReference(_ path: String, _ size: PixelSize) throws -> RGBAImage {
        let vf = "scale=\(size.width):\(size.height):flags=area+accurate_rnd+full_chroma_int"
        let data = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-frames:v", "1", "-vf", vf,
                                                "-pix_fmt", "rgba", "-f", "rawvideo", "-"])
        return RGBAImage(size: size, pixels: [UInt8](data))
    }

    /// A photo-like picture (a smooth fractal with grain) of `size` as a binary PPM, the input cjpeg takes.
    private func photoPPM(_ dir: TempDir, _ size: String) throws -> String {
        let ppm = dir.file("photo-\(size).ppm")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "mandelbrot=size=\(size):end_pts=1,noise=alls=10:allf=t", "-frames:v", "1",
                              "-c:v", "ppm", "-f", "image2", ppm])
        return ppm
    }

    /// Decodes `path` through MediaFile (so through decodeJPEG) to `target` and returns its PSNR against ffmpeg's
    /// area scale of `reference` (by default the same file).
    private func psnrAgainstFFmpeg(_ path: String, _ target: PixelSize, reference: String? = nil,
                                   file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        let item = try MediaFile.decode(path) { _ in target }
        guard case .still(let image) = item.picture else { XCTFail("not a still", file: file, line: line); return 0 }
        XCTAssertEqual(image.size, target, file: file, line: line)
        return ImageCompare.psnr(image, try areaReference(reference ?? path, target))
    }

    func testScaleIsTheLargestDCTReductionNotBelowTheTarget() {
        func d(_ w: Int, _ h: Int, _ tw: Int, _ th: Int) -> Int {
            TurboJPEGDecoder.scaleDenominator(stored: PixelSize(width: w, height: h), target: PixelSize(width: tw, height: th))
        }
        XCTAssertEqual(d(6000, 4000, 1920, 1080), 2)
        XCTAssertEqual(d(6000, 4000, 1500, 1000), 4)
        XCTAssertEqual(d(6000, 4000, 1501, 1000), 2)
        XCTAssertEqual(d(3200, 2400, 400, 300), 8)
        XCTAssertEqual(d(3200, 2400, 100, 50), 8)        // 1/8 is the most libjpeg reduces
        XCTAssertEqual(d(640, 480, 640, 480), 1)
        XCTAssertEqual(d(640, 480, 400, 300), 1)
        XCTAssertEqual(d(641, 481, 321, 241), 2)         // libjpeg rounds up: ceil(641 / 2) = 321
        XCTAssertEqual(d(1000, 1000, 126, 126), 4)       // 1000 / 8 = 125 is below 126
        XCTAssertEqual(d(4000, 6000, 1080, 1920), 2)
    }

    func testEveryKindOfJPEGMatchesFFmpegsAreaScale() throws {
        let dir = try TempDir()
        let ppm = try photoPPM(dir, "640x480")
        var files: [(String, String)] = []
        func ffmpegJPEG(_ name: String, _ options: [String]) throws {
            try FFmpegCLI.ffmpeg(["-i", ppm, "-frames:v", "1", "-q:v", "2"] + options + [dir.file(name)])
            files.append((name, dir.file(name)))
        }
        func cjpeg(_ name: String, _ options: [String]) throws {
            try FFmpegCLI.run("cjpeg", ["-quality", "92"] + options + ["-outfile", dir.file(name), ppm])
            files.append((name, dir.file(name)))
        }
        try ffmpegJPEG("baseline-420.jpg", ["-pix_fmt", "yuvj420p"])
        try ffmpegJPEG("baseline-444.jpg", ["-pix_fmt", "yuvj444p"])
        try cjpeg("progressive.jpg", ["-progressive"])
        try cjpeg("restart.jpg", ["-restart", "1"])
        try cjpeg("gray.jpg", ["-grayscale"])  // one component (ffmpeg's mjpeg encoder writes no greyscale JPEG)
        XCTAssertEqual(try FFmpegCLI.probe(dir.file("gray.jpg"), "stream=pix_fmt"), "gray")
        XCTAssertEqual(try FFmpegCLI.probe(dir.file("progressive.jpg"), "stream=pix_fmt"), "yuvj420p")
        let testsrc = dir.file("testsrc2.jpg")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=640x480", "-frames:v", "1", "-q:v", "2", testsrc])
        files.append(("testsrc2.jpg", testsrc))
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/jpeg").path
        files.append(("cmyk.jpg", fixtures + "/cmyk.jpg"))   // Adobe CMYK, inverted inks (Fixtures/jpeg/make-cmyk.c)
        files.append(("ycck.jpg", fixtures + "/ycck.jpg"))   // the same picture stored as YCCK
        var report: [String] = []
        for (name, path) in files {
            // ffmpeg's own YCCK conversion is off (26.5 dB from the picture make-cmyk.c drew, against 49 dB for its
            // CMYK decode), so the YCCK file is held to ffmpeg's decode of the same picture stored as CMYK.
            let reference = name == "ycck.jpg" ? fixtures + "/cmyk.jpg" : path
            let size = try MediaFile.probe(path).size
            let targets = [size, PixelSize(width: size.width * 5 / 8, height: size.height * 5 / 8),
                           PixelSize(width: size.width / 4, height: size.height / 4),
                           PixelSize(width: size.width / 5 + 3, height: size.height / 7 + 1)]
            for target in targets {
                let psnr = try psnrAgainstFFmpeg(path, target, reference: reference)
                report.append("\(name) \(target): \(String(format: "%.1f", psnr)) dB")
                XCTAssertGreaterThanOrEqual(psnr, least, "\(name) at \(target)")
            }
        }
        print("TurboJPEGTests PSNR against ffmpeg area:\n  " + report.joined(separator: "\n  "))
    }

    func testLargePictureStreamsThroughABandOfRows() throws {
        let dir = try TempDir()
        let path = dir.file("big.jpg")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=1500x1000,scale=6000:4000:flags=bicubic,noise=alls=10:allf=t",
                              "-frames:v", "1", "-q:v", "2", path])
        let target = PixelSize(width: 1920, height: 1080)
        let decoder = TurboJPEGDecoder(path: path, stored: PixelSize(width: 6000, height: 4000), target: target)
        let image = try decoder.decode(timeLimit: 60)
        XCTAssertEqual(image.size, target)
        XCTAssertEqual(decoder.denominator, 2)
        XCTAssertEqual(decoder.scaledSize, PixelSize(width: 3000, height: 2000))
        // One band of 16 DCT-scaled rows and a few target-wide rows of accumulators: not the 3000x2000 picture.
        let band = 3000 * TurboJPEGDecoder.bandRows * 4
        XCTAssertGreaterThanOrEqual(decoder.streamingBytes, band)
        XCTAssertLessThanOrEqual(decoder.streamingBytes, band + 64 * target.width, "\(decoder.streamingBytes) bytes")
        let psnr = ImageCompare.psnr(image, try areaReference(path, target))
        print("TurboJPEGTests 6000x4000 to 1920x1080: \(String(format: "%.1f", psnr)) dB")
        XCTAssertGreaterThanOrEqual(psnr, least)
        let item = try MediaFile.decode(path) { _ in target }
        XCTAssertEqual(item.info.size, PixelSize(width: 6000, height: 4000))
        XCTAssertEqual(item.picture.size, target)
    }

    func testWhatLibjpegRefusesFallsBackToFFmpeg() throws {
        let dir = try TempDir()
        let path = dir.file("lossless.jpg")  // SOF3: libjpeg-turbo 2.1 refuses it, ffmpeg decodes it
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240", "-frames:v", "1", "-c:v", "ljpeg", "-pix_fmt", "bgr24", path])
        let size = PixelSize(width: 320, height: 240)
        XCTAssertThrowsError(try TurboJPEGDecoder(path: path, stored: size, target: size).decode(timeLimit: 10)) { error in
            XCTAssertTrue(error is TurboJPEGDecoder.Refusal, "\(error)")
            XCTAssertTrue("\(error)".contains("SOF type 0xc3"), "\(error)")
        }
        let target = PixelSize(width: 160, height: 120)
        let item = try MediaFile.decode(path) { _ in target }
        XCTAssertEqual(item.picture.size, target)
        guard case .still(let image) = item.picture else { return XCTFail("not a still") }
        XCTAssertGreaterThanOrEqual(ImageCompare.psnr(image, try FFmpegCLI.referenceRGBA(path, size: target)), 30)
    }

    func testTruncatedAndGarbageFilesThrowOneLineNamingTheFile() throws {
        let dir = try TempDir()
        let good = dir.file("good.jpg")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240", "-frames:v", "1", good])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        let sos = (0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA } ?? 0
        var random = AnimationFixtures.randomBytes(count: 4096, seed: 15)
        var garbageHeader = Array(bytes.prefix(sos))  // every table, then a scan header with no components
        garbageHeader += [0xFF, 0xDA, 0x00, 0x06, 0x00, 0x00, 0x3F, 0x00] + random + [0xFF, 0xD9]
        random[0] = 0xFF; random[1] = 0xD8; random[2] = 0xFF
        let cases: [(String, [UInt8], String)] = [
            ("truncated.jpg", Array(bytes.prefix(bytes.count / 2)), "truncated or corrupt JPEG"),
            ("garbage.jpg", random + [0xFF, 0xD9], "JPEG"),
            ("bad-scan.jpg", garbageHeader, "JPEG"),
        ]
        for (name, content, words) in cases {
            let path = dir.file(name)
            try Data(content).write(to: URL(fileURLWithPath: path))
            let start = Date()
            do {
                _ = try MediaFile.decode(path) { $0 }
                XCTFail("\(name) decoded")
            } catch let error as MediaError {
                XCTAssertEqual(error.path, path)
                XCTAssertTrue(error.reason.contains(words), "\(name): \(error)")
                XCTAssertFalse(error.description.contains("\n"), "\(name): \(error)")
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 1.0, "\(name) was slow")
        }
        // libjpeg's own refusal of the bad scan header comes back through the setjmp shim as a message.
        XCTAssertThrowsError(try TurboJPEGDecoder(path: dir.file("bad-scan.jpg"), stored: PixelSize(width: 320, height: 240),
                                              target: PixelSize(width: 320, height: 240))
            .decode(timeLimit: 10)) { error in
            XCTAssertTrue(error is TurboJPEGDecoder.Refusal, "\(error)")
            XCTAssertFalse("\(error)".isEmpty)
        }
    }
}
