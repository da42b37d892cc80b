internal import CFFmpeg
import Foundation
import KioskCore

/// Turns a clip's decoded YUV frames into RGBA on the decoder's thread, with one swscale context kept while the
/// frames stay alike (format, size, colour, siting). Used where the renderer is a software rasterizer: there,
/// sampling three planes and converting in the shader costs about 2.4× a plain RGBA pass on every canvas pixel,
/// while swscale converts at the frame's own size, off the render thread.
///
/// The conversion is the one the render tests take as their reference: `accurate_rnd+full_chroma_int` with the
/// stream's matrix, range and chroma siting, bilinear at the frame's size, an exact area filter when the frame is
/// shrunk to the size it is drawn at (`limit`). Square pixels come out (the sample aspect is applied).
final class VideoFrameConverter {
    private var context: OpaquePointer?
    private var key: Key?
    private let path: String
    /// Where the RGBA frames' storage comes from and goes back to (`VideoDecoder.recycle`).
    let pool = FrameBufferPool()

    /// What the context was made for.
    private struct Key: Equatable {
        var format: Int32
        var size: PixelSize
        var target: PixelSize
        var matrix: ColorMatrix
        var range: ColorRange
        var siting: ChromaSiting
    }

    /// A converter for the frames of `path` (named in errors).
    init(path: String) { self.path = path }

    deinit { sws_freeContext(context) }

    /// The RGBA size for a frame stored at `size` with `sampleAspect`, shrunk (never grown) to fit `limit`, which
    /// is given as displayed (`orientation` turns it back to stored axes).
    static func targetSize(stored size: PixelSize, sampleAspect: Double, orientation: Orientation,
                           limit: PixelSize?) -> PixelSize {
        let square = PixelSize(width: max(1, Int(saturating: Double(size.width) * sampleAspect)), height: size.height)
        guard let shown = limit, shown.width > 0, shown.height > 0 else { return square }
        let stored = orientation.swapsAxes ? shown.transposed : shown
        let scale = min(1, Double(stored.width) / Double(square.width), Double(stored.height) / Double(square.height))
        guard scale < 1 else { return square }
        return PixelSize(width: max(1, Int(saturating: Double(square.width) * scale)),
                         height: max(1, Int(saturating: Double(square.height) * scale)))
    }

    /// A decoded frame's planes as one RGBA plane of `target` size (stride `width * 4`), its rows stored
    /// bottom-up when `rowsBottomUp` (GL's row order: see `VideoStreamReader.rgbaRows`).
    func convert(_ frame: UnsafeMutablePointer<AVFrame>, matrix: ColorMatrix, range: ColorRange, siting: ChromaSiting,
                 target: PixelSize, rowsBottomUp: Bool) throws -> VideoPlane {
        let f = frame.pointee
        let data: [UnsafePointer<UInt8>?] = [UnsafePointer(f.data.0), UnsafePointer(f.data.1), UnsafePointer(f.data.2),
                                             UnsafePointer(f.data.3)]
        return try convert(data: data, strides: [f.linesize.0, f.linesize.1, f.linesize.2, f.linesize.3], format: f.format,
                           size: PixelSize(width: Int(f.width), height: Int(f.height)),
                           key: (matrix, range, siting), target: target, rowsBottomUp: rowsBottomUp)
    }

    /// A frame already copied out of the decoder (held through a seek) as one RGBA plane of `target` size, rows
    /// bottom-up when `rowsBottomUp`.
    func convert(_ frame: VideoFrame, target: PixelSize, rowsBottomUp: Bool) throws -> VideoPlane {
        // swscale reads four plane pointers and strides: the ones a layout lacks are nil and 0.
        let strides = Array((frame.planes.map { Int32($0.stride) } + [0, 0, 0, 0]).prefix(4))
        return try ClipStill.withPlanes(frame.planes) { pointers in
            try convert(data: Array((pointers + [nil, nil, nil, nil]).prefix(4)), strides: strides,
                        format: frame.layout.ffmpegFormat.rawValue, size: frame.size,
                        key: (frame.matrix, frame.range, frame.siting), target: target,
                        rowsBottomUp: rowsBottomUp)
        }
    }

    /// Planes at `data` (rows `strides` apart) of `format` and `size` as one RGBA plane of `target` size; with
    /// `rowsBottomUp` swscale writes the last row first (a negative destination stride), at no cost.
    private func convert(data: [UnsafePointer<UInt8>?], strides: [Int32], format: Int32, size: PixelSize,
                         key colour: (matrix: ColorMatrix, range: ColorRange, siting: ChromaSiting),
                         target: PixelSize, rowsBottomUp: Bool) throws -> VideoPlane {
        guard data.count == 4, strides.count == 4 else {
            throw MediaError(path: path, reason: "swscale needs four plane pointers, got \(data.count)")
        }
        guard size.width > 0, size.height > 0, target.width > 0, target.height > 0 else {
            throw MediaError(path: path, reason: "empty video frame (\(size) to \(target))")
        }
        let sws = try context(for: Key(format: format, size: size, target: target, matrix: colour.matrix,
                                       range: colour.range, siting: colour.siting))
        let byteCount = target.width * target.height * 4
        var rows: Int32 = 0
        // swscale writes straight into the plane's storage (reused from the pool): the frame's only copy here.
        var bytes = pool.take(count: byteCount)
        bytes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let rowBytes = target.width * 4
            let first = rowsBottomUp ? base + (target.height - 1) * rowBytes : base
            let dst: [UnsafeMutablePointer<UInt8>?] = [first, nil, nil, nil]
            let dstStride: [Int32] = [Int32(rowsBottomUp ? -rowBytes : rowBytes), 0, 0, 0]
            rows = sws_scale(sws, data, strides, 0, Int32(size.height), dst, dstStride)
        }
        guard rows > 0, bytes.count == byteCount else {
            throw MediaError(path: path, reason: "sws_scale failed for \(size) to \(target): \(FFmpegLibrary.errorText(rows))")
        }
        return VideoPlane(bytes: bytes, stride: target.width * 4, rows: target.height)
    }

    /// The context for `key`, made again only when it changed.
    private func context(for key: Key) throws -> OpaquePointer {
        if let context, self.key == key { return context }
        sws_freeContext(context)
        context = nil
        self.key = nil
        guard let sws = sws_alloc_context() else { throw MediaError(path: path, reason: "sws_alloc_context failed") }
        let raw = UnsafeMutableRawPointer(sws)
        let shrinks = key.target.width * 2 <= key.size.width && key.target.height * 2 <= key.size.height
        let filter = (shrinks ? SWS_AREA : SWS_BILINEAR) | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT
        av_opt_set_int(raw, "srcw", Int64(key.size.width), 0)
        av_opt_set_int(raw, "srch", Int64(key.size.height), 0)
        av_opt_set_int(raw, "src_format", Int64(key.format), 0)
        av_opt_set_int(raw, "dstw", Int64(key.target.width), 0)
        av_opt_set_int(raw, "dsth", Int64(key.target.height), 0)
        av_opt_set_int(raw, "dst_format", Int64(AV_PIX_FMT_RGBA.rawValue), 0)
        av_opt_set_int(raw, "sws_flags", Int64(filter), 0)
        // Where chroma sits, in 1/256 of a luma sample: left-sited (MPEG-2, H.264) or between the luma samples.
        av_opt_set_int(raw, "src_h_chr_pos", key.siting == .left ? 0 : 128, 0)
        av_opt_set_int(raw, "src_v_chr_pos", 128, 0)
        // One thread: swscale's slice threads (FFmpeg 5.1) race where slices meet (see PixelConversion).
        av_opt_set_int(raw, "threads", 1, 0)
        let rc = sws_init_context(sws, nil, nil)
        guard rc >= 0 else {
            var failed: OpaquePointer? = sws
            sws_freeContext(failed)
            failed = nil
            throw MediaError(path: path, reason: "sws_init_context failed for \(key.size) to \(key.target): \(FFmpegLibrary.errorText(rc))")
        }
        let rgbSource = av_pix_fmt_desc_get(AVPixelFormat(rawValue: key.format))
            .map { $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 } ?? false
        if !rgbSource { PixelConversion.setColour(sws, (matrix: key.matrix, range: key.range)) }
        context = sws
        self.key = key
        return sws
    }
}

extension VideoPixelLayout {
    /// ffmpeg's pixel format for planes laid out so.
    var ffmpegFormat: AVPixelFormat {
        switch self {
        case .yuv420p: return AV_PIX_FMT_YUV420P
        case .yuv422p: return AV_PIX_FMT_YUV422P
        case .yuv444p: return AV_PIX_FMT_YUV444P
        case .nv12: return AV_PIX_FMT_NV12
        case .yuv420p10: return AV_PIX_FMT_YUV420P10LE
        case .p010: return AV_PIX_FMT_P010LE
        case .rgba: return AV_PIX_FMT_RGBA
        }
    }
}
