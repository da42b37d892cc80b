import CFFmpeg
import KioskCore

/// One swscale conversion from any ffmpeg pixel format to tightly packed RGBA of a chosen size.
enum PixelConversion {
    /// The swscale filter for a resize: area averaging for downscales of 2× or more in both axes, else bicubic.
    static func flags(from src: PixelSize, to dst: PixelSize) -> Int32 {
        if src.width >= 2 * dst.width && src.height >= 2 * dst.height { return Int32(SWS_AREA) }
        return Int32(SWS_BICUBIC)
    }

    /// Converts planes of `format` and `size` to RGBA of `target` size.
    static func toRGBA(path: String, planes: [UnsafePointer<UInt8>?], strides: [Int32], size: PixelSize,
                       format: AVPixelFormat, target: PixelSize) throws -> RGBAImage {
        guard size.width > 0, size.height > 0, target.width > 0, target.height > 0 else {
            throw MediaError(path: path, reason: "empty picture (\(size) to \(target))")
        }
        guard sws_isSupportedInput(format) > 0 else {
            let name = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "\(format.rawValue)"
            throw MediaError(path: path, reason: "unsupported pixel format \(name)")
        }
        guard let sws = sws_getContext(Int32(size.width), Int32(size.height), format,
                                       Int32(target.width), Int32(target.height), AV_PIX_FMT_RGBA,
                                       flags(from: size, to: target), nil, nil, nil) else {
            throw MediaError(path: path, reason: "sws_getContext failed for \(size) to \(target)")
        }
        defer { sws_freeContext(sws) }
        // An aligned scratch of the target size only; swscale may write whole aligned blocks.
        let lineSize = (target.width * 4 + 63) & ~63
        guard let raw = av_malloc(lineSize * target.height + 64) else {
            throw MediaError(path: path, reason: "out of memory for \(target) picture")
        }
        defer { av_free(raw) }
        let dst = raw.assumingMemoryBound(to: UInt8.self)
        var srcPlanes = planes + [UnsafePointer<UInt8>?](repeating: nil, count: max(0, 4 - planes.count))
        var srcStrides = strides + [Int32](repeating: 0, count: max(0, 4 - strides.count))
        var dstPlanes: [UnsafeMutablePointer<UInt8>?] = [dst, nil, nil, nil]
        var dstStrides: [Int32] = [Int32(lineSize), 0, 0, 0]
        let rows = sws_scale(sws, &srcPlanes, &srcStrides, 0, Int32(size.height), &dstPlanes, &dstStrides)
        guard rows == Int32(target.height) else {
            throw MediaError(path: path, reason: "sws_scale failed: \(FFmpegLibrary.errorText(rows))")
        }
        var out = [UInt8](repeating: 0, count: target.width * target.height * 4)
        out.withUnsafeMutableBytes { o in
            guard let base = o.baseAddress else { return }
            for y in 0..<target.height {
                (base + y * target.width * 4).copyMemory(from: dst + y * lineSize, byteCount: target.width * 4)
            }
        }
        return RGBAImage(size: target, pixels: out)
    }

    /// Converts a decoded frame to RGBA of `target` size.
    static func toRGBA(path: String, frame: UnsafeMutablePointer<AVFrame>, target: PixelSize) throws -> RGBAImage {
        let f = frame.pointee
        let planes: [UnsafePointer<UInt8>?] = [f.data.0, f.data.1, f.data.2, f.data.3].map { $0.map { UnsafePointer($0) } }
        let strides: [Int32] = [f.linesize.0, f.linesize.1, f.linesize.2, f.linesize.3]
        return try toRGBA(path: path, planes: planes, strides: strides,
                          size: PixelSize(width: Int(f.width), height: Int(f.height)),
                          format: AVPixelFormat(rawValue: f.format), target: target)
    }
}
