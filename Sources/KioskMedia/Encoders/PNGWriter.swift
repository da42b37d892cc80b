internal import CFFmpeg
import Glibc
import KioskCore

/// Writes RGBA pictures as PNG through libavcodec's png encoder.
public enum PNGWriter {
    /// The PNG file bytes of `image` (RGBA, 8 bits a channel).
    public static func encode(_ image: RGBAImage) throws -> [UInt8] {
        try encode(image, name: "PNG encode")
    }

    /// Writes `image` as a PNG file at `path`.
    public static func write(_ image: RGBAImage, to path: String) throws {
        try writeFile(try encode(image, name: path), to: path, format: "PNG")
    }

    /// Writes encoded picture `bytes` (`format` names it in errors) to `path`, replacing what was there whole
    /// (`ReplacingFileWrite`: a temporary file renamed, beneath `--media-root` through its descriptor).
    static func writeFile(_ bytes: [UInt8], to path: String, format: String) throws {
        try ReplacingFileWrite.write(bytes, to: path, format: format)
    }

    private static func encode(_ image: RGBAImage, name: String) throws -> [UInt8] {
        _ = FFmpegLibrary.quiet
        func fail(_ why: String) -> MediaError { MediaError(path: name, reason: "PNG encoder: \(why)") }
        guard image.size.width > 0, image.size.height > 0 else { throw fail("empty picture") }
        let frame = try RGBAFrame(image, name: name)
        return try StillEncoder.encode(frame.frame, codec: AV_CODEC_ID_PNG, size: image.size, pixelFormat: AV_PIX_FMT_RGBA,
                                       fail: fail)
    }
}

/// One picture through a libavcodec image encoder (png, mjpeg): the packet's bytes.
enum StillEncoder {
    /// Encodes `frame` (of `size`, in `pixelFormat`) with the encoder `id`; `configure` sets the context before it
    /// opens (its quality goes onto the frame); errors are made by `fail`.
    static func encode(_ frame: UnsafeMutablePointer<AVFrame>, codec id: AVCodecID, size: PixelSize, pixelFormat: AVPixelFormat,
                       fail: (String) -> MediaError,
                       configure: (UnsafeMutablePointer<AVCodecContext>) -> Void = { _ in }) throws -> [UInt8] {
        guard let codec = avcodec_find_encoder(id) else { throw fail("no encoder") }
        guard let ctx = avcodec_alloc_context3(codec) else { throw fail("avcodec_alloc_context3 failed") }
        var c: UnsafeMutablePointer<AVCodecContext>? = ctx
        defer { avcodec_free_context(&c) }
        ctx.pointee.width = Int32(size.width)
        ctx.pointee.height = Int32(size.height)
        ctx.pointee.pix_fmt = pixelFormat
        ctx.pointee.time_base = AVRational(num: 1, den: 25)
        ctx.pointee.thread_count = 1
        configure(ctx)
        var rc = avcodec_open2(ctx, codec, nil)
        guard rc >= 0 else { throw fail("avcodec_open2: \(FFmpegLibrary.errorText(rc))") }
        frame.pointee.quality = ctx.pointee.global_quality
        frame.pointee.pts = 0
        guard let packet = av_packet_alloc() else { throw fail("av_packet_alloc failed") }
        var p: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&p) }
        rc = avcodec_send_frame(ctx, frame)
        guard rc >= 0 else { throw fail("avcodec_send_frame: \(FFmpegLibrary.errorText(rc))") }
        rc = avcodec_receive_packet(ctx, packet)
        guard rc >= 0, let data = packet.pointee.data else { throw fail("avcodec_receive_packet: \(FFmpegLibrary.errorText(rc))") }
        return [UInt8](UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
    }
}

/// An `AVFrame` owning a copy of an RGBA picture, for encoders.
final class RGBAFrame {
    /// The frame.
    let frame: UnsafeMutablePointer<AVFrame>

    /// Copies `image` into a new frame; `name` labels errors.
    init(_ image: RGBAImage, name: String) throws {
        guard let f = av_frame_alloc() else { throw MediaError(path: name, reason: "av_frame_alloc failed") }
        frame = f
        f.pointee.width = Int32(image.size.width)
        f.pointee.height = Int32(image.size.height)
        f.pointee.format = AV_PIX_FMT_RGBA.rawValue
        let rc = av_frame_get_buffer(f, 0)
        guard rc >= 0, let dst = f.pointee.data.0 else {
            throw MediaError(path: name, reason: "av_frame_get_buffer: \(FFmpegLibrary.errorText(rc))")
        }
        let stride = Int(f.pointee.linesize.0), row = image.size.width * 4
        image.pixels.withUnsafeBytes { src in
            guard let base = src.baseAddress else { return }
            for y in 0..<image.size.height {
                (dst + y * stride).update(from: (base + y * row).assumingMemoryBound(to: UInt8.self), count: row)
            }
        }
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&f)
    }
}
