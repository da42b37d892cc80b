internal import CKioskPNGShim
@preconcurrency import Glibc
import KioskCore

/// A PNG still asked for smaller than it is (a thumbnail, a picture larger than the screen): libpng reads it a row
/// at a time through the setjmp shim (CKioskPNGShim), every row made RGBA8, and each band of rows goes straight
/// into an `AreaDownscaler` to the target size, so only the output and a band of rows are held, never the picture
/// (an 8000×8000 PNG whole is 183–244 MiB as ffmpeg's decoder holds it). What it does not take stays on the whole
/// decode through ffmpeg: APNG (an `acTL` chunk), interlaced (Adam7) PNGs, whose rows are not complete until the
/// last pass, and a PNG wanted at its full size.
enum StreamedPNGDecoder {
    /// Rows read from libpng at a time.
    static let bandRows = 16
    /// The label in error messages, as ffmpeg's path says it.
    static let what = "truncated or corrupt PNG"

    /// A still PNG's header: its size and whether it is interlaced.
    struct Header: Equatable {
        /// The IHDR's width and height.
        let size: PixelSize
        /// Whether the IHDR names Adam7 interlacing.
        let interlaced: Bool
    }

    /// The IHDR of a PNG that is not an APNG (no `acTL` before its image data), from the file's first bytes; nil
    /// for other files.
    static func header(_ head: [UInt8]) -> Header? {
        guard head.count >= 29, let size = PNGChunks.headerSize(head), PNGChunks.animationPlays(head) == nil else { return nil }
        return Header(size: size, interlaced: head[28] != 0)
    }

    /// Decodes the file at `path` scaled to `targetSize(full size)` when it is a still, non-interlaced PNG wanted
    /// smaller than it is; nil otherwise (the caller decodes it whole). The IHDR's size is checked against
    /// `limits` and the file's end (`TruncationCheck`) before anything is decoded. Throws a MediaError naming the
    /// file and libpng's reason when the file is damaged.
    static func decode(path: String, limits: DecodeLimits, targetSize: (PixelSize) -> PixelSize) throws -> DecodedItem? {
        guard let header = try stillHeader(path: path) else { return nil }
        try limits.checkPixels(header.size, path: path, what: "PNG")
        let wanted = FFmpegImageDecoder.clamp(targetSize(header.size), to: header.size)
        guard !header.interlaced, wanted != header.size else { return nil }
        let image = try rows(path: path, size: header.size, target: wanted, timeLimit: FFmpegImageDecoder.timeLimit)
        return DecodedItem(info: info(path: path, size: header.size), picture: .still(image))
    }

    /// Describes a still PNG from its chunks up to the image data, read by libpng (a damaged signature, IHDR or
    /// chunk before the image data is refused here), without decoding it: ffmpeg's probe decodes a PNG whole to
    /// learn its pixel format, 243 MiB of peak memory for an 8000×8000 one. Nil for files that are not still PNGs.
    static func probe(path: String, limits: DecodeLimits?) throws -> MediaInfo? {
        guard let header = try stillHeader(path: path) else { return nil }
        if let limits { try limits.checkPixels(header.size, path: path, what: "picture") }
        let png = try open(path)
        defer { kiosk_png_destroy(png) }
        try readHeader(png, path: path, size: header.size, rowByRow: false)
        return info(path: path, size: header.size)
    }

    /// What a probe says of a still PNG of `size` (as ffmpeg's probe said it).
    private static func info(path: String, size: PixelSize) -> MediaInfo {
        MediaInfo(path: path, kind: .image, width: size.width, height: size.height, frames: 1, duration: nil, loops: 1,
                  orientation: 1)
    }

    /// The header of the file at `path` when it is a still PNG (nil otherwise), after checking that its end is
    /// there (`TruncationCheck`, as ffmpeg's path does).
    private static func stillHeader(path: String) throws -> Header? {
        let fileSize = try FileBytes.size(path)
        if fileSize == 0 { throw MediaError(path: path, reason: "empty file") }
        let head = try FileBytes.read(path, count: min(fileSize, FFmpegImageDecoder.headBytes))
        guard let header = header(head) else { return nil }
        let tail = fileSize <= head.count ? head
            : try FileBytes.read(path, offset: fileSize - TruncationCheck.tailBytes, count: TruncationCheck.tailBytes)
        try TruncationCheck.check(path: path, head: head, tail: tail, fileSize: fileSize, jpeg: nil)
        return header
    }

    /// A libpng reader of `path` (freed by `kiosk_png_destroy`).
    private static func open(_ path: String) throws -> OpaquePointer {
        guard let png = kiosk_png_create(try LocalFile(path).openForReading()) else {
            throw MediaError(path: path, reason: "libpng: cannot create a reader (out of memory)")
        }
        return png
    }

    /// The reason libpng gave, as a MediaError naming the file.
    private static func refusal(_ png: OpaquePointer, path: String) -> MediaError {
        MediaError(path: path, reason: "\(what): libpng: \(String(cString: kiosk_png_message(png)))")
    }

    /// Reads the chunks before the image data and sets the RGBA8 transforms; throws unless libpng finds the picture
    /// the IHDR said (`size`), and, with `rowByRow`, not interlaced.
    private static func readHeader(_ png: OpaquePointer, path: String, size: PixelSize, rowByRow: Bool) throws {
        var width: UInt32 = 0, height: UInt32 = 0, interlaced: Int32 = 0
        guard kiosk_png_read_header(png, &width, &height, &interlaced) == 0 else { throw refusal(png, path: path) }
        guard Int(width) == size.width, Int(height) == size.height, !rowByRow || interlaced == 0 else {
            throw MediaError(path: path, reason: "\(what): libpng reads a \(width)x\(height) picture, the IHDR says \(size)")
        }
    }

    /// Reads the PNG at `path`, whose IHDR says `size`, a band of rows at a time into an area downscale to `target`
    /// (alpha kept). Throws a MediaError naming the file when libpng refuses it, it is interlaced after all, its
    /// size is not the IHDR's, or decoding runs past `timeLimit` seconds.
    static func rows(path: String, size: PixelSize, target: PixelSize, timeLimit: Double) throws -> RGBAImage {
        let deadline = MonotonicClock.seconds() + timeLimit
        let png = try open(path)
        defer { kiosk_png_destroy(png) }
        try readHeader(png, path: path, size: size, rowByRow: true)
        var scaler = AreaDownscaler(source: size, target: target, alpha: true)
        let stride = size.width * 4
        var band = [UInt8](repeating: 0, count: Self.bandRows * stride)
        while !scaler.isComplete {
            let got = band.withUnsafeMutableBufferPointer { buf -> Int32 in
                guard let base = buf.baseAddress else { return -1 }
                return kiosk_png_read_rows(png, base, stride, UInt32(Self.bandRows))
            }
            if got < 0 { throw refusal(png, path: path) }
            if got == 0 { throw MediaError(path: path, reason: "\(what): the picture ended before its \(size.height) rows") }
            band.withUnsafeBufferPointer { buf in
                if let base = buf.baseAddress { scaler.add(base, rows: Int(got), stride: stride) }
            }
            if MonotonicClock.seconds() > deadline {
                throw MediaError(path: path, reason: "\(what): decoding took too long")
            }
        }
        return RGBAImage(size: target, pixels: scaler.pixels)
    }
}
