internal import CWebP
import Foundation
import KioskCore

/// WebP stills and animations through libwebp's animation decoder, which composes each frame onto the canvas.
///
/// The file's loop count is already total plays (0 = forever), so it is passed on as is. A frame shown for
/// 10 ms or less counts as 100 ms, the rule browsers apply to every animated image (and this project to GIF).
public enum WebPDecoder {
    /// Largest canvas side accepted.
    public static let maxCanvasSide = 16384
    /// Largest total of composed frame bytes (frames × width × height × 4) accepted.
    public static let maxDecodedBytes = 1 << 30
    /// Largest file read.
    public static let maxFileBytes = 1 << 30

    /// Whether the first bytes of a file are a WebP signature (`RIFF`, 4 size bytes, `WEBP`).
    public static func matches(header: [UInt8]) -> Bool {
        guard header.count >= 12 else { return false }
        return Array(header[0..<4]) == Array("RIFF".utf8) && Array(header[8..<12]) == Array("WEBP".utf8)
    }

    /// Reads the canvas size, frame count, durations and loop count from the container without decoding pixels.
    public static func probe(path: String) throws -> MediaInfo {
        let data = try readFile(path)
        return try data.withUnsafeBytes { raw -> MediaInfo in
            var webp = WebPData(bytes: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), size: raw.count)
            guard let demux = WebPDemux(&webp) else {
                throw MediaError(path: path, reason: "truncated or corrupt WebP: container does not parse")
            }
            defer { WebPDemuxDelete(demux) }
            let width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH))
            let height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
            let count = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
            let loopCount = Int(WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT))
            try checkSize(path: path, width: width, height: height, frames: count)
            var durations: [Double] = []
            var iter = WebPIterator()
            if WebPDemuxGetFrame(demux, 1, &iter) != 0 {
                repeat { durations.append(frameDuration(milliseconds: Int(iter.duration))) } while WebPDemuxNextFrame(&iter) != 0
                WebPDemuxReleaseIterator(&iter)
            }
            return info(path: path, width: width, height: height, durations: durations, loopCount: loopCount)
        }
    }

    /// Decodes every frame to a composed straight-alpha RGBA canvas at the file's canvas size.
    public static func decode(path: String) throws -> DecodedItem {
        let data = try readFile(path)
        return try data.withUnsafeBytes { raw -> DecodedItem in
            var webp = WebPData(bytes: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), size: raw.count)
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else {
                throw MediaError(path: path, reason: "WebPAnimDecoderOptionsInit failed: libwebp version mismatch")
            }
            options.color_mode = MODE_RGBA
            options.use_threads = 1
            guard let decoder = WebPAnimDecoderNew(&webp, &options) else {
                throw MediaError(path: path, reason: "truncated or corrupt WebP: WebPAnimDecoderNew failed")
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var anim = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &anim) != 0 else {
                throw MediaError(path: path, reason: "corrupt WebP: WebPAnimDecoderGetInfo failed")
            }
            let width = Int(anim.canvas_width), height = Int(anim.canvas_height)
            try checkSize(path: path, width: width, height: height, frames: Int(anim.frame_count))
            let size = PixelSize(width: width, height: height)
            var images: [RGBAImage] = []
            var durations: [Double] = []
            var previous: Int32 = 0
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var buffer: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else {
                    throw MediaError(path: path, reason: "corrupt WebP: frame \(images.count + 1) does not decode")
                }
                let pixels = Array(UnsafeBufferPointer(start: buffer, count: width * height * 4))
                images.append(RGBAImage(size: size, pixels: pixels))
                durations.append(frameDuration(milliseconds: Int(timestamp - previous)))
                previous = timestamp
            }
            let info = info(path: path, width: width, height: height, durations: durations,
                            loopCount: Int(anim.loop_count))
            guard let first = images.first else { throw MediaError(path: path, reason: "corrupt WebP: no frames") }
            if info.kind == .image { return DecodedItem(info: info, picture: .still(first)) }
            let frames = zip(images, durations).map { AnimationFrame(image: $0, duration: $1) }
            return DecodedItem(info: info, picture: .animation(frames: frames, loops: info.loops))
        }
    }

    /// Seconds a frame with a duration of `milliseconds` stays on screen (10 ms or less counts as 100 ms).
    public static func frameDuration(milliseconds: Int) -> Double {
        Double(milliseconds <= 10 ? 100 : milliseconds) / 1000
    }

    private static func info(path: String, width: Int, height: Int, durations: [Double],
                             loopCount: Int) -> MediaInfo {
        let still = durations.count <= 1
        return MediaInfo(path: path, kind: still ? .image : .animation, width: width, height: height,
                         frames: durations.count, duration: still ? nil : durations.reduce(0, +),
                         loops: still ? 1 : max(0, loopCount), orientation: 1)
    }

    private static func checkSize(path: String, width: Int, height: Int, frames: Int) throws {
        guard width > 0, height > 0, frames > 0 else {
            throw MediaError(path: path, reason: "corrupt WebP: canvas \(width)x\(height), \(frames) frames")
        }
        guard width <= maxCanvasSide, height <= maxCanvasSide,
              frames <= maxDecodedBytes / (width * height * 4) else {
            throw MediaError(path: path, reason: "animation too large: WebP of \(frames) frames at \(width)x\(height)")
        }
    }

    private static func readFile(_ path: String) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileAccess.exists(path, isDirectory: &isDirectory) else {
            throw MediaError(path: path, reason: "cannot open WebP: no such file")
        }
        if isDirectory.boolValue { throw MediaError(path: path, reason: "cannot open WebP: is a directory") }
        guard let handle = FileAccess.handle(forReading: path) else {
            throw MediaError(path: path, reason: "cannot open WebP: permission denied or unreadable")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maxFileBytes + 1) ?? Data()
        } catch {
            throw MediaError(path: path, reason: "cannot read WebP: \(error.localizedDescription)")
        }
        if data.isEmpty { throw MediaError(path: path, reason: "empty file") }
        if data.count > maxFileBytes { throw MediaError(path: path, reason: "file too large for WebP decode") }
        return data
    }
}
