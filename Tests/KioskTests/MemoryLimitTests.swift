import Foundation
import KioskCore
@testable import KioskMedia
import XCTest

/// Bounded memory for every decode (issue 10, finding 2): sizes are refused from the headers before anything is
/// allocated (`--max-pixels`), and an animation holds a bounded window of display-size frames (`--animation-mb`)
/// whatever its frame count. Hostile files are written at test time (GIF, WebP, PNG, JPEG) or committed
/// (Fixtures/memory: the 2000-frame 1080p APNG and the 16000×9000 VP9, which take ffmpeg minutes to make).
final class MemoryLimitTests: XCTestCase {
    static var fixtures: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/memory").path
    }

    /// An 8192×8192 logical screen holding one 1×1 frame: 137 bytes that asked for a 256 MiB canvas.
    static func bigCanvasGif(_ dir: TempDir, frames: Int = 1, side: Int = 8192) throws -> String {
        var gif = TinyGif(width: side, height: side, palette: [(255, 0, 0)], repeatCount: frames > 1 ? 0 : nil)
        gif.frames = Array(repeating: TinyGif.Frame(width: 1, height: 1, indices: [0]), count: frames)
        let path = dir.file("canvas-\(side)-\(frames).gif")
        try Data(gif.bytes()).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// An animated WebP (VP8X + ANIM + two ANMF frames of a 2×2 lossless picture made by ffmpeg) whose canvas is
    /// `side`×`side`.
    static func bigCanvasWebP(_ dir: TempDir, side: Int = 8192) throws -> String {
        let tiny = dir.file("tiny-\(side).webp")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=2x2", "-frames:v", "1", "-c:v", "libwebp",
                              "-lossless", "1", tiny])
        let still = [UInt8](try Data(contentsOf: URL(fileURLWithPath: tiny)))
        let vp8l = Array(still[12...])  // the VP8L chunk, header included
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        func chunk(_ tag: String, _ body: [UInt8]) -> [UInt8] {
            Array(tag.utf8) + le(body.count, 4) + body + (body.count % 2 == 1 ? [0] : [])
        }
        var body = Array("WEBP".utf8)
        body += chunk("VP8X", [0x02, 0, 0, 0] + le(side - 1, 3) + le(side - 1, 3))
        body += chunk("ANIM", [0, 0, 0, 0] + le(0, 2))
        for _ in 0..<2 {
            body += chunk("ANMF", le(0, 3) + le(0, 3) + le(1, 3) + le(1, 3) + le(100, 3) + [0] + vp8l)
        }
        let path = dir.file("canvas-\(side).webp")
        try Data(Array("RIFF".utf8) + le(body.count, 4) + body).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A small file made by ffmpeg with the 16-bit size fields of its header rewritten.
    static func patched(_ dir: TempDir, ext: String, width: Int, height: Int,
                        edit: (inout [UInt8], Int, Int) -> Void) throws -> String {
        let source = dir.file("small.\(ext)")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=32x32", "-frames:v", "1", source])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        edit(&bytes, width, height)
        let path = dir.file("huge-\(width)x\(height).\(ext)")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func assertRefused(_ path: String, naming words: [String], limits: DecodeLimits = .standard,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try MediaFile.decode(path, limits: limits) { $0 }, file: file, line: line) { error in
            let text = "\(error)"
            XCTAssertFalse(text.contains("\n"), text, file: file, line: line)
            XCTAssertTrue(text.hasPrefix(path), text, file: file, line: line)
            for w in words { XCTAssertTrue(text.contains(w), "\(text) lacks \(w)", file: file, line: line) }
        }
    }

    /// Each header's size is read and refused before a decoder allocates: GIF logical screen, WebP VP8X canvas,
    /// PNG IHDR (its CRC left wrong: ffmpeg never sees it), JPEG SOF; the limit follows `--max-pixels`.
    func testHeaderSizesAreRefusedBeforeDecoding() throws {
        let dir = try TempDir()
        assertRefused(try Self.bigCanvasGif(dir), naming: ["GIF canvas 8192x8192", "--max-pixels 64M"])
        assertRefused(try Self.bigCanvasWebP(dir), naming: ["WebP canvas 8192x8192", "--max-pixels 64M"])
        let png = try Self.patched(dir, ext: "png", width: 20000, height: 20000) { b, w, h in
            b.replaceSubrange(16..<24, with: [0, 0, UInt8(w >> 8), UInt8(w & 255), 0, 0, UInt8(h >> 8), UInt8(h & 255)])
        }
        assertRefused(png, naming: ["PNG 20000x20000", "--max-pixels 64M"])
        let jpeg = try Self.patched(dir, ext: "jpg", width: 10000, height: 9000) { b, w, h in
            guard let sof = (2..<(b.count - 9)).first(where: { b[$0] == 0xFF && b[$0 + 1] == 0xC0 }) else { return }
            b.replaceSubrange((sof + 5)..<(sof + 9), with: [UInt8(h >> 8), UInt8(h & 255), UInt8(w >> 8), UInt8(w & 255)])
        }
        assertRefused(jpeg, naming: ["JPEG 10000x9000", "--max-pixels 64M"])
        // A lower limit refuses a normal picture, naming the limit as given.
        let small = dir.file("small.png")
        assertRefused(small, naming: ["PNG 32x32", "--max-pixels 1000"], limits: DecodeLimits(maxPixels: 1000, animationBytes: 64 << 20))
        XCTAssertNoThrow(try MediaFile.decode(small) { $0 })
    }

    /// An animation whose composing canvas alone is over `--animation-mb` is refused naming both.
    func testAnimationCanvasOverTheBudgetIsRefused() throws {
        let dir = try TempDir()
        let gif = try Self.bigCanvasGif(dir, frames: 3, side: 3000)
        assertRefused(gif, naming: ["animation canvas 3000x3000 needs 102 MiB to compose", "--animation-mb 64"])
        let limits = DecodeLimits(maxPixels: 64_000_000, animationBytes: 128 << 20)
        let item = try MediaFile.decode(gif, limits: limits) { _ in PixelSize(width: 100, height: 100) }
        guard case .animation(let frames, _) = item.picture else { return XCTFail("expected an animation") }
        XCTAssertEqual(frames.size, PixelSize(width: 100, height: 100))
    }

    /// The 2000-frame APNG decodes on demand: frames at display size, the window bounded by the budget, and a
    /// frame behind the window re-decoded from the start (a new pass) with the same pixels.
    func testLongAPNGHoldsABoundedWindow() throws {
        let path = Self.fixtures + "/apng-1920x1080-2000-frames.apng"
        let budget = DecodeLimits(maxPixels: 64_000_000, animationBytes: 40 << 20)
        let item = try MediaFile.decode(path, limits: budget) { _ in PixelSize(width: 640, height: 360) }
        guard case .animation(let frames, _) = item.picture else { return XCTFail("expected an animation") }
        XCTAssertEqual(frames.count, 2000)
        XCTAssertEqual(frames.size, PixelSize(width: 640, height: 360))
        let frameBytes = 640 * 360 * 4
        let window = (40 << 20) - 3 * 1920 * 1080 * 4
        XCTAssertEqual(frames.capacity, window / frameBytes)
        let first = frames.image(at: 0)
        for i in stride(from: 0, to: 120, by: 1) {
            _ = frames.image(at: i)
            XCTAssertLessThanOrEqual(frames.heldBytes, window, "frame \(i)")
        }
        XCTAssertEqual(frames.passes, 1)
        XCTAssertEqual(frames.image(at: 0), first)  // behind the window: decoded again from the start
        XCTAssertEqual(frames.passes, 2)
        XCTAssertNil(frames.failure)
    }

    /// The 16000×9000 VP9 is refused with one line naming the file, its size and the limit.
    func testHugeVideoIsRefusedNamingSizeAndLimit() throws {
        let path = Self.fixtures + "/vp9-16000x9000.webm"
        let info = try MediaFile.probe(path)
        XCTAssertEqual(info.size, PixelSize(width: 16000, height: 9000))
        XCTAssertThrowsError(try MediaFile.openClip(path, info: info, log: Log(level: .error))) { error in
            XCTAssertEqual("\(error)", "\(path): video 16000x9000 is over the pixel limit --max-pixels 64M")
        }
    }

    /// A video's frame threads: one up to 1080p at 30 fps (a frame thread more holds 10-13 MiB there and buys
    /// nothing a core cannot do), one per core above, capped by frame size so the decoder's own pool stays within
    /// `VideoStreamReader.poolBytes` (two frames a thread); `--decode-threads` wins. The queue is bounded in bytes
    /// by `VideoDecoder.Limits`.
    func testVideoDecodeThreadsFollowPixelRateAndFrameBytes() {
        let hd = PixelSize(width: 1920, height: 1080), uhd = PixelSize(width: 3840, height: 2160)
        XCTAssertEqual(VideoStreamReader.decodeThreads(for: hd, frameRate: 30, requested: 0, cores: 4), 1)
        XCTAssertEqual(VideoStreamReader.decodeThreads(for: hd, frameRate: 30000.0 / 1001, requested: 0, cores: 4), 1)
        XCTAssertEqual(VideoStreamReader.decodeThreads(for: PixelSize(width: 1920, height: 1088), frameRate: 30,
                                                       requested: 0, cores: 4), 1)
        XCTAssertEqual(VideoStreamReader.decodeThreads(for: hd, frameRate: 0, requested: 0, cores: 4), 1)  // unknown: 30
        XCTAssertEqual(VideoStreamReader.decodeThreads(for: hd, frameRate: .nan, requested: 0, cores: 4), 1)
        XCTAssertEqual(VideoStreamReader.decodeThreads(for: hd, frameRate: 50, requested: 0, cores: 4), 4)  // a core each
        XCTAssertEqual(VideoStreamReader.decodeThreads(for: hd, frameRate: 60, requested: 0, cores: 2), 2)
        XCTAssertEqual(VideoStreamReader.decodeThreads(for: uhd, frameRate: 30, requested: 0, cores: 4), 4)
        XCTAssertEqual(VideoStreamReader.decodeThreads(for: uhd, frameRate: 24, requested: 0, cores: 2), 2)
        XCTAssertEqual(VideoStreamReader.decodeThreads(for: PixelSize(width: 7680, height: 4320), frameRate: 30,
                                                       requested: 0, cores: 4), 1)
        XCTAssertEqual(VideoStreamReader.decodeThreads(for: hd, frameRate: 30, requested: 3, cores: 2), 3)  // asked
        XCTAssertEqual(VideoStreamReader.decodeThreads(for: uhd, frameRate: 30, requested: 1, cores: 4), 1)
        XCTAssertEqual(VideoStreamReader.decodeThreads(for: uhd, frameRate: 30, requested: 99, cores: 4), DecodeThreads.most)
        for side in [640, 1920, 3840, 7680] {
            let size = PixelSize(width: side, height: side * 9 / 16)
            let threads = VideoStreamReader.decodeThreads(for: size, frameRate: 60, requested: 0, cores: 16)
            let frameBytes = size.width * size.height * 3 / 2
            XCTAssertLessThanOrEqual((threads == 0 ? 17 : threads) * 2 * frameBytes,
                                     max(VideoStreamReader.poolBytes, 2 * frameBytes), "\(size)")
        }
        XCTAssertEqual(VideoDecoder.Limits().maxBytes, 16 << 20)
        XCTAssertEqual(VideoDecoder.Limits().maxFrames, 4)
    }
}
