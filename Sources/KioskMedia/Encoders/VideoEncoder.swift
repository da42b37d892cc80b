import Foundation
internal import CFFmpeg
import KioskCore

/// Encodes RGBA frames at a constant frame rate into a video file for `kiosk record`.
///
/// The container follows the extension: `.mp4`/`.mkv`/`.mov` get H.264 (libx264, veryfast, crf 20) when that
/// encoder exists, else MPEG-4 part 2 (q 3); `.y4m` gets raw YUV 4:2:0 (`wrapped_avframe`). Frame n has pts n in time base 1/fps, so
/// the file lasts exactly frames/fps. With `withSound` (not for `.y4m`) it also carries an AAC track of 48 kHz stereo
/// fed by `appendSound`. Owns its ffmpeg contexts; use it from one thread.
public final class VideoEncoder {
    /// The encoder in use (`libx264`, `mpeg4`, or `wrapped_avframe` for raw `.y4m`).
    public let codecName: String
    private let path: String
    private let size: PixelSize
    private let output: UnsafeMutablePointer<AVFormatContext>
    private let codec: UnsafeMutablePointer<AVCodecContext>
    private let stream: UnsafeMutablePointer<AVStream>
    private let packet: UnsafeMutablePointer<AVPacket>
    private let yuv: UnsafeMutablePointer<AVFrame>
    private let sws: OpaquePointer
    private var frameIndex: Int64 = 0
    /// The AAC track, when the file has sound.
    private var sound: (codec: UnsafeMutablePointer<AVCodecContext>, stream: UnsafeMutablePointer<AVStream>,
                        frame: UnsafeMutablePointer<AVFrame>)?
    /// Interleaved s16 stereo samples not yet encoded, and samples encoded so far.
    private var pendingSound: [Int16] = []
    private var soundSamples: Int64 = 0
    private var fileOpen = false
    private var finished = false

    /// Creates the file at `path` for frames of `size` at `fps` frames a second.
    /// With `withSound`, an AAC track too (ignored for `.y4m`, which holds no sound).
    public convenience init(path: String, size: PixelSize, fps: Int, withSound: Bool = false) throws {
        try self.init(path: path, size: size, fps: fps, allowH264: true, withSound: withSound)
    }

    /// As the public initializer; `allowH264: false` forces the MPEG-4 fallback (for tests).
    init(path: String, size: PixelSize, fps: Int, allowH264: Bool, withSound: Bool = false) throws {
        _ = FFmpegLibrary.quiet
        self.path = path
        self.size = size
        func fail(_ why: String) -> MediaError { MediaError(path: path, reason: why) }
        guard fps > 0 else { throw fail("frame rate must be positive, got \(fps)") }
        guard size.width > 0, size.height > 0, size.width % 2 == 0, size.height % 2 == 0 else {
            throw fail("video size must be positive and even, got \(size)")
        }
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        let muxer: String
        switch ext {
        case "mp4": muxer = "mp4"
        case "mov": muxer = "mov"
        case "mkv": muxer = "matroska"
        case "y4m": muxer = "yuv4mpegpipe"
        default: throw fail("unsupported video extension .\(ext) (use .mp4, .mkv, .mov or .y4m)")
        }
        var oc: UnsafeMutablePointer<AVFormatContext>?
        var rc = avformat_alloc_output_context2(&oc, nil, muxer, path)
        guard rc >= 0, let outputContext = oc else { throw fail("avformat_alloc_output_context2: \(FFmpegLibrary.errorText(rc))") }
        // From here every failure releases what was made so far.
        var cleanup: [() -> Void] = [{ avformat_free_context(outputContext) }]
        func bail(_ why: String) -> MediaError {
            for step in cleanup.reversed() { step() }
            return fail(why)
        }
        let encoder: UnsafePointer<AVCodec>
        if muxer == "yuv4mpegpipe" {
            // ffmpeg 5.1's yuv4mpegpipe muxer takes frames wrapped whole (raw yuv420p planes), not rawvideo packets.
            guard let raw = avcodec_find_encoder(AV_CODEC_ID_WRAPPED_AVFRAME) else { throw bail("no wrapped_avframe encoder") }
            encoder = raw
        } else if allowH264, let x264 = avcodec_find_encoder_by_name("libx264") {
            encoder = x264
        } else if let mpeg4 = avcodec_find_encoder(AV_CODEC_ID_MPEG4) {
            encoder = mpeg4
        } else {
            throw bail("no H.264 or MPEG-4 encoder")
        }
        codecName = encoder.pointee.name.map { String(cString: $0) } ?? "encoder"
        guard let st = avformat_new_stream(outputContext, nil) else { throw bail("avformat_new_stream failed") }
        guard let ctx = avcodec_alloc_context3(encoder) else { throw bail("avcodec_alloc_context3 failed") }
        cleanup.append { var c: UnsafeMutablePointer<AVCodecContext>? = ctx; avcodec_free_context(&c) }
        let timeBase = AVRational(num: 1, den: Int32(fps))
        ctx.pointee.width = Int32(size.width)
        ctx.pointee.height = Int32(size.height)
        ctx.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        ctx.pointee.time_base = timeBase
        ctx.pointee.framerate = AVRational(num: Int32(fps), den: 1)
        ctx.pointee.color_range = AVCOL_RANGE_MPEG
        ctx.pointee.colorspace = AVCOL_SPC_SMPTE170M
        ctx.pointee.gop_size = Int32(max(1, fps * 2))
        if codecName == "libx264" {
            av_opt_set(ctx.pointee.priv_data, "preset", "veryfast", 0)
            av_opt_set(ctx.pointee.priv_data, "crf", "20", 0)
        } else if codecName == "mpeg4" {
            ctx.pointee.flags |= kiosk_codec_flag_qscale()
            ctx.pointee.global_quality = 3 * kiosk_qp2lambda()
        }
        if outputContext.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            ctx.pointee.flags |= kiosk_codec_flag_global_header()
        }
        rc = avcodec_open2(ctx, encoder, nil)
        guard rc >= 0 else { throw bail("cannot open \(codecName) encoder: \(FFmpegLibrary.errorText(rc))") }
        rc = avcodec_parameters_from_context(st.pointee.codecpar, ctx)
        guard rc >= 0 else { throw bail("avcodec_parameters_from_context: \(FFmpegLibrary.errorText(rc))") }
        st.pointee.time_base = timeBase
        st.pointee.avg_frame_rate = ctx.pointee.framerate
        guard let pkt = av_packet_alloc() else { throw bail("av_packet_alloc failed") }
        cleanup.append { var p: UnsafeMutablePointer<AVPacket>? = pkt; av_packet_free(&p) }
        guard let frame = av_frame_alloc() else { throw bail("av_frame_alloc failed") }
        cleanup.append { var f: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&f) }
        frame.pointee.width = Int32(size.width)
        frame.pointee.height = Int32(size.height)
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        rc = av_frame_get_buffer(frame, 0)
        guard rc >= 0 else { throw bail("av_frame_get_buffer: \(FFmpegLibrary.errorText(rc))") }
        guard let scaler = sws_getContext(Int32(size.width), Int32(size.height), AV_PIX_FMT_RGBA,
                                          Int32(size.width), Int32(size.height), AV_PIX_FMT_YUV420P,
                                          Int32(SWS_BICUBIC), nil, nil, nil) else { throw bail("sws_getContext failed") }
        cleanup.append { sws_freeContext(scaler) }
        var soundTrack: (codec: UnsafeMutablePointer<AVCodecContext>, stream: UnsafeMutablePointer<AVStream>,
                         frame: UnsafeMutablePointer<AVFrame>)?
        if withSound && muxer != "yuv4mpegpipe" {
            guard let aac = avcodec_find_encoder(AV_CODEC_ID_AAC) else { throw bail("no AAC encoder") }
            guard let ast = avformat_new_stream(outputContext, nil) else { throw bail("avformat_new_stream (sound) failed") }
            guard let actx = avcodec_alloc_context3(aac) else { throw bail("avcodec_alloc_context3 (AAC) failed") }
            cleanup.append { var c: UnsafeMutablePointer<AVCodecContext>? = actx; avcodec_free_context(&c) }
            actx.pointee.sample_rate = 48_000
            actx.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
            av_channel_layout_default(&actx.pointee.ch_layout, 2)
            actx.pointee.bit_rate = 160_000
            actx.pointee.time_base = AVRational(num: 1, den: 48_000)
            if outputContext.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
                actx.pointee.flags |= kiosk_codec_flag_global_header()
            }
            rc = avcodec_open2(actx, aac, nil)
            guard rc >= 0 else { throw bail("cannot open AAC encoder: \(FFmpegLibrary.errorText(rc))") }
            rc = avcodec_parameters_from_context(ast.pointee.codecpar, actx)
            guard rc >= 0 else { throw bail("avcodec_parameters_from_context (sound): \(FFmpegLibrary.errorText(rc))") }
            ast.pointee.time_base = actx.pointee.time_base
            guard let af = av_frame_alloc() else { throw bail("av_frame_alloc (sound) failed") }
            cleanup.append { var f: UnsafeMutablePointer<AVFrame>? = af; av_frame_free(&f) }
            af.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
            af.pointee.sample_rate = 48_000
            av_channel_layout_default(&af.pointee.ch_layout, 2)
            af.pointee.nb_samples = actx.pointee.frame_size > 0 ? actx.pointee.frame_size : 1024
            rc = av_frame_get_buffer(af, 0)
            guard rc >= 0 else { throw bail("av_frame_get_buffer (sound): \(FFmpegLibrary.errorText(rc))") }
            soundTrack = (actx, ast, af)
        }
        if outputContext.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            var options: OpaquePointer?
            av_dict_set(&options, "protocol_whitelist", "file", 0)  // `http:…` or `tcp:…` as a name is a local file
            rc = avio_open2(&outputContext.pointee.pb, LocalFile.outputURL(path), AVIO_FLAG_WRITE, nil, &options)
            av_dict_free(&options)
            guard rc >= 0 else { throw bail("cannot create file: \(FFmpegLibrary.errorText(rc))") }
            // A header that fails leaves no file behind (it would be a few bytes that play nowhere).
            cleanup.append { avio_closep(&outputContext.pointee.pb); try? FileManager.default.removeItem(atPath: path) }
        }
        rc = avformat_write_header(outputContext, nil)
        guard rc >= 0 else { throw bail("cannot write \(muxer) header: \(FFmpegLibrary.errorText(rc))") }
        output = outputContext
        codec = ctx
        stream = st
        packet = pkt
        yuv = frame
        sws = scaler
        sound = soundTrack
        fileOpen = outputContext.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0
    }

    deinit {
        if let sound {
            var f: UnsafeMutablePointer<AVFrame>? = sound.frame
            av_frame_free(&f)
            var c: UnsafeMutablePointer<AVCodecContext>? = sound.codec
            avcodec_free_context(&c)
        }
        sws_freeContext(sws)
        var f: UnsafeMutablePointer<AVFrame>? = yuv
        av_frame_free(&f)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
        var c: UnsafeMutablePointer<AVCodecContext>? = codec
        avcodec_free_context(&c)
        if fileOpen { avio_closep(&output.pointee.pb) }
        avformat_free_context(output)
    }

    /// Frames appended so far.
    public var frameCount: Int { Int(frameIndex) }

    /// Encodes the next frame; it must be of the encoder's size.
    public func append(_ frame: RGBAImage) throws {
        guard !finished else { throw MediaError(path: path, reason: "append after finish") }
        guard frame.size == size else {
            throw MediaError(path: path, reason: "frame is \(frame.size), the video is \(size)")
        }
        var rc = av_frame_make_writable(yuv)
        guard rc >= 0 else { throw MediaError(path: path, reason: "av_frame_make_writable: \(FFmpegLibrary.errorText(rc))") }
        rc = frame.pixels.withUnsafeBufferPointer { buf -> Int32 in
            var src: [UnsafePointer<UInt8>?] = [buf.baseAddress, nil, nil, nil]
            var srcStride: [Int32] = [Int32(size.width * 4), 0, 0, 0]
            var dst: [UnsafeMutablePointer<UInt8>?] = [yuv.pointee.data.0, yuv.pointee.data.1, yuv.pointee.data.2, nil]
            var dstStride: [Int32] = [yuv.pointee.linesize.0, yuv.pointee.linesize.1, yuv.pointee.linesize.2, 0]
            return sws_scale(sws, &src, &srcStride, 0, Int32(size.height), &dst, &dstStride)
        }
        guard rc == Int32(size.height) else { throw MediaError(path: path, reason: "sws_scale RGBA to YUV failed") }
        yuv.pointee.pts = frameIndex
        frameIndex += 1
        try encode(yuv)
    }

    /// Whether the file has a sound track.
    public var hasSound: Bool { sound != nil }

    /// Adds sound: interleaved 16-bit stereo samples at 48 kHz, following what was added before (ignored when the
    /// file has no sound track).
    public func appendSound(_ samples: [Int16]) throws {
        guard let sound, !finished else { return }
        pendingSound += samples
        let n = Int(sound.frame.pointee.nb_samples)
        var used = 0
        while pendingSound.count - used >= n * 2 {
            try encodeSound(sound, from: used, count: n)
            used += n * 2
        }
        pendingSound.removeFirst(used)
    }

    /// Encodes `count` stereo samples of the pending sound from index `from` as one AAC frame.
    private func encodeSound(_ sound: (codec: UnsafeMutablePointer<AVCodecContext>, stream: UnsafeMutablePointer<AVStream>,
                                       frame: UnsafeMutablePointer<AVFrame>), from: Int, count: Int) throws {
        let f = sound.frame
        var rc = av_frame_make_writable(f)
        guard rc >= 0 else { throw MediaError(path: path, reason: "av_frame_make_writable (sound): \(FFmpegLibrary.errorText(rc))") }
        f.pointee.nb_samples = Int32(count)
        guard let left = f.pointee.data.0, let right = f.pointee.data.1 else {
            throw MediaError(path: path, reason: "sound frame has no planes")
        }
        left.withMemoryRebound(to: Float.self, capacity: count) { l in
            right.withMemoryRebound(to: Float.self, capacity: count) { r in
                for i in 0..<count {
                    l[i] = Float(pendingSound[from + 2 * i]) / 32768
                    r[i] = Float(pendingSound[from + 2 * i + 1]) / 32768
                }
            }
        }
        f.pointee.pts = soundSamples
        soundSamples += Int64(count)
        rc = avcodec_send_frame(sound.codec, f)
        guard rc >= 0 else { throw MediaError(path: path, reason: "avcodec_send_frame (aac): \(FFmpegLibrary.errorText(rc))") }
        try drainSound(sound)
    }

    /// Writes every AAC packet the encoder has ready.
    private func drainSound(_ sound: (codec: UnsafeMutablePointer<AVCodecContext>, stream: UnsafeMutablePointer<AVStream>,
                                      frame: UnsafeMutablePointer<AVFrame>)) throws {
        while true {
            let rc = avcodec_receive_packet(sound.codec, packet)
            if rc == kiosk_averror_eagain() || rc == kiosk_averror_eof() { return }
            guard rc >= 0 else { throw MediaError(path: path, reason: "avcodec_receive_packet (aac): \(FFmpegLibrary.errorText(rc))") }
            av_packet_rescale_ts(packet, sound.codec.pointee.time_base, sound.stream.pointee.time_base)
            packet.pointee.stream_index = sound.stream.pointee.index
            let w = av_interleaved_write_frame(output, packet)
            guard w >= 0 else { throw MediaError(path: path, reason: "av_interleaved_write_frame (sound): \(FFmpegLibrary.errorText(w))") }
        }
    }

    /// Flushes the encoder and closes the file. Call once, after the last frame.
    public func finish() throws {
        guard !finished else { return }
        if let sound {
            let left = pendingSound.count / 2
            if left > 0 { try encodeSound(sound, from: 0, count: left) }
            pendingSound = []
            let rc = avcodec_send_frame(sound.codec, nil)
            guard rc >= 0 else { throw MediaError(path: path, reason: "avcodec_send_frame (aac flush): \(FFmpegLibrary.errorText(rc))") }
            try drainSound(sound)
        }
        finished = true
        try encode(nil)
        let rc = av_write_trailer(output)
        guard rc >= 0 else { throw MediaError(path: path, reason: "av_write_trailer: \(FFmpegLibrary.errorText(rc))") }
        if fileOpen {
            avio_closep(&output.pointee.pb)
            fileOpen = false
        }
    }

    /// Sends a frame (nil flushes) and writes every packet that comes out, each lasting one frame.
    private func encode(_ frame: UnsafeMutablePointer<AVFrame>?) throws {
        var rc = avcodec_send_frame(codec, frame)
        guard rc >= 0 else { throw MediaError(path: path, reason: "avcodec_send_frame (\(codecName)): \(FFmpegLibrary.errorText(rc))") }
        while true {
            rc = avcodec_receive_packet(codec, packet)
            if rc == kiosk_averror_eagain() || rc == kiosk_averror_eof() { return }
            guard rc >= 0 else { throw MediaError(path: path, reason: "avcodec_receive_packet (\(codecName)): \(FFmpegLibrary.errorText(rc))") }
            packet.pointee.duration = 1
            av_packet_rescale_ts(packet, codec.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            rc = av_interleaved_write_frame(output, packet)
            guard rc >= 0 else { throw MediaError(path: path, reason: "av_interleaved_write_frame: \(FFmpegLibrary.errorText(rc))") }
        }
    }
}
