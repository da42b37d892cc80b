import Foundation
import KioskCore
import KioskMedia
import XCTest

/// GifDecoder on GIFs made by ffmpeg at test time and on GIFs written byte by byte.
final class GifDecoderTests: XCTestCase {
    private typealias F = AnimationFixtures

    /// 160x120, 10 frames at 10 fps, with ffmpeg's `-loop` value.
    private func ffmpegGif(_ dir: URL, loop: Int) throws -> String {
        let path = dir.appendingPathComponent("loop\(loop).gif").path
        try F.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=1", "-loop", "\(loop)", path])
        return path
    }

    /// The repeat count in the file's NETSCAPE2.0 block, read from its bytes; nil when there is none.
    private func netscapeRepeatCount(_ path: String) throws -> Int? {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let id = Array("NETSCAPE2.0".utf8)
        guard let at = (0...(bytes.count - id.count)).first(where: { Array(bytes[$0..<($0 + id.count)]) == id }) else {
            return nil
        }
        let sub = at + id.count
        XCTAssertEqual(Array(bytes[sub..<(sub + 2)]), [3, 1])
        return Int(bytes[sub + 2]) | Int(bytes[sub + 3]) << 8
    }

    /// ffprobe's packet durations in seconds (the gif demuxer applies the same under-2-cs rule).
    private func ffprobeDurations(_ path: String) throws -> [Double] {
        let out = try F.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                 "packet=duration_time", "-of", "csv=p=0", path])
        return String(decoding: out, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }
    }

    private func frames(_ item: DecodedItem) -> [AnimationFrame] {
        if case .animation(let frames, _) = item.picture { return Array(frames) }
        XCTFail("expected an animation")
        return []
    }

    private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.size.width + x) * 4
        return Array(image.pixels[i..<(i + 4)])
    }

    func testMatchesSignatures() {
        XCTAssertTrue(GifDecoder.matches(header: Array("GIF89a\u{1}\u{0}".utf8)))
        XCTAssertTrue(GifDecoder.matches(header: Array("GIF87a".utf8)))
        XCTAssertFalse(GifDecoder.matches(header: Array("GIF88a".utf8)))
        XCTAssertFalse(GifDecoder.matches(header: Array("GIF".utf8)))
        XCTAssertFalse(GifDecoder.matches(header: Array("RIFF\0\0\0\0WEBP".utf8)))
    }

    func testFfmpegGifFramesDelaysAndPixelsMatchFfmpeg() throws {
        let dir = try F.tempDir(self)
        let path = try ffmpegGif(dir, loop: 0)
        XCTAssertEqual(try netscapeRepeatCount(path), 0)
        let expected = try ffprobeDurations(path)
        XCTAssertEqual(expected.count, 10)

        let info = try GifDecoder.probe(path: path)
        XCTAssertEqual(info, MediaInfo(path: path, kind: .animation, width: 160, height: 120, frames: expected.count,
                                       duration: info.duration, loops: 0, orientation: 1))
        XCTAssertEqual(info.duration ?? 0, expected.reduce(0, +), accuracy: 1e-9)

        let item = try GifDecoder.decode(path: path)
        XCTAssertEqual(item.info, info)
        let decoded = frames(item)
        XCTAssertEqual(decoded.map(\.duration), expected)
        if case .animation(_, let loops) = item.picture { XCTAssertEqual(loops, 0) }

        let reference = try F.ffmpegFrames(path, width: 160, height: 120)
        XCTAssertEqual(reference.count, decoded.count)
        for (i, (ours, theirs)) in zip(decoded, reference).enumerated() {
            XCTAssertEqual(ours.image.size, PixelSize(width: 160, height: 120))
            XCTAssertTrue(stride(from: 3, to: ours.image.pixels.count, by: 4).allSatisfy { ours.image.pixels[$0] == 255 },
                          "frame \(i) of an opaque source has transparent pixels")
            let psnr = F.psnrRGB(ours.image.pixels, theirs)
            XCTAssertGreaterThanOrEqual(psnr, 40, "frame \(i)")
        }
    }

    func testLoopCountMapping() throws {
        let dir = try F.tempDir(self)
        // ffmpeg -loop 2 writes NETSCAPE2.0 repeat count 2: the animation repeats twice, three plays in all.
        let twice = try ffmpegGif(dir, loop: 2)
        XCTAssertEqual(try netscapeRepeatCount(twice), 2)
        XCTAssertEqual(try GifDecoder.probe(path: twice).loops, 3)
        // ffmpeg -loop -1 writes no loop extension: one play.
        let once = try ffmpegGif(dir, loop: -1)
        XCTAssertNil(try netscapeRepeatCount(once))
        XCTAssertEqual(try GifDecoder.probe(path: once).loops, 1)
        if case .animation(_, let loops) = try GifDecoder.decode(path: once).picture { XCTAssertEqual(loops, 1) }

        XCTAssertEqual(GifDecoder.plays(repeatCount: nil), 1)
        XCTAssertEqual(GifDecoder.plays(repeatCount: 0), 0)
        XCTAssertEqual(GifDecoder.plays(repeatCount: 1), 2)
        XCTAssertEqual(GifDecoder.plays(repeatCount: 65535), 65536)
    }

    func testShortDelaysCountAsTenCentiseconds() throws {
        let dir = try F.tempDir(self)
        let red: [UInt8] = Array(repeating: 1, count: 4)
        var gif = TinyGif(width: 2, height: 2, palette: [(0, 0, 0), (255, 0, 0)], repeatCount: 0)
        gif.frames = [0, 1, 2, 7].map { TinyGif.Frame(width: 2, height: 2, indices: red, delay: $0) }
        let path = try F.write(gif.bytes(), "delays.gif", in: dir)

        let item = try GifDecoder.decode(path: path)
        XCTAssertEqual(frames(item).map(\.duration), [0.10, 0.10, 0.02, 0.07])
        XCTAssertEqual(try ffprobeDurations(path), [0.10, 0.10, 0.02, 0.07])
        XCTAssertEqual(item.info.duration ?? 0, 0.29, accuracy: 1e-9)
        XCTAssertEqual(item.info.loops, 0)
    }

    func testDisposalTransparencyAndClipping() throws {
        let dir = try F.tempDir(self)
        let palette: [(UInt8, UInt8, UInt8)] = [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
        var gif = TinyGif(width: 4, height: 4, palette: palette, repeatCount: 3)
        gif.frames = [
            // All red, kept.
            TinyGif.Frame(width: 4, height: 4, indices: Array(repeating: 1, count: 16), disposal: 1),
            // Green 2x2 at (1,1) with its last pixel transparent, then restored to background.
            TinyGif.Frame(left: 1, top: 1, width: 2, height: 2, indices: [2, 2, 2, 0], disposal: 2, transparent: 0),
            // Blue 2x1 at (0,0), then restored to what was before it.
            TinyGif.Frame(width: 2, height: 1, indices: [3, 3], disposal: 3),
            // White 2x2 at (3,3): only (3,3) is inside the canvas.
            TinyGif.Frame(left: 3, top: 3, width: 2, height: 2, indices: [4, 4, 4, 4]),
        ]
        let path = try F.write(gif.bytes(), "disposal.gif", in: dir)
        let item = try GifDecoder.decode(path: path)
        XCTAssertEqual(item.info.loops, 4)
        let f = frames(item).map(\.image)
        XCTAssertEqual(f.count, 4)
        let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255], blue: [UInt8] = [0, 0, 255, 255]
        let white: [UInt8] = [255, 255, 255, 255], clear: [UInt8] = [0, 0, 0, 0]
        let hole = [(1, 1), (2, 1), (1, 2), (2, 2)]

        for y in 0..<4 { for x in 0..<4 { XCTAssertEqual(pixel(f[0], x, y), red) } }

        for y in 0..<4 {
            for x in 0..<4 {
                let inGreen = [(1, 1), (2, 1), (1, 2)].contains { $0 == (x, y) }
                XCTAssertEqual(pixel(f[1], x, y), inGreen ? green : red, "frame 2 at \(x),\(y)")
            }
        }
        for y in 0..<4 {
            for x in 0..<4 {
                let want = y == 0 && x < 2 ? blue : hole.contains { $0 == (x, y) } ? clear : red
                XCTAssertEqual(pixel(f[2], x, y), want, "frame 3 at \(x),\(y)")
            }
        }
        for y in 0..<4 {
            for x in 0..<4 {
                let want = (x, y) == (3, 3) ? white : hole.contains { $0 == (x, y) } ? clear : red
                XCTAssertEqual(pixel(f[3], x, y), want, "frame 4 at \(x),\(y)")
            }
        }
    }

    func testFirstFrameTransparencyAndMissingTrailer() throws {
        let dir = try F.tempDir(self)
        var gif = TinyGif(width: 3, height: 2, palette: [(0, 0, 0), (10, 20, 30)], repeatCount: nil)
        // A 2x1 frame at the top-left with its second pixel transparent: the rest of the canvas stays clear.
        gif.frames = [TinyGif.Frame(width: 2, height: 1, indices: [1, 0], transparent: 0)]
        let bytes = gif.bytes()
        XCTAssertEqual(bytes.last, 0x3B)
        // Without the trailer (as many files in the wild end) the frame still decodes.
        let path = try F.write(Array(bytes.dropLast()), "notrailer.gif", in: dir)
        guard case .still(let image) = try GifDecoder.decode(path: path).picture else {
            return XCTFail("expected a still")
        }
        XCTAssertEqual(image.size, PixelSize(width: 3, height: 2))
        XCTAssertEqual(pixel(image, 0, 0), [10, 20, 30, 255])
        for (x, y) in [(1, 0), (2, 0), (0, 1), (1, 1), (2, 1)] {
            XCTAssertEqual(pixel(image, x, y), [0, 0, 0, 0], "\(x),\(y)")
        }
        // Cut inside the frame's data it is an error.
        let cut = try F.write(Array(bytes.dropLast(3)), "cut.gif", in: dir)
        XCTAssertThrowsError(try GifDecoder.decode(path: cut)) { error in
            XCTAssertEqual((error as? MediaError)?.path, cut)
        }
    }

    func testInterlacedStill() throws {
        let dir = try F.tempDir(self)
        let palette: [(UInt8, UInt8, UInt8)] = (0..<16).map { (i: Int) -> (UInt8, UInt8, UInt8) in
            (UInt8(i * 16), UInt8(255 - i * 16), UInt8(i * 8))
        }
        var gif = TinyGif(width: 3, height: 11, palette: palette, repeatCount: nil)
        let indices: [UInt8] = (0..<11).flatMap { (row: Int) -> [UInt8] in Array(repeating: UInt8(row), count: 3) }
        gif.frames = [TinyGif.Frame(width: 3, height: 11, indices: indices, interlaced: true)]
        let path = try F.write(gif.bytes(), "interlaced.gif", in: dir)

        let info = try GifDecoder.probe(path: path)
        XCTAssertEqual(info, MediaInfo(path: path, kind: .image, width: 3, height: 11, frames: 1, duration: nil,
                                       loops: 1, orientation: 1))
        let item = try GifDecoder.decode(path: path)
        guard case .still(let image) = item.picture else { return XCTFail("expected a still") }
        for y in 0..<11 {
            let c = palette[y]
            XCTAssertEqual(pixel(image, 1, y), [c.0, c.1, c.2, 255], "row \(y)")
        }
        XCTAssertEqual(F.psnrRGB(image.pixels, try F.ffmpegFrames(path, width: 3, height: 11)[0]), .infinity)
    }

    // MARK: bad input

    private func assertFails(_ path: String, mentioning words: [String], file: StaticString = #filePath,
                             line: UInt = #line) {
        F.assertOneLineError(path, mentioning: words,
                             calls: [("probe", { _ = try GifDecoder.probe(path: path) }), ("decode", { _ = try GifDecoder.decode(path: path) })],
                             file: file, line: line)
    }

    func testBadInputNamesTheFile() throws {
        let dir = try F.tempDir(self)
        let good = try ffmpegGif(dir, loop: 0)
        assertFails(try F.write([], "empty.gif", in: dir), mentioning: ["empty"])
        assertFails(try F.truncatedCopy(of: good), mentioning: ["truncated or corrupt GIF"])
        var header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        header[2] = UInt8(ascii: "X")
        assertFails(try F.write(header, "header.gif", in: dir), mentioning: ["GIF"])
        assertFails(try F.write(F.randomBytes(count: 4096, seed: 7), "random.gif", in: dir), mentioning: ["GIF"])
        assertFails(try F.write(Array("GIF89a".utf8) + F.randomBytes(count: 4096, seed: 9), "noise.gif", in: dir),
                    mentioning: ["GIF"])
        assertFails(dir.appendingPathComponent("missing.gif").path, mentioning: ["no such file"])
        assertFails(dir.path, mentioning: ["directory"])
        let huge = TinyGif(width: 20000, height: 10, palette: [], repeatCount: nil)
        assertFails(try F.write(huge.bytes(), "huge.gif", in: dir), mentioning: ["animation too large"])
        var long = TinyGif(width: 16384, height: 16384, palette: [], repeatCount: 0)
        long.frames = Array(repeating: TinyGif.Frame(width: 1, height: 1, indices: [0]), count: 5)
        // Probed, it is described; decoding it is refused from the header (--max-pixels), before any canvas.
        let longPath = try F.write(long.bytes(), "long.gif", in: dir)
        XCTAssertEqual(try GifDecoder.probe(path: longPath).frames, 5)
        XCTAssertThrowsError(try GifDecoder.decode(path: longPath)) { error in
            XCTAssertTrue("\(error)".contains("16384x16384 is over the pixel limit --max-pixels 64M"), "\(error)")
        }
        let noFrames = TinyGif(width: 4, height: 4, palette: [], repeatCount: 0)
        assertFails(try F.write(noFrames.bytes(), "noframes.gif", in: dir), mentioning: ["no frames"])
    }
}
