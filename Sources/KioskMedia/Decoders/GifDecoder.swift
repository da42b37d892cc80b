internal import CGif
import Foundation
import KioskCore

/// GIF stills and animations through giflib, read record by record and composed into whole canvases.
///
/// Timing and looping follow what browsers and ffmpeg do:
/// - a frame's delay comes from its Graphic Control Extension (1/100 s); a delay under 2 cs counts as 10 cs;
/// - the NETSCAPE2.0 / ANIMEXTS1.0 application extension holds a repeat count N: N == 0 means play forever
///   (`loops` 0), any other N means the animation repeats N times after the first play (`loops` N + 1);
///   with no such extension the animation plays once (`loops` 1).
///
/// Composition: the canvas starts transparent; a transparent palette index leaves the canvas pixel as it
/// was; disposal 0/1 (and the reserved 4...7) keep the frame, 2 clears its rectangle to transparent, 3
/// restores the canvas from before that frame. Frames reaching outside the canvas are clipped; palette
/// indices past the colour map leave the pixel as it was. A file that ends without its trailer after a
/// complete frame is accepted, as browsers do; one that ends anywhere else is an error.
public enum GifDecoder {
    /// Largest canvas side accepted.
    public static let maxCanvasSide = 16384
    /// Largest total of frame pixels one pass over a file decodes (bounds the work, not the memory).
    public static let maxDecodedBytes = 1 << 30

    /// Whether the first bytes of a file are a GIF signature (`GIF87a` or `GIF89a`).
    public static func matches(header: [UInt8]) -> Bool {
        guard header.count >= 6 else { return false }
        return Array(header[0..<6]) == Array("GIF87a".utf8) || Array(header[0..<6]) == Array("GIF89a".utf8)
    }

    /// Reads the canvas size, frame count, delays and loop count without decoding pixels.
    public static func probe(path: String) throws -> MediaInfo {
        try GifReader.scan(path: path, limits: nil).info
    }

    /// Decodes a still, or opens an animation whose frames are composed on demand on their own thread and held
    /// in a window bounded by `limits.animationBytes`. Frames come at `targetSize(canvas)` (never larger than the
    /// canvas). The canvas is checked against `limits.maxPixels` from the header before any pixel is allocated.
    public static func decode(path: String, targetSize: (PixelSize) -> PixelSize = { $0 },
                              limits: DecodeLimits = .standard, timeout: Double = 20) throws -> DecodedItem {
        // A pass without pixels first: the limits then refuse a huge file before any canvas exists.
        let scan = try GifReader.scan(path: path, limits: limits)
        let info = scan.info
        let wanted = FFmpegImageDecoder.clamp(targetSize(info.size), to: info.size)
        if info.kind == .image {
            let reader = try GifReader(path: path, compose: true, limits: limits)
            guard let first = try reader.nextFrame() else { throw MediaError(path: path, reason: "corrupt GIF: no frames") }
            return DecodedItem(info: info, picture: .still(try MediaFile.scaled(first, to: wanted, path: path)))
        }
        try limits.checkAnimationCanvas(info.size, path: path)
        let frames = try AnimationFrames(path: path, durations: scan.delays, size: wanted,
                                         budgetBytes: limits.windowBytes(canvas: info.size, frame: wanted),
                                         timeout: timeout) {
            ScaledCursor(reader: try GifReader(path: path, compose: true, limits: limits), size: wanted, path: path)
        }
        return DecodedItem(info: info, picture: .animation(frames: frames, loops: info.loops))
    }

    /// Seconds a frame with a GCE delay of `centiseconds` stays on screen (under 2 cs counts as 10 cs).
    public static func frameDuration(centiseconds: Int) -> Double {
        Double(centiseconds < 2 ? 10 : centiseconds) / 100
    }

    /// Total plays for a NETSCAPE2.0 repeat count (nil when the file has no loop extension); 0 = forever.
    public static func plays(repeatCount: Int?) -> Int {
        guard let n = repeatCount else { return 1 }
        return n == 0 ? 0 : n + 1
    }
}

/// A GIF's frames one at a time as a cursor, each scaled to the display size.
private final class ScaledCursor: AnimationCursor {
    let reader: GifReader
    let size: PixelSize
    let path: String

    init(reader: GifReader, size: PixelSize, path: String) {
        self.reader = reader
        self.size = size
        self.path = path
    }

    func next() throws -> RGBAImage? {
        guard let frame = try reader.nextFrame() else { return nil }
        return try MediaFile.scaled(frame, to: size, path: path)
    }
}

/// One pass over a GIF's records: sizes, delays, loop count and, when asked, each composed frame in turn.
private final class GifReader {
    let path: String
    let gif: UnsafeMutablePointer<GifFileType>
    let compose: Bool
    var canvas = PixelSize(width: 0, height: 0)
    var delays: [Double] = []
    var repeatCount: Int?
    private var composer: GifComposer?
    private let limits: DecodeLimits?
    private var decodedPixels = 0
    private var ended = false

    var info: MediaInfo {
        let still = delays.count == 1
        return MediaInfo(path: path, kind: still ? .image : .animation, width: canvas.width,
                         height: canvas.height, frames: delays.count,
                         duration: still ? nil : delays.reduce(0, +),
                         loops: still ? 1 : GifDecoder.plays(repeatCount: repeatCount), orientation: 1)
    }

    /// Reads a whole file without composing (sizes, delays, loop count); checks every frame's data is there.
    static func scan(path: String, limits: DecodeLimits?) throws -> GifReader {
        let reader = try GifReader(path: path, compose: false, limits: limits)
        while try reader.nextFrame() != nil {}
        if reader.delays.isEmpty { throw MediaError(path: path, reason: "corrupt GIF: no frames") }
        return reader
    }

    /// Opens the file and reads its logical screen; `limits` (when given) are checked against it here.
    init(path: String, compose: Bool, limits: DecodeLimits?) throws {
        self.path = path
        self.compose = compose
        self.limits = limits
        try Self.checkFile(path)
        // opened through the one gate (regular files only; beneath --media-root through its descriptor); giflib
        // owns the descriptor from here, and closes it on failure too
        let fd = try LocalFile(path).openForReading()
        var openError: Int32 = 0
        guard let gif = DGifOpenFileHandle(fd, &openError) else {
            if openError == D_GIF_ERR_OPEN_FAILED {
                throw MediaError(path: path, reason: "cannot open GIF: \(String(cString: strerror(errno)))")
            }
            throw MediaError(path: path, reason: "truncated or corrupt GIF: \(Self.message(openError))")
        }
        self.gif = gif
        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        guard width > 0, height > 0 else {
            throw MediaError(path: path, reason: "corrupt GIF: canvas is \(width)x\(height)")
        }
        guard width <= GifDecoder.maxCanvasSide, height <= GifDecoder.maxCanvasSide else {
            throw MediaError(path: path, reason: "animation too large: GIF canvas \(width)x\(height)")
        }
        canvas = PixelSize(width: width, height: height)
        try limits?.checkPixels(canvas, path: path, what: "GIF canvas")
        if compose { composer = GifComposer(canvas: canvas) }
    }

    deinit {
        var closeError: Int32 = 0
        DGifCloseFile(gif, &closeError)
    }

    private static func checkFile(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileAccess.exists(path, isDirectory: &isDirectory) else {
            throw MediaError(path: path, reason: "cannot open GIF: no such file")
        }
        if isDirectory.boolValue { throw MediaError(path: path, reason: "cannot open GIF: is a directory") }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if size == 0 { throw MediaError(path: path, reason: "empty file") }
    }

    private static func message(_ code: Int32) -> String {
        guard let text = GifErrorString(code) else { return "giflib error \(code)" }
        return String(cString: text)
    }

    private func failure(_ gif: UnsafeMutablePointer<GifFileType>, _ what: String) -> MediaError {
        MediaError(path: path, reason: "truncated or corrupt GIF: \(what): \(Self.message(gif.pointee.Error))")
    }

    /// Reads records up to the end of the next frame: its composed canvas when composing (a blank one when
    /// not), nil at the end of the file.
    func nextFrame() throws -> RGBAImage? {
        guard !ended else { return nil }
        var control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0,
                                           TransparentColor: NO_TRANSPARENT_COLOR)
        while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) != GIF_ERROR else {
                // A missing trailer after a complete frame is common and harmless.
                if !delays.isEmpty, gif.pointee.Error == D_GIF_ERR_READ_FAILED { ended = true; return nil }
                throw failure(gif, "record \(delays.count + 1)")
            }
            if record == TERMINATE_RECORD_TYPE { ended = true; return nil }
            switch record {
            case EXTENSION_RECORD_TYPE:
                try readExtension(gif, control: &control)
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) != GIF_ERROR else { throw failure(gif, "frame \(delays.count + 1)") }
                let desc = gif.pointee.Image
                decodedPixels += Int(desc.Width) * Int(desc.Height)
                guard Int(desc.Width) <= GifDecoder.maxCanvasSide, Int(desc.Height) <= GifDecoder.maxCanvasSide,
                      decodedPixels <= GifDecoder.maxDecodedBytes else {
                    throw MediaError(path: path, reason: "animation too large: GIF of \(delays.count + 1) frames at \(canvas)")
                }
                if Int(desc.Width) > 0, Int(desc.Height) > 0 {
                    try limits?.checkPixels(PixelSize(width: Int(desc.Width), height: Int(desc.Height)), path: path,
                                            what: "GIF frame \(delays.count + 1)")
                }
                var frame = RGBAImage(size: PixelSize(width: 1, height: 1), fill: (0, 0, 0, 0))
                if compose {
                    let indices = try readIndices(gif, desc: desc)
                    let colours = palette(gif)
                    if let drawn = composer?.draw(indices: indices, desc: desc, palette: colours, control: control) {
                        frame = drawn
                    }
                } else {
                    try skipImageData(gif)
                }
                delays.append(GifDecoder.frameDuration(centiseconds: Int(control.DelayTime)))
                return frame
            default:
                throw MediaError(path: path, reason: "corrupt GIF: unknown record after frame \(delays.count)")
            }
        }
    }

    /// Reads one extension: keeps a Graphic Control Extension and a NETSCAPE/ANIMEXTS loop count.
    private func readExtension(_ gif: UnsafeMutablePointer<GifFileType>,
                                        control: inout GraphicsControlBlock) throws {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(gif, &code, &block) != GIF_ERROR else { throw failure(gif, "extension") }
        var isLoopApplication = false
        var first = true
        while let b = block {
            let length = Int(b[0])
            if code == GRAPHICS_EXT_FUNC_CODE, first {
                var parsed = GraphicsControlBlock()
                if DGifExtensionToGCB(length, b + 1, &parsed) != GIF_ERROR { control = parsed }
            } else if code == APPLICATION_EXT_FUNC_CODE, first, length == 11 {
                let id = String(decoding: UnsafeBufferPointer(start: b + 1, count: 11), as: UTF8.self)
                isLoopApplication = id == "NETSCAPE2.0" || id == "ANIMEXTS1.0"
            } else if isLoopApplication, length >= 3, b[1] == 1 {
                repeatCount = Int(b[2]) | Int(b[3]) << 8
            }
            first = false
            guard DGifGetExtensionNext(gif, &block) != GIF_ERROR else { throw failure(gif, "extension") }
        }
    }

    /// The frame's colour map (local, else global) as RGB triples.
    private func palette(_ gif: UnsafeMutablePointer<GifFileType>) -> [UInt8] {
        guard let map = gif.pointee.Image.ColorMap ?? gif.pointee.SColorMap, let colors = map.pointee.Colors else {
            return []
        }
        let count = max(0, min(256, Int(map.pointee.ColorCount)))
        var rgb = [UInt8]()
        rgb.reserveCapacity(count * 3)
        for i in 0..<count {
            rgb.append(colors[i].Red)
            rgb.append(colors[i].Green)
            rgb.append(colors[i].Blue)
        }
        return rgb
    }

    /// The frame's palette indices, rows top-down (interlaced rows put back in place).
    private func readIndices(_ gif: UnsafeMutablePointer<GifFileType>, desc: GifImageDesc) throws -> [UInt8] {
        let w = Int(desc.Width), h = Int(desc.Height)
        var indices = [UInt8](repeating: 0, count: w * h)
        guard w > 0, h > 0 else { return indices }
        let rows: [Int]
        if desc.Interlace {
            rows = Array(stride(from: 0, to: h, by: 8)) + Array(stride(from: 4, to: h, by: 8))
                + Array(stride(from: 2, to: h, by: 4)) + Array(stride(from: 1, to: h, by: 2))
        } else {
            rows = Array(0..<h)
        }
        let ok = indices.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            for y in rows where DGifGetLine(gif, base + y * w, Int32(w)) == GIF_ERROR { return false }
            return true
        }
        guard ok else { throw failure(gif, "frame \(delays.count + 1)") }
        return indices
    }

    /// Steps over a frame's compressed data without decoding it.
    private func skipImageData(_ gif: UnsafeMutablePointer<GifFileType>) throws {
        var codeSize: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetCode(gif, &codeSize, &block) != GIF_ERROR else { throw failure(gif, "frame \(delays.count + 1)") }
        while block != nil {
            guard DGifGetCodeNext(gif, &block) != GIF_ERROR else { throw failure(gif, "frame \(delays.count + 1)") }
        }
    }
}

/// The GIF canvas between frames, with the disposal the last frame asked for.
private struct GifComposer {
    let canvas: PixelSize
    var pixels: [UInt8]
    /// What the last frame asks to be done to it before the next is drawn.
    var pendingDisposal = 0
    var pendingRect = (x0: 0, y0: 0, x1: 0, y1: 0)
    var saved: [UInt8]?

    init(canvas: PixelSize) {
        self.canvas = canvas
        pixels = [UInt8](repeating: 0, count: canvas.width * canvas.height * 4)
    }

    /// Applies the previous frame's disposal, draws this frame and returns the composed canvas.
    mutating func draw(indices: [UInt8], desc: GifImageDesc, palette: [UInt8],
                       control: GraphicsControlBlock) -> RGBAImage {
        let cw = canvas.width
        switch pendingDisposal {
        case 2:
            let r = pendingRect
            for y in r.y0..<r.y1 {
                let row = (y * cw) * 4
                for i in (row + r.x0 * 4)..<(row + r.x1 * 4) { pixels[i] = 0 }
            }
        case 3:
            if let s = saved { pixels = s }
        default:
            break
        }
        let left = Int(desc.Left), top = Int(desc.Top), w = Int(desc.Width), h = Int(desc.Height)
        let x0 = max(0, left), y0 = max(0, top)
        let x1 = max(x0, min(cw, left + w)), y1 = max(y0, min(canvas.height, top + h))
        let disposal = Int(control.DisposalMode)
        saved = disposal == 3 ? pixels : nil
        let transparent = Int(control.TransparentColor)
        let colours = palette.count / 3
        indices.withUnsafeBufferPointer { src in
            palette.withUnsafeBufferPointer { pal in
                pixels.withUnsafeMutableBufferPointer { dst in
                    for y in y0..<y1 {
                        let srcRow = (y - top) * w - left
                        let dstRow = y * cw
                        for x in x0..<x1 {
                            let index = Int(src[srcRow + x])
                            if index == transparent || index >= colours { continue }
                            let d = (dstRow + x) * 4
                            dst[d] = pal[index * 3]
                            dst[d + 1] = pal[index * 3 + 1]
                            dst[d + 2] = pal[index * 3 + 2]
                            dst[d + 3] = 255
                        }
                    }
                }
            }
        }
        pendingDisposal = disposal
        pendingRect = (x0, y0, x1, y1)
        return RGBAImage(size: canvas, pixels: pixels)
    }
}
