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
    init(path: String, format: UnsafePointer<AVInputFormat>, timeLimit: Double, findStreamInfo: Bool) throws {
        _ = FFmpegLibrary.quiet
        self.path = path
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
        var ctx: UnsafeMutablePointer<AVFormatContext>? = allocated
        let rc = FileName.withCString(path) { avformat_open_input(&ctx, $0, format, nil) }
        guard rc >= 0, let opened = ctx else {
            deadline.deallocate()
            throw MediaError(path: path, reason: "cannot open: \(FFmpegLibrary.errorText(rc))")
        }
        context = opened
        let info = findStreamInfo ? avformat_find_stream_info(opened, nil) : 0
        if info < 0 {
            var c: UnsafeMutablePointer<AVFormatContext>? = opened
            avformat_close_input(&c)
            deadline.deallocate()
            throw MediaError(path: path, reason: "cannot read stream info: \(FFmpegLibrary.errorText(info))")
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
