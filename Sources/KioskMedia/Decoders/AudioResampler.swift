internal import CFFmpeg
import KioskCore

/// One swresample conversion from decoded frames (any layout, rate and sample format) to interleaved samples of
/// an `AudioFormat`, with swresample's default options (as the ffmpeg CLI's `-ar`/`-ac` use). Rebuilt when the
/// input changes mid-stream. Owns its `SwrContext`.
final class AudioResampler {
    /// The format produced.
    let output: AudioFormat
    private let path: String
    private var swr: OpaquePointer?
    private var input: (format: Int32, rate: Int32, layout: AVChannelLayout)?

    /// A resampler to `output`; `path` names the file in errors.
    init(path: String, output: AudioFormat) {
        self.path = path
        self.output = output
    }

    deinit { reset() }

    /// The ffmpeg sample format of a sample type (interleaved).
    static func sampleFormat(_ sample: AudioFormat.Sample) -> AVSampleFormat {
        switch sample {
        case .s16: return AV_SAMPLE_FMT_S16
        case .s32: return AV_SAMPLE_FMT_S32
        case .float: return AV_SAMPLE_FMT_FLT
        }
    }

    /// Forgets buffered samples and the input (after a seek).
    func reset() {
        swr_free(&swr)
        if var old = input?.layout { av_channel_layout_uninit(&old) }
        input = nil
    }

    /// Converts `frame` and appends the result to `out`.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>, into out: inout [UInt8]) throws {
        let context = try context(for: frame)
        let count = frame.pointee.nb_samples
        guard count > 0, let data = frame.pointee.extended_data else { return }
        let planes = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        _ = try run(context, planes, count, into: &out)
    }

    /// Appends what the resampler still holds (at the end of the stream).
    func flush(into out: inout [UInt8]) throws {
        guard let swr else { return }
        while try run(swr, nil, 0, into: &out) > 0 {}
    }

    /// The context for `frame`'s layout, rate and format: the current one, or a new one after flushing the old.
    private func context(for frame: UnsafeMutablePointer<AVFrame>) throws -> OpaquePointer {
        var layout = AVChannelLayout()
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || frame.pointee.ch_layout.nb_channels <= 0 {
            av_channel_layout_default(&layout, max(1, frame.pointee.ch_layout.nb_channels))
        } else {
            let rc = av_channel_layout_copy(&layout, &frame.pointee.ch_layout)
            if rc < 0 { throw MediaError(path: path, reason: "av_channel_layout_copy: \(FFmpegLibrary.errorText(rc))") }
        }
        if let swr, var current = input?.layout, input?.format == frame.pointee.format,
           input?.rate == frame.pointee.sample_rate, av_channel_layout_compare(&current, &layout) == 0 {
            av_channel_layout_uninit(&layout)
            return swr
        }
        var pending: [UInt8] = []
        if swr != nil { try flush(into: &pending) }
        reset()
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(output.channels))
        defer { av_channel_layout_uninit(&outLayout) }
        var made: OpaquePointer?
        var rc = swr_alloc_set_opts2(&made, &outLayout, Self.sampleFormat(output.sample), Int32(output.sampleRate),
                                     &layout, AVSampleFormat(rawValue: frame.pointee.format), frame.pointee.sample_rate, 0, nil)
        guard rc >= 0, let context = made else {
            av_channel_layout_uninit(&layout)
            throw MediaError(path: path, reason: "swr_alloc_set_opts2: \(FFmpegLibrary.errorText(rc))")
        }
        rc = swr_init(context)
        if rc < 0 {
            swr_free(&made)
            av_channel_layout_uninit(&layout)
            throw MediaError(path: path, reason: "swr_init (\(frame.pointee.sample_rate) Hz to \(output)): \(FFmpegLibrary.errorText(rc))")
        }
        swr = context
        input = (frame.pointee.format, frame.pointee.sample_rate, layout)
        if !pending.isEmpty { flushed.append(contentsOf: pending) }
        return context
    }

    /// Output left over from a context replaced mid-stream, handed out before the next conversion's output.
    private var flushed: [UInt8] = []

    /// One `swr_convert` call appending to `out`; returns the frames produced.
    private func run(_ context: OpaquePointer, _ planes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, _ count: Int32,
                     into out: inout [UInt8]) throws -> Int {
        if !flushed.isEmpty {
            out.append(contentsOf: flushed)
            flushed.removeAll()
        }
        let capacity = Int(swr_get_out_samples(context, count)) + 16
        let bpf = output.bytesPerFrame
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: capacity * bpf))
        let produced: Int32 = out.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return -1 }
            var plane: UnsafeMutablePointer<UInt8>? = base + start
            return swr_convert(context, &plane, Int32(capacity), planes, count)
        }
        if produced < 0 {
            out.removeLast(capacity * bpf)
            throw MediaError(path: path, reason: "swr_convert: \(FFmpegLibrary.errorText(produced))")
        }
        out.removeLast((capacity - Int(produced)) * bpf)
        return Int(produced)
    }
}
