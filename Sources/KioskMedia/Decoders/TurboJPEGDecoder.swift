internal import CJPEG
internal import CKioskJPEGShim
@preconcurrency import Glibc
import KioskCore

/// One JPEG still through libjpeg-turbo: DCT-scaled by 1/1, 1/2, 1/4 or 1/8 to the smallest size not below the
/// target, read in bands of `bandRows` rows and streamed through an `AreaDownscaler` to the exact target, so neither
/// the full-size nor the DCT-scaled picture is ever held. libjpeg's fatal errors come back through the setjmp shim
/// (CKioskJPEGShim) as a `Refusal`, after which the caller may try ffmpeg's decoder.
final class TurboJPEGDecoder {
    /// Rows read from libjpeg at a time.
    static let bandRows = 16

    /// libjpeg refused the file (arithmetic coding it lacks, lossless or 12-bit JPEG, corrupt data): its message.
    struct Refusal: Error, CustomStringConvertible {
        /// libjpeg's text ("Unsupported JPEG process: SOF type 0xc3").
        let reason: String
        var description: String { reason }
    }

    /// The file, as the user named it.
    let path: String
    /// The stored size its frame header gave (`JPEGStructure`), which `DecodeLimits` were checked against.
    let stored: PixelSize
    /// The stored-orientation size to produce.
    let target: PixelSize
    /// The DCT scale's denominator used by the last decode (1, 2, 4 or 8).
    private(set) var denominator = 1
    /// The DCT-scaled size libjpeg produced in the last decode.
    private(set) var scaledSize = PixelSize(width: 0, height: 0)
    /// Bytes of working memory the last decode held besides the output: the band of rows and the downscaler's
    /// accumulators (libjpeg's own buffers not counted).
    private(set) var streamingBytes = 0

    /// A decoder of `path`, whose header says `stored`, to `target` (stored orientation, at most `stored`).
    init(path: String, stored: PixelSize, target: PixelSize) {
        self.path = path
        self.stored = stored
        self.target = target
    }

    /// The largest DCT reduction 1/d (d in 1, 2, 4, 8) whose output, ceil(size / d) as libjpeg rounds, is at least
    /// `target` in both axes.
    static func scaleDenominator(stored: PixelSize, target: PixelSize) -> Int {
        func scaled(_ n: Int, _ d: Int) -> Int { (n + d - 1) / d }
        var d = 1
        while d < 8 && scaled(stored.width, d * 2) >= target.width && scaled(stored.height, d * 2) >= target.height { d *= 2 }
        return d
    }

    /// Decodes the picture to `target`, RGBA, in stored orientation. Throws `Refusal` when libjpeg cannot decode
    /// the file, and a MediaError naming it when the file cannot be opened or decoding runs past `timeLimit` seconds.
    func decode(timeLimit: Double) throws -> RGBAImage {
        let deadline = MonotonicClock.seconds() + timeLimit
        guard let jpeg = kiosk_jpeg_create(try LocalFile(path).openForReading()) else {
            throw MediaError(path: path, reason: "libjpeg: cannot create a decompressor (out of memory)")
        }
        defer { kiosk_jpeg_destroy(jpeg) }
        func refusal() -> Refusal { Refusal(reason: String(cString: kiosk_jpeg_message(jpeg))) }
        guard kiosk_jpeg_read_header(jpeg) == 0 else { throw refusal() }
        let info = kiosk_jpeg_decompressor(jpeg).assumingMemoryBound(to: jpeg_decompress_struct.self)
        let size = PixelSize(width: Int(info.pointee.image_width), height: Int(info.pointee.image_height))
        // The limits were checked against the header read in Swift: libjpeg must be decoding that picture.
        guard size == stored else { throw Refusal(reason: "libjpeg reads a \(size) picture, the frame header says \(stored)") }
        denominator = Self.scaleDenominator(stored: stored, target: target)
        info.pointee.scale_num = 1
        info.pointee.scale_denom = UInt32(denominator)
        let ink = info.pointee.jpeg_color_space == JCS_CMYK || info.pointee.jpeg_color_space == JCS_YCCK
        info.pointee.out_color_space = ink ? JCS_CMYK : JCS_EXT_RGBA
        guard kiosk_jpeg_start(jpeg) == 0 else { throw refusal() }
        scaledSize = PixelSize(width: Int(info.pointee.output_width), height: Int(info.pointee.output_height))
        guard info.pointee.output_components == 4, target.width <= scaledSize.width, target.height <= scaledSize.height else {
            throw Refusal(reason: "unexpected output: \(info.pointee.output_components) components, \(scaledSize) for \(target)")
        }
        let inverted = info.pointee.saw_Adobe_marker != 0
        var scaler = AreaDownscaler(source: scaledSize, target: target)
        let stride = scaledSize.width * 4
        var band = [UInt8](repeating: 0, count: Self.bandRows * stride)
        streamingBytes = band.count + scaler.workingBytes
        while !scaler.isComplete {
            let rows = band.withUnsafeMutableBufferPointer { buf -> Int32 in
                guard let base = buf.baseAddress else { return -1 }
                let n = kiosk_jpeg_read_rows(jpeg, base, stride, UInt32(Self.bandRows))
                if n > 0 && ink { Self.inkToRGBA(base, count: Int(n) * scaledSize.width, inverted: inverted) }
                return n
            }
            if rows < 0 { throw refusal() }
            if rows == 0 { throw Refusal(reason: "the picture ended after \(scaledSize.height) rows were expected") }
            band.withUnsafeBufferPointer { buf in
                if let base = buf.baseAddress { scaler.add(base, rows: Int(rows), stride: stride) }
            }
            if MonotonicClock.seconds() > deadline {
                throw MediaError(path: path, reason: "truncated or corrupt JPEG: decoding took too long")
            }
        }
        return RGBAImage(size: target, pixels: scaler.pixels)
    }

    /// CMYK pixels to RGBA in place. Adobe's files (an APP14 marker) store the inks inverted, 255 meaning none, so
    /// red is c * k / 255; other CMYK files store them plainly: red is (255 - c) * (255 - k) / 255.
    private static func inkToRGBA(_ p: UnsafeMutablePointer<UInt8>, count: Int, inverted: Bool) {
        for i in 0..<count {
            let q = p + i * 4
            var c = Int(q[0]), m = Int(q[1]), y = Int(q[2]), k = Int(q[3])
            if !inverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
            q[0] = UInt8((c * k + 127) / 255)
            q[1] = UInt8((m * k + 127) / 255)
            q[2] = UInt8((y * k + 127) / 255)
            q[3] = 255
        }
    }
}
