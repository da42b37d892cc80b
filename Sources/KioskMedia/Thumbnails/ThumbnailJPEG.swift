internal import CFFmpeg
import KioskCore

/// A thumbnail's picture as the disk cache keeps it: baseline JPEG through libavcodec's mjpeg encoder, full-range
/// 4:4:4 (no chroma halving, so thin coloured edges survive) at a fixed quantiser. Measured on 15 detailed
/// photographs cut to 360×360: q=3 averages 31 KB, q=4 25 KB (36–40 dB PSNR), q=5 22 KB; q=4 lets 10,000 tiles
/// fit 256 MiB.
enum ThumbnailJPEG {
    /// The mjpeg quantiser (`-q:v`): 2 is near-lossless, higher is smaller.
    static let quality: Int32 = 4

    /// The JPEG bytes of `image`; `name` labels errors.
    static func encode(_ image: RGBAImage, name: String) throws -> [UInt8] {
        _ = FFmpegLibrary.quiet
        func fail(_ why: String) -> MediaError { MediaError(path: name, reason: "JPEG encoder: \(why)") }
        guard image.size.width > 0, image.size.height > 0 else { throw fail("empty picture") }
        let rgba = try RGBAFrame(image, name: name)
        guard let yuv = av_frame_alloc() else { throw fail("av_frame_alloc failed") }
        var y: UnsafeMutablePointer<AVFrame>? = yuv
        defer { av_frame_free(&y) }
        yuv.pointee.width = Int32(image.size.width)
        yuv.pointee.height = Int32(image.size.height)
        yuv.pointee.format = AV_PIX_FMT_YUVJ444P.rawValue
        var rc = av_frame_get_buffer(yuv, 0)
        guard rc >= 0 else { throw fail("av_frame_get_buffer: \(FFmpegLibrary.errorText(rc))") }
        guard let sws = sws_getContext(Int32(image.size.width), Int32(image.size.height), AV_PIX_FMT_RGBA,
                                       Int32(image.size.width), Int32(image.size.height), AV_PIX_FMT_YUVJ444P,
                                       Int32(SWS_BICUBIC | SWS_ACCURATE_RND), nil, nil, nil) else {
            throw fail("sws_getContext failed")
        }
        defer { sws_freeContext(sws) }
        rc = sws_scale_frame(sws, yuv, rgba.frame)
        guard rc >= 0 else { throw fail("sws_scale_frame: \(FFmpegLibrary.errorText(rc))") }

        return try StillEncoder.encode(yuv, codec: AV_CODEC_ID_MJPEG, size: image.size, pixelFormat: AV_PIX_FMT_YUVJ444P,
                                       fail: fail) { ctx in
            ctx.pointee.color_range = AVCOL_RANGE_JPEG
            ctx.pointee.flags |= kiosk_codec_flag_qscale()
            ctx.pointee.global_quality = quality * kiosk_qp2lambda()
        }
    }

    /// The RGBA picture of JPEG `bytes`, which must be `size`; `name` labels errors.
    static func decode(_ bytes: ArraySlice<UInt8>, size: PixelSize, name: String) throws -> RGBAImage {
        _ = FFmpegLibrary.quiet
        let what = "corrupt cached thumbnail"
        guard !bytes.isEmpty, bytes.count < Int(Int32.max) else { throw MediaError(path: name, reason: "\(what): no picture") }
        let codec = try FFmpegCodec(path: name, codecID: AV_CODEC_ID_MJPEG)
        do {
            guard let packet = av_packet_alloc() else { throw MediaError(path: name, reason: "av_packet_alloc failed") }
            defer { var p: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&p) }
            let rc = av_new_packet(packet, Int32(bytes.count))
            guard rc >= 0, let data = packet.pointee.data else {
                throw MediaError(path: name, reason: "av_new_packet: \(FFmpegLibrary.errorText(rc))")
            }
            bytes.withUnsafeBufferPointer { buf in
                if let base = buf.baseAddress { data.update(from: base, count: buf.count) }
            }
            try codec.send(packet, what: what)
        }
        try codec.send(nil, what: what)
        guard try codec.receive(what: what) else { throw MediaError(path: name, reason: "\(what): no picture decoded") }
        let got = PixelSize(width: Int(codec.frame.pointee.width), height: Int(codec.frame.pointee.height))
        guard got == size else { throw MediaError(path: name, reason: "\(what): \(got), not \(size)") }
        return try PixelConversion.toRGBA(path: name, frame: codec.frame, target: size)
    }
}
