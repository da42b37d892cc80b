internal import CFFmpeg
import KioskCore

/// An opened container (libavformat) with a time bound: any blocking read past the deadline is interrupted.
/// Owns its `AVFormatContext`; the pointer never leaves KioskMedia.
final class FFmpegInput {
    /// The file's path, for errors.
    let path: String
    /// The opened container.
    private(set) var context: UnsafeMutablePointer<AVFormatContext>
    /// Monotonic deadline in seconds (`MonotonicClock.seconds()`), read by the interrupt callback.
    private let deadline: UnsafeMutablePointer<Double>

    /// Opens `path` with the demuxer `format` (found by `FormatSniffer`); with `findStreamInfo` it also reads
    /// ahead to learn stream parameters (skipped for JPEG, whose header the caller parses itself).
    /// The open goes through `LocalMediaPolicy`: the path must be a local regular file (symlinks followed), it is
    /// opened as `file:` + its absolute path with `protocol_whitelist=file`, and the demuxer must be on the allow
    /// list (`format_whitelist` too, for anything it would open in turn). `timeLimit` bounds the open.
    init(path: String, format: UnsafePointer<AVInputFormat>, timeLimit: Double = LocalMediaPolicy.readTimeout,
         findStreamInfo: Bool) throws {
        _ = FFmpegLibrary.quiet
        self.path = path
        let file = try LocalFile(path)
        guard let cname = format.pointee.name, LocalMediaPolicy.allows(String(cString: cname)) else {
            throw MediaError(path: path, reason: LocalMediaPolicy.refusal)
        }
        deadline = UnsafeMutablePointer<Double>.allocate(capacity: 1)
        deadline.pointee = MonotonicClock.seconds() + timeLimit
        guard let allocated = avformat_alloc_context() else {
            deadline.deallocate()
            throw MediaError(path: path, reason: "avformat_alloc_context failed")
        }
        allocated.pointee.interrupt_callback = AVIOInterruptCB(callback: { opaque in
            guard let opaque else { return 0 }
            let limit = opaque.assumingMemoryBound(to: Double.self).pointee
            return MonotonicClock.seconds() > limit ? 1 : 0
        }, opaque: UnsafeMutableRawPointer(deadline))
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        av_dict_set(&options, "format_whitelist", LocalMediaPolicy.formatWhitelist, 0)
        var ctx: UnsafeMutablePointer<AVFormatContext>? = allocated
        // the file stays open until ffmpeg has opened it (beneath the media root it is read through /proc/self/fd)
        let rc = withExtendedLifetime(file) { FileName.withCString(file.ffmpegURL) { avformat_open_input(&ctx, $0, format, &options) } }
        av_dict_free(&options)
        guard rc >= 0, let opened = ctx else {
            let late = MonotonicClock.seconds() > deadline.pointee
            deadline.deallocate()
            throw MediaError(path: path, reason: late ? "opening took too long" : "cannot open: \(FFmpegLibrary.errorText(rc))")
        }
        context = opened
        let info = findStreamInfo ? avformat_find_stream_info(opened, nil) : 0
        if info < 0 {
            // Every stored property is set, so throwing runs deinit, which closes the input and frees the
            // deadline (closing them here as well freed them twice: a crash when a slow open hit its deadline).
            throw MediaError(path: path, reason: pastDeadline ? "opening took too long"
                                                               : "cannot read stream info: \(FFmpegLibrary.errorText(info))")
        }
    }

    deinit {
        var c: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&c)
        deadline.deallocate()
    }

    /// Sets the time bound to `seconds` from now (a long playback renews it before each read).
    func renewDeadline(_ seconds: Double) {
        deadline.pointee = MonotonicClock.seconds() + seconds
    }

    /// Whether the time bound has passed.
    var pastDeadline: Bool { MonotonicClock.seconds() > deadline.pointee }

    /// The demuxer's short name (`jpeg_pipe`, `apng`, `mov,mp4,...`).
    var formatName: String {
        guard let iformat = context.pointee.iformat, let name = iformat.pointee.name else { return "" }
        return String(cString: name)
    }

    /// The streams of the container.
    var streams: [UnsafeMutablePointer<AVStream>] {
        let n = Int(context.pointee.nb_streams)
        guard n > 0, let list = context.pointee.streams else { return [] }
        return (0..<n).compactMap { list[$0] }
    }

    /// Container duration in seconds, if known.
    var durationSeconds: Double? {
        let d = context.pointee.duration
        guard d != kiosk_nopts_value(), d > 0 else { return nil }
        return Double(d) / Double(AV_TIME_BASE)
    }

    /// Reads the next packet into `packet`; false at the end of the file. Errors other than EOF throw.
    func read(into packet: UnsafeMutablePointer<AVPacket>, what: String) throws -> Bool {
        let rc = av_read_frame(context, packet)
        if rc == kiosk_averror_eof() { return false }
        if rc < 0 {
            if pastDeadline { throw MediaError(path: path, reason: "\(what): reading took too long") }
            throw MediaError(path: path, reason: "\(what): \(FFmpegLibrary.errorText(rc))")
        }
        return true
    }
}
