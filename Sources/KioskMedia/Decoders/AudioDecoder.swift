internal import CFFmpeg
import Foundation
import KioskCore

/// Decodes the best audio stream of a file (libavformat/libavcodec) and resamples it with swresample to one
/// requested `AudioFormat`. Chunks carry the media time of their first sample. A broken stream hands out what
/// was decoded before the break, then throws a `MediaError` naming the file; so does a stream that ends well
/// before the length its container declares (a truncated file).
public final class AudioDecoder: AudioSource {
    /// The file's path as given.
    public let path: String
    /// The format of every chunk.
    public let format: AudioFormat
    /// Seconds the container declares, if known.
    public let duration: Double?
    /// The decoder's name (`mp3float`, `aac`, `flac`, …).
    public let codecName: String
    /// The stream's own rate, channels and sample format, for logs (`44100 Hz 1 ch fltp`).
    public let sourceDescription: String

    /// Seconds one demuxer read may take before the file is given up: `--decode-timeout`, at most 10.
    static var readTimeLimit: Double { min(10, LocalMediaPolicy.readTimeout) }
    /// Packets in a row that may fail to decode (each is skipped, like the ffmpeg CLI does) before the stream
    /// is declared broken.
    static let maxConsecutiveErrors = 8

    private let input: FFmpegInput
    private let streamIndex: Int32
    private let streamTimeBase: AVRational
    private let codec: FFmpegCodec
    private let resampler: AudioResampler
    private let packet: UnsafeMutablePointer<AVPacket>
    private let what: String
    /// Seconds the stream should last when the container's figure is exact (not guessed from the bit rate).
    private let declaredLength: Double?
    /// Media seconds at which the stream starts (0 for most files).
    private let streamStart: Double

    private var buffer: [UInt8] = []
    private var bufferStart = 0
    /// Media seconds of the first frame since the open or the last seek, and frames handed out or dropped since.
    private var base: Double?
    private var framesSinceBase = 0
    /// After a seek: the target, for dropping the frames before it.
    private var seekTarget: Double?
    private var inputDone = false
    private var finished = false
    private var failure: MediaError?
    private var consecutiveErrors = 0

    /// Opens `path` and its best audio stream, to be resampled to `format`.
    public init(path: String, format: AudioFormat) throws {
        _ = FFmpegLibrary.quiet
        self.path = path
        self.format = format
        let size = try FileBytes.size(path)
        if size == 0 { throw MediaError(path: path, reason: "empty file") }
        let head = try FileBytes.read(path, count: min(size, 1 << 20))
        let demuxer = try FormatSniffer.format(path: path, head: head)
        input = try FFmpegInput(path: path, format: demuxer, timeLimit: FFmpegImageDecoder.timeLimit, findStreamInfo: true)
        var decoderOut: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(input.context, AVMEDIA_TYPE_AUDIO, -1, -1, &decoderOut, 0)
        guard index >= 0, let stream = input.streams.first(where: { $0.pointee.index == index }),
              let par = stream.pointee.codecpar else {
            throw MediaError(path: path, reason: "no audio stream")
        }
        streamIndex = index
        streamTimeBase = stream.pointee.time_base
        let codecID = par.pointee.codec_id
        what = "truncated or corrupt \(avcodec_get_name(codecID).map { String(cString: $0).uppercased() } ?? "audio")"
        codec = try FFmpegCodec(path: path, stream: stream)
        codecName = codec.name
        let fmtName = av_get_sample_fmt_name(AVSampleFormat(rawValue: par.pointee.format)).map { String(cString: $0) } ?? "?"
        sourceDescription = "\(par.pointee.sample_rate) Hz \(par.pointee.ch_layout.nb_channels) ch \(fmtName)"
        duration = input.durationSeconds
        let tb = stream.pointee.time_base
        if input.context.pointee.duration_estimation_method == AVFMT_DURATION_FROM_BITRATE {
            declaredLength = nil
        } else if stream.pointee.duration > 0 && stream.pointee.duration != kiosk_nopts_value() && tb.den > 0 {
            declaredLength = Double(stream.pointee.duration) * Double(tb.num) / Double(tb.den)
        } else {
            declaredLength = duration
        }
        let start = stream.pointee.start_time
        streamStart = start != kiosk_nopts_value() && tb.den > 0 ? Double(start) * Double(tb.num) / Double(tb.den) : 0
        resampler = AudioResampler(path: path, output: format)
        guard let p = av_packet_alloc() else { throw MediaError(path: path, reason: "av_packet_alloc failed") }
        packet = p
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
    }

    /// Frames decoded and not yet handed out.
    private var bufferedFrames: Int { (buffer.count - bufferStart) / format.bytesPerFrame }

    /// The next chunk of at most `maxFrames` frames; nil at the end. After a decode or read error, the frames
    /// decoded before it come first, then every call throws the error.
    public func read(maxFrames: Int) throws -> AudioChunk? {
        let wanted = max(1, maxFrames)
        while bufferedFrames < wanted && !finished { try step() }
        let n = min(wanted, bufferedFrames)
        guard n > 0 else {
            if let failure { throw failure }
            return nil
        }
        let bytes = n * format.bytesPerFrame
        let chunk = AudioChunk(format: format, bytes: Array(buffer[bufferStart..<(bufferStart + bytes)]),
                               pts: (base ?? 0) + format.seconds(frames: framesSinceBase))
        bufferStart += bytes
        framesSinceBase += n
        if bufferStart > 1 << 16 && bufferStart * 2 > buffer.count {
            buffer.removeFirst(bufferStart)
            bufferStart = 0
        }
        return chunk
    }

    /// Seeks so the next chunk starts at `seconds` (frames before it are decoded and dropped).
    public func seek(to seconds: Double) throws {
        let target = max(0, seconds)
        input.renewDeadline(Self.readTimeLimit)
        // A target past Int64's microseconds (a state file's 1e300) seeks to the end, never a trapping conversion.
        let ts = Int64(Int(clamping: (target * Double(AV_TIME_BASE)).rounded(.down), to: 0...Int.max) ?? 0)
        let rc = avformat_seek_file(input.context, -1, Int64.min, ts, ts, 0)
        if rc < 0 { throw MediaError(path: path, reason: "seek to \(target) s: \(FFmpegLibrary.errorText(rc))") }
        avcodec_flush_buffers(codec.context)
        resampler.reset()
        buffer.removeAll(keepingCapacity: true)
        bufferStart = 0
        base = nil
        framesSinceBase = 0
        seekTarget = target
        inputDone = false
        finished = false
        failure = nil
        consecutiveErrors = 0
    }

    /// One unit of work: take a decoded frame, or feed a packet, or finish.
    private func step() throws {
        do {
            if try codec.receive(what: what) {
                consecutiveErrors = 0
                try take(codec.frame)
                return
            }
        } catch let error as MediaError {
            try decodeFailed(error)
            return
        }
        if inputDone {
            try resampler.flush(into: &buffer)
            finished = true
            checkLength()
            return
        }
        input.renewDeadline(Self.readTimeLimit)
        let got: Bool
        do {
            got = try input.read(into: packet, what: what)
        } catch let error as MediaError {
            failure = error
            try endInput()
            return
        }
        guard got else { try endInput(); return }
        defer { av_packet_unref(packet) }
        guard packet.pointee.stream_index == streamIndex else { return }
        do {
            try codec.send(packet, what: what)
        } catch let error as MediaError {
            try decodeFailed(error)
        }
    }

    /// Flushes the decoder: no more packets.
    private func endInput() throws {
        inputDone = true
        try? codec.send(nil, what: what)
    }

    /// A packet that would not decode: skipped, unless too many in a row failed.
    /// While draining, any error ends the stream (what the resampler holds is still handed out).
    private func decodeFailed(_ error: MediaError) throws {
        consecutiveErrors += 1
        if inputDone {
            failure = failure ?? error
            try? resampler.flush(into: &buffer)
            finished = true
        } else if consecutiveErrors > Self.maxConsecutiveErrors {
            failure = error
            try endInput()
        }
    }

    /// Resamples a decoded frame into the buffer, setting the time base at the first frame and dropping what
    /// lies before a seek's target.
    private func take(_ frame: UnsafeMutablePointer<AVFrame>) throws {
        if base == nil {
            let ts = frame.pointee.best_effort_timestamp
            let tb = streamTimeBase
            var start = ts != kiosk_nopts_value() && tb.den > 0 ? Double(ts) * Double(tb.num) / Double(tb.den) : (seekTarget ?? 0)
            var drop = 0
            if let target = seekTarget, target > start {
                drop = Int(clamping: (target - start) * Double(format.sampleRate), to: 0...Int.max) ?? 0
                start = target
            }
            base = start
            pendingDrop = drop
            seekTarget = nil
        }
        try resampler.convert(frame, into: &buffer)
        if pendingDrop > 0 {
            let n = min(pendingDrop, bufferedFrames)
            bufferStart += n * format.bytesPerFrame
            pendingDrop -= n
        }
    }

    /// Frames still to drop after a seek.
    private var pendingDrop = 0

    /// At a clean end: a stream much shorter than its container declares is a truncated file.
    private func checkLength() {
        guard failure == nil, let declared = declaredLength, let base else { return }
        let end = base + format.seconds(frames: framesSinceBase + bufferedFrames)
        if end - streamStart < declared - max(0.25, declared * 0.02) {
            failure = MediaError(path: path, reason: "\(what): audio ends at \(String(format: "%.2f", end)) s of \(String(format: "%.2f", declared)) s")
        }
    }
}
