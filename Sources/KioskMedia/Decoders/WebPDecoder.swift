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
    /// Most frames an animation may have; more is treated as a corrupt file.
    public static let maxFrames = 100_000
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
                repeat { durations.append(frameDuration(milliseconds: Int(truncatingIfNeeded: iter.duration))) } while WebPDemuxNextFrame(&iter) != 0
                WebPDemuxReleaseIterator(&iter)
            }
            return info(path: path, width: width, height: height, durations: durations, loopCount: loopCount)
        }
    }

    /// Decodes a still, or opens an animation whose frames are composed on demand on their own thread and held
    /// in a window bounded by `limits.animationBytes`. Frames come at `targetSize(canvas)` (never larger than the
    /// canvas). The canvas in the container's header is checked against `limits.maxPixels` before libwebp
    /// allocates it.
    public static func decode(path: String, targetSize: (PixelSize) -> PixelSize = { $0 },
                              limits: DecodeLimits = .standard, timeout: Double = 20) throws -> DecodedItem {
        let info = try probe(path: path)
        try limits.checkPixels(info.size, path: path, what: "WebP canvas")
        let wanted = FFmpegImageDecoder.clamp(targetSize(info.size), to: info.size)
        if info.kind == .image {
            let cursor = try WebPCursor(path: path, size: wanted)
            guard let first = try cursor.next() else { throw MediaError(path: path, reason: "corrupt WebP: no frames") }
            return DecodedItem(info: info, picture: .still(first))
        }
        try limits.checkAnimationCanvas(info.size, path: path)
        let durations = try probeDurations(path: path)
        let frames = try AnimationFrames(path: path, durations: durations, size: wanted,
                                         budgetBytes: limits.windowBytes(canvas: info.size, frame: wanted),
                                         timeout: timeout) { try WebPCursor(path: path, size: wanted) }
        return DecodedItem(info: info, picture: .animation(frames: frames, loops: info.loops))
    }

    /// Each frame's seconds, from the container.
    private static func probeDurations(path: String) throws -> [Double] {
        let data = try readFile(path)
        return try data.withUnsafeBytes { raw -> [Double] in
            var webp = WebPData(bytes: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), size: raw.count)
            guard let demux = WebPDemux(&webp) else {
                throw MediaError(path: path, reason: "truncated or corrupt WebP: container does not parse")
            }
            defer { WebPDemuxDelete(demux) }
            var durations: [Double] = []
            var iter = WebPIterator()
            if WebPDemuxGetFrame(demux, 1, &iter) != 0 {
                repeat { durations.append(frameDuration(milliseconds: Int(truncatingIfNeeded: iter.duration))) } while WebPDemuxNextFrame(&iter) != 0
                WebPDemuxReleaseIterator(&iter)
            }
            return durations
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
        guard width <= maxCanvasSide, height <= maxCanvasSide, frames <= maxFrames else {
            throw MediaError(path: path, reason: "animation too large: WebP of \(frames) frames at \(width)x\(height)")
        }
    }

    static func readFile(_ path: String) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileAccess.exists(path, isDirectory: &isDirectory) else {
            throw MediaError(path: path, reason: "cannot open WebP: no such file")
        }
        if isDirectory.boolValue { throw MediaError(path: path, reason: "cannot open WebP: is a directory") }
        // the one gate: regular files only, and beneath --media-root through the root's descriptor
        let handle = FileHandle(fileDescriptor: try LocalFile(path).openForReading(), closeOnDealloc: true)
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

/// One pass over a WebP's frames through libwebp's animation decoder, each frame scaled to the display size. It
/// owns a copy of the file's bytes, which the decoder reads from while it lives.
final class WebPCursor: AnimationCursor {
    private let path: String
    private let size: PixelSize
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private let decoder: OpaquePointer
    private let canvas: PixelSize
    private var index = 0

    init(path: String, size: PixelSize) throws {
        self.path = path
        self.size = size
        let data = try WebPDecoder.readFile(path)
        bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: data.count)
        _ = bytes.initialize(from: data)
        var webp = WebPData(bytes: UnsafePointer(bytes.baseAddress), size: bytes.count)
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            bytes.deallocate()
            throw MediaError(path: path, reason: "WebPAnimDecoderOptionsInit failed: libwebp version mismatch")
        }
        options.color_mode = MODE_RGBA
        options.use_threads = 1
        guard let decoder = WebPAnimDecoderNew(&webp, &options) else {
            bytes.deallocate()
            throw MediaError(path: path, reason: "truncated or corrupt WebP: WebPAnimDecoderNew failed")
        }
        self.decoder = decoder
        var anim = WebPAnimInfo()
        _ = WebPAnimDecoderGetInfo(decoder, &anim)
        canvas = PixelSize(width: Int(anim.canvas_width), height: Int(anim.canvas_height))
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        bytes.deallocate()
    }

    func next() throws -> RGBAImage? {
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var buffer: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        index += 1
        guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else {
            throw MediaError(path: path, reason: "corrupt WebP: frame \(index) does not decode")
        }
        let image = RGBAImage(size: canvas, pixels: Array(UnsafeBufferPointer(start: buffer, count: canvas.width * canvas.height * 4)))
        return try MediaFile.scaled(image, to: size, path: path)
    }
}
