import Foundation
import KioskCore
import KioskMedia
import XCTest

/// WebPDecoder on animated and still WebP files made by ffmpeg's libwebp encoders at test time.
final class WebPDecoderTests: XCTestCase {
    private typealias F = AnimationFixtures
    /// testsrc, blurred: lossy WebP of its sharp colour edges leaves decoders' chroma upsampling too far apart.
    private let source = ["-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=1,gblur=sigma=3"]
    /// Makes swscale upsample chroma about as libwebp does, so that lossy decodes are comparable.
    private let accurateChroma = ["-sws_flags", "bicubic+accurate_rnd+full_chroma_int+full_chroma_inp"]

    private func animated(_ dir: URL, loop: Int) throws -> String {
        let path = dir.appendingPathComponent("loop\(loop).webp").path
        try F.ffmpeg(source + ["-c:v", "libwebp_anim", "-loop", "\(loop)", path])
        return path
    }

    private func still(_ dir: URL, lossless: Bool = false) throws -> String {
        let path = dir.appendingPathComponent(lossless ? "lossless.webp" : "still.webp").path
        try F.ffmpeg(source + ["-c:v", "libwebp", "-lossless", lossless ? "1" : "0", "-frames:v", "1", path])
        return path
    }

    /// The loop count in the file's ANIM chunk, read from its bytes.
    private func animLoopCount(_ path: String) throws -> Int? {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let tag = Array("ANIM".utf8)
        guard let at = (0...(bytes.count - 14)).first(where: { Array(bytes[$0..<($0 + 4)]) == tag }) else { return nil }
        return Int(bytes[at + 12]) | Int(bytes[at + 13]) << 8
    }

    func testMatchesSignature() {
        XCTAssertTrue(WebPDecoder.matches(header: Array("RIFF\u{1}\u{2}\u{3}\u{4}WEBPVP8 ".utf8)))
        XCTAssertFalse(WebPDecoder.matches(header: Array("RIFF\u{1}\u{2}\u{3}\u{4}WAVE".utf8)))
        XCTAssertFalse(WebPDecoder.matches(header: Array("RIFF".utf8)))
        XCTAssertFalse(WebPDecoder.matches(header: Array("GIF89a".utf8)))
    }

    func testAnimatedFramesDurationsAndLoops() throws {
        let dir = try F.tempDir(self)
        let forever = try animated(dir, loop: 0)
        XCTAssertEqual(try animLoopCount(forever), 0)
        let info = try WebPDecoder.probe(path: forever)
        XCTAssertEqual(info.kind, .animation)
        XCTAssertEqual(info.size, PixelSize(width: 160, height: 120))
        XCTAssertEqual(info.frames, 10)
        XCTAssertEqual(info.duration ?? 0, 1.0, accuracy: 1e-9)
        XCTAssertEqual(info.loops, 0)
        XCTAssertEqual(info.orientation, 1)

        let item = try WebPDecoder.decode(path: forever)
        XCTAssertEqual(item.info, info)
        guard case .animation(let frames, let loops) = item.picture else { return XCTFail("expected an animation") }
        XCTAssertEqual(loops, 0)
        XCTAssertEqual(frames.count, 10)
        for f in frames {
            XCTAssertEqual(f.duration, 0.1, accuracy: 1e-9)
            XCTAssertEqual(f.image.size, PixelSize(width: 160, height: 120))
        }
        // testsrc moves: consecutive composed frames differ.
        XCTAssertNotEqual(frames[0].image, frames[1].image)

        // WebP's loop count is already total plays.
        let thrice = try animated(dir, loop: 3)
        XCTAssertEqual(try animLoopCount(thrice), 3)
        XCTAssertEqual(try WebPDecoder.probe(path: thrice).loops, 3)
        if case .animation(_, let loops) = try WebPDecoder.decode(path: thrice).picture { XCTAssertEqual(loops, 3) }
    }

    func testStillMatchesFfmpegAndFirstFrame() throws {
        let dir = try F.tempDir(self)
        let path = try still(dir)
        let info = try WebPDecoder.probe(path: path)
        XCTAssertEqual(info, MediaInfo(path: path, kind: .image, width: 160, height: 120, frames: 1, duration: nil,
                                       loops: 1, orientation: 1))
        let item = try WebPDecoder.decode(path: path)
        XCTAssertEqual(item.info, info)
        guard case .still(let image) = item.picture else { return XCTFail("expected a still") }
        XCTAssertEqual(image.size, PixelSize(width: 160, height: 120))
        XCTAssertTrue(stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 255 })
        let reference = try F.ffmpegFrames(path, width: 160, height: 120, options: accurateChroma)
        XCTAssertEqual(reference.count, 1)
        let psnr = F.psnrRGB(image.pixels, reference[0])
        XCTAssertGreaterThanOrEqual(psnr, 35)

        // ffmpeg 5.1 cannot decode animated WebP: compare the first animated frame with the still of the same source.
        let anim = try animated(dir, loop: 0)
        guard case .animation(let frames, _) = try WebPDecoder.decode(path: anim).picture, let first = frames.first else {
            return XCTFail("expected an animation")
        }
        XCTAssertGreaterThanOrEqual(F.psnrRGB(first.image.pixels, reference[0]), 35)
    }

    func testLosslessStillEqualsFfmpegExactly() throws {
        let dir = try F.tempDir(self)
        let path = try still(dir, lossless: true)
        guard case .still(let image) = try WebPDecoder.decode(path: path).picture else {
            return XCTFail("expected a still")
        }
        XCTAssertEqual(image.pixels, try F.ffmpegFrames(path, width: 160, height: 120).first)
    }

    func testShortFrameDurationRule() {
        XCTAssertEqual(WebPDecoder.frameDuration(milliseconds: 0), 0.1)
        XCTAssertEqual(WebPDecoder.frameDuration(milliseconds: 10), 0.1)
        XCTAssertEqual(WebPDecoder.frameDuration(milliseconds: 11), 0.011)
        XCTAssertEqual(WebPDecoder.frameDuration(milliseconds: 250), 0.25)
    }

    // MARK: bad input

    private func assertFails(_ path: String, mentioning words: [String], file: StaticString = #filePath,
                             line: UInt = #line) {
        F.assertOneLineError(path, mentioning: words,
                             calls: [("probe", { _ = try WebPDecoder.probe(path: path) }), ("decode", { _ = try WebPDecoder.decode(path: path) })],
                             file: file, line: line)
    }

    func testBadInputNamesTheFile() throws {
        let dir = try F.tempDir(self)
        let anim = try animated(dir, loop: 0)
        let stillPath = try still(dir)
        assertFails(try F.write([], "empty.webp", in: dir), mentioning: ["empty"])
        assertFails(try F.truncatedCopy(of: anim), mentioning: ["truncated or corrupt WebP"])
        assertFails(try F.truncatedCopy(of: stillPath), mentioning: ["truncated or corrupt WebP"])
        var header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: stillPath)))
        header[8] = UInt8(ascii: "X")
        assertFails(try F.write(header, "header.webp", in: dir), mentioning: ["WebP"])
        assertFails(try F.write(F.randomBytes(count: 4096, seed: 3), "random.webp", in: dir), mentioning: ["WebP"])
        assertFails(dir.appendingPathComponent("missing.webp").path, mentioning: ["no such file"])
        assertFails(dir.path, mentioning: ["directory"])
    }

    func testCorruptBitstreamFailsToDecode() throws {
        let dir = try F.tempDir(self)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try still(dir))))
        // Keep the RIFF and VP8 chunk headers, scramble the compressed frame behind them.
        let noise = F.randomBytes(count: bytes.count - 30, seed: 11)
        bytes.replaceSubrange(30..<bytes.count, with: noise)
        let path = try F.write(bytes, "scrambled.webp", in: dir)
        XCTAssertThrowsError(try WebPDecoder.decode(path: path)) { error in
            guard let e = error as? MediaError else { return XCTFail("\(error)") }
            XCTAssertEqual(e.path, path)
            XCTAssertTrue(e.reason.contains("WebP"), e.reason)
        }
    }
}
