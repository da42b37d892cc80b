internal import CFFmpeg
import Foundation
import KioskCore

/// One swscale conversion from any ffmpeg pixel format to tightly packed RGBA of a chosen size.
enum PixelConversion {
    /// The swscale filter for a resize: area averaging for downscales of 2× or more in both axes, else bicubic.
    static func flags(from src: PixelSize, to dst: PixelSize) -> Int32 {
        if src.width >= 2 * dst.width && src.height >= 2 * dst.height { return Int32(SWS_AREA) }
        return Int32(SWS_BICUBIC)
    }

    /// Converts planes of `format` and `size` to RGBA of `target` size, with the swscale filter `filter` (nil:
    /// `flags(from:to:)`'s choice) and, for YUV, the matrix and range `colour` (nil: swscale's default, BT.601).
    static func toRGBA(path: String, planes: [UnsafePointer<UInt8>?], strides: [Int32], size: PixelSize,
                       format: AVPixelFormat, target: PixelSize, filter: Int32? = nil,
                       colour: (matrix: ColorMatrix, range: ColorRange)? = nil) throws -> RGBAImage {
        guard let src = av_frame_alloc() else { throw MediaError(path: path, reason: "av_frame_alloc failed") }
        var srcFrame: UnsafeMutablePointer<AVFrame>? = src
        defer { av_frame_free(&srcFrame) }
        src.pointee.format = format.rawValue
        src.pointee.width = Int32(size.width)
        src.pointee.height = Int32(size.height)
        func plane(_ i: Int) -> UnsafeMutablePointer<UInt8>? { i < planes.count ? planes[i].map { UnsafeMutablePointer(mutating: $0) } : nil }
        func stride(_ i: Int) -> Int32 { i < strides.count ? strides[i] : 0 }
        src.pointee.data = (plane(0), plane(1), plane(2), plane(3), nil, nil, nil, nil)
        src.pointee.linesize = (stride(0), stride(1), stride(2), stride(3), 0, 0, 0, 0)
        return try convert(path: path, source: src, target: target, filter: filter, colour: colour)
    }

    /// Converts `source` (any format swscale reads) to RGBA of `target` size, with the swscale filter `filter`
    /// (nil: `flags(from:to:)`'s choice) and, for YUV, the matrix and range `colour` (nil: swscale's default).
    static func convert(path: String, source: UnsafeMutablePointer<AVFrame>, target: PixelSize,
                        filter: Int32? = nil, colour: (matrix: ColorMatrix, range: ColorRange)? = nil) throws -> RGBAImage {
        let size = PixelSize(width: Int(source.pointee.width), height: Int(source.pointee.height))
        let format = AVPixelFormat(rawValue: source.pointee.format)
        guard size.width > 0, size.height > 0, target.width > 0, target.height > 0 else {
            throw MediaError(path: path, reason: "empty picture (\(size) to \(target))")
        }
        guard sws_isSupportedInput(format) > 0 else {
            let name = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "\(format.rawValue)"
            throw MediaError(path: path, reason: "unsupported pixel format \(name)")
        }
        guard let sws = sws_alloc_context() else { throw MediaError(path: path, reason: "sws_alloc_context failed") }
        var ctx: OpaquePointer? = sws
        defer { sws_freeContext(ctx) }
        let raw = UnsafeMutableRawPointer(sws)
        av_opt_set_int(raw, "srcw", Int64(size.width), 0)
        av_opt_set_int(raw, "srch", Int64(size.height), 0)
        av_opt_set_int(raw, "src_format", Int64(format.rawValue), 0)
        av_opt_set_int(raw, "dstw", Int64(target.width), 0)
        av_opt_set_int(raw, "dsth", Int64(target.height), 0)
        av_opt_set_int(raw, "dst_format", Int64(AV_PIX_FMT_RGBA.rawValue), 0)
        av_opt_set_int(raw, "sws_flags", Int64(filter ?? flags(from: size, to: target)), 0)
        // One thread: swscale's slice threads (FFmpeg 5.1) race at the rows where slices meet; two pixels of a
        // 960x540 snapshot came out different from one run to the next. A picture decodes the same every time.
        av_opt_set_int(raw, "threads", 1, 0)
        let rc = sws_init_context(sws, nil, nil)
        guard rc >= 0 else {
            ctx = nil
            sws_freeContext(sws)
            throw MediaError(path: path, reason: "sws_init_context failed for \(size) to \(target): \(FFmpegLibrary.errorText(rc))")
        }
        if let colour { setColour(sws, colour) }
        guard let dstFrame = av_frame_alloc() else { throw MediaError(path: path, reason: "av_frame_alloc failed") }
        var outFrame: UnsafeMutablePointer<AVFrame>? = dstFrame
        defer { av_frame_free(&outFrame) }
        // swscale writes straight into the returned array's storage: no second target-size buffer.
        let byteCount = target.width * target.height * 4
        var failure: Int32 = 0
        let out = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress,
                  let ref = av_buffer_create(base, byteCount, { _, _ in }, nil, 0) else { failure = -1; return }
            dstFrame.pointee.buf.0 = ref  // freed with the frame; the no-op callback leaves the array's memory alone
            dstFrame.pointee.data.0 = base
            dstFrame.pointee.linesize.0 = Int32(target.width * 4)
            dstFrame.pointee.format = AV_PIX_FMT_RGBA.rawValue
            dstFrame.pointee.width = Int32(target.width)
            dstFrame.pointee.height = Int32(target.height)
            let scaled = sws_scale_frame(sws, dstFrame, source)
            if scaled < 0 { failure = scaled; return }
            initialized = byteCount
        }
        guard failure == 0, out.count == byteCount else {
            throw MediaError(path: path, reason: "sws_scale_frame failed: \(FFmpegLibrary.errorText(failure))")
        }
        return RGBAImage(size: target, pixels: out)
    }

    /// Tells `sws` which YUV matrix and range its source uses (the RGB side is full range).
    static func setColour(_ sws: OpaquePointer, _ colour: (matrix: ColorMatrix, range: ColorRange)) {
        let space: Int32
        switch colour.matrix {
        case .bt601: space = SWS_CS_ITU601
        case .bt709: space = SWS_CS_ITU709
        case .bt2020: space = SWS_CS_BT2020
        }
        guard let table = sws_getCoefficients(space) else { return }
        _ = sws_setColorspaceDetails(sws, table, colour.range == .full ? 1 : 0, table, 1, 0, 1 << 16, 1 << 16)
    }

    /// Converts a decoded frame to RGBA of `target` size.
    static func toRGBA(path: String, frame: UnsafeMutablePointer<AVFrame>, target: PixelSize) throws -> RGBAImage {
        try convert(path: path, source: frame, target: target)
    }
}
