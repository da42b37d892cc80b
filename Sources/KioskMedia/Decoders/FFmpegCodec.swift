internal import CFFmpeg
import KioskCore

/// An opened decoder for one stream of an `FFmpegInput`. Owns its `AVCodecContext`, packet and frame.
final class FFmpegCodec {
    /// The decoder context.
    let context: UnsafeMutablePointer<AVCodecContext>
    /// The frame `receive()` fills.
    let frame: UnsafeMutablePointer<AVFrame>
    /// The decoder's name, for errors.
    let name: String
    private let path: String

    /// Opens the decoder for `stream`, with private `options` (such as `lowres`); `threads` over 1 turns on frame
    /// and slice threads (for video playback: `VideoStreamReader.decodeThreads`).
    convenience init(path: String, stream: UnsafeMutablePointer<AVStream>, options: [String: String] = [:],
                     threads: Int = 1) throws {
        guard let par = stream.pointee.codecpar else { throw MediaError(path: path, reason: "unsupported format: no decoder") }
        try self.init(path: path, codecID: par.pointee.codec_id, parameters: par, timeBase: stream.pointee.time_base,
                      options: options, threads: threads)
    }

    /// Opens the decoder for `codecID` directly (no container), optionally from a stream's `parameters`.
    init(path: String, codecID: AVCodecID, parameters: UnsafePointer<AVCodecParameters>? = nil,
         timeBase: AVRational = AVRational(num: 1, den: 1), options: [String: String] = [:],
         threads: Int = 1) throws {
        self.path = path
        guard let codec = avcodec_find_decoder(codecID) else {
            throw MediaError(path: path, reason: "unsupported format: no decoder")
        }
        name = codec.pointee.name.map { String(cString: $0) } ?? "decoder"
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw MediaError(path: path, reason: "avcodec_alloc_context3 failed")
        }
        var c: UnsafeMutablePointer<AVCodecContext>? = ctx
        var rc: Int32 = 0
        if let parameters {
            rc = avcodec_parameters_to_context(ctx, parameters)
            if rc < 0 {
                avcodec_free_context(&c)
                throw MediaError(path: path, reason: "avcodec_parameters_to_context: \(FFmpegLibrary.errorText(rc))")
            }
        }
        ctx.pointee.pkt_timebase = timeBase
        ctx.pointee.thread_count = Int32(max(1, threads))
        if threads > 1 { ctx.pointee.thread_type = Int32(FF_THREAD_FRAME | FF_THREAD_SLICE) }
        var dict: OpaquePointer? = nil
        for (k, v) in options { av_dict_set(&dict, k, v, 0) }
        rc = avcodec_open2(ctx, codec, &dict)
        av_dict_free(&dict)
        if rc < 0 {
            avcodec_free_context(&c)
            throw MediaError(path: path, reason: "cannot open \(name) decoder: \(FFmpegLibrary.errorText(rc))")
        }
        guard let f = av_frame_alloc() else {
            avcodec_free_context(&c)
            throw MediaError(path: path, reason: "av_frame_alloc failed")
        }
        context = ctx
        frame = f
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&f)
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
    }

    /// Sends a packet (nil flushes). Throws with `what` naming the kind of file on a decode error.
    func send(_ packet: UnsafeMutablePointer<AVPacket>?, what: String) throws {
        let rc = avcodec_send_packet(context, packet)
        if rc < 0 && rc != kiosk_averror_eagain() && rc != kiosk_averror_eof() {
            throw MediaError(path: path, reason: "\(what): \(FFmpegLibrary.errorText(rc))")
        }
    }

    /// Receives the next frame into `frame`; false when the decoder needs input or is drained.
    func receive(what: String) throws -> Bool {
        av_frame_unref(frame)
        let rc = avcodec_receive_frame(context, frame)
        if rc == kiosk_averror_eagain() || rc == kiosk_averror_eof() { return false }
        if rc < 0 { throw MediaError(path: path, reason: "\(what): \(FFmpegLibrary.errorText(rc))") }
        return true
    }
}
