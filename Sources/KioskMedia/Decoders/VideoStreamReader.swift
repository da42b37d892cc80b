internal import CFFmpeg
import Foundation
import KioskCore

/// What a video stream is, learned when it is opened.
public struct VideoStreamInfo: Sendable, Equatable {
    /// The file's path as given.
    public var path: String
    /// The decoder's name (`h264`, `hevc`, `libdav1d`, …).
    public var codecName: String
    /// Stored size in pixels.
    public var size: PixelSize
    /// Seconds the container declares, if known.
    public var duration: Double?
    /// Frames per second the stream declares (0 if unknown).
    public var frameRate: Double
    /// How the stored picture must be turned to be seen upright (display matrix).
    public var orientation: Orientation
    /// Sample aspect ratio (1 for square pixels).
    public var sampleAspect: Double
    /// Whether the file also has a sound stream.
    public var hasAudio: Bool
}

/// Demuxes and decodes the video stream of a file on the caller's thread, one `VideoFrame` at a time, with
/// frame and slice threads inside libavcodec. Seeks are accurate: decoding restarts at the keyframe before the
/// target and frames before the frame shown at the target are dropped. Formats with no shader path are
/// converted to RGBA with swscale, noted once in `conversionNote`.
final class VideoStreamReader {
    /// What the stream is.
    let info: VideoStreamInfo
    /// Set once when frames need a swscale conversion (the one log line).
    private(set) var conversionNote: String?

    /// Seconds one demuxer read may take before the file is given up: `--decode-timeout`, at most 10.
    static var readTimeLimit: Double { min(10, LocalMediaPolicy.readTimeout) }
    /// Packets in a row that may fail to decode before the stream is declared broken.
    static let maxConsecutiveErrors = 8

    private let input: FFmpegInput
    private let streamIndex: Int32
    private let timeBase: AVRational
    private let codec: FFmpegCodec
    private let packet: UnsafeMutablePointer<AVPacket>
    private let what: String
    private var inputDone = false
    private var drained = false
    private var consecutiveErrors = 0
    private var failure: MediaError?
    /// After a seek: the target, and the newest frame at or before it seen so far.
    private var seekTarget: Double?
    private var held: VideoFrame?
    /// A frame decoded past a seek's target, handed out after the held one.
    private var lookahead: VideoFrame?
    /// Media seconds at which the stream starts (0 for most files).
    private let streamStart: Double
    /// Declared length of the video stream (or the container) when the figure is not a guess from the bit rate.
    private let declaredLength: Double?
    private var lastPTS: Double?
    /// The decoder's frame buffers seen so far (for `poolSummary`).
    private var pool = DecoderPoolCount()
    /// Planes as decoded, or RGBA through `converter` (set before the first frame is read).
    var form: VideoFrameForm = .planes
    private let converter: VideoFrameConverter
    /// The storage RGBA frames are converted into, given back by the frames' user.
    var rgbaPool: FrameBufferPool { converter.pool }

    /// Opens `path` and its best video stream.
    init(path: String) throws {
        converter = VideoFrameConverter(path: path)
        _ = FFmpegLibrary.quiet
        let size = try FileBytes.size(path)
        if size == 0 { throw MediaError(path: path, reason: "empty file") }
        let head = try FileBytes.read(path, count: min(size, 1 << 20))
        let demuxer = try FormatSniffer.format(path: path, head: head)
        input = try FFmpegInput(path: path, format: demuxer, timeLimit: FFmpegImageDecoder.timeLimit, findStreamInfo: true)
        guard let stream = input.streams.first(where: { s in
            guard let par = s.pointee.codecpar else { return false }
            return par.pointee.codec_type == AVMEDIA_TYPE_VIDEO && s.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        }), let par = stream.pointee.codecpar else {
            throw MediaError(path: path, reason: "no video stream")
        }
        streamIndex = stream.pointee.index
        timeBase = stream.pointee.time_base
        let codecID = par.pointee.codec_id
        what = "truncated or corrupt \(avcodec_get_name(codecID).map { String(cString: $0).uppercased() } ?? "video")"
        let rate = stream.pointee.avg_frame_rate.den > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        let fps = rate.den > 0 ? Double(rate.num) / Double(rate.den) : 0
        codec = try FFmpegCodec(path: path, stream: stream, threads: Self.decodeThreads(
            for: PixelSize(width: Int(par.pointee.width), height: Int(par.pointee.height)), frameRate: fps))
        guard let p = av_packet_alloc() else { throw MediaError(path: path, reason: "av_packet_alloc failed") }
        packet = p
        let sar = par.pointee.sample_aspect_ratio
        let tb = stream.pointee.time_base
        let start = stream.pointee.start_time
        streamStart = start != kiosk_nopts_value() && tb.den > 0 ? Double(start) * Double(tb.num) / Double(tb.den) : 0
        if input.context.pointee.duration_estimation_method == AVFMT_DURATION_FROM_BITRATE {
            declaredLength = nil
        } else if stream.pointee.duration > 0 && stream.pointee.duration != kiosk_nopts_value() && tb.den > 0 {
            declaredLength = Double(stream.pointee.duration) * Double(tb.num) / Double(tb.den)
        } else {
            declaredLength = input.durationSeconds
        }
        info = VideoStreamInfo(
            path: path, codecName: codec.name,
            size: PixelSize(width: Int(par.pointee.width), height: Int(par.pointee.height)),
            duration: input.durationSeconds,
            frameRate: rate.num > 0 && rate.den > 0 ? Double(rate.num) / Double(rate.den) : 0,
            orientation: Self.orientation(stream),
            sampleAspect: sar.num > 0 && sar.den > 0 ? Double(sar.num) / Double(sar.den) : 1,
            hasAudio: input.streams.contains { $0.pointee.codecpar?.pointee.codec_type == AVMEDIA_TYPE_AUDIO })
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
    }

    /// The display matrix's rotation as an orientation (phone videos).
    static func orientation(_ stream: UnsafeMutablePointer<AVStream>) -> Orientation {
        guard let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, nil) else { return .up }
        let angle = av_display_rotation_get(UnsafeRawPointer(matrix).assumingMemoryBound(to: Int32.self))
        guard angle.isFinite else { return .up }
        switch Int(saturating: angle / 90) & 3 {
        case 3: return .right
        case 1: return .left
        case 2: return .down
        default: return .up
        }
    }

    /// The next frame in presentation order; nil at the end. A broken stream hands out what decoded before the
    /// break, then throws a `MediaError` naming the file.
    func next() throws -> VideoFrame? {
        try nextDecoded().map(finish)
    }

    /// A frame held through a seek was copied as planes (converting every frame skipped on the way would waste
    /// the conversion): with RGBA asked for, it is converted now, as it is handed out.
    private func finish(_ frame: VideoFrame) throws -> VideoFrame {
        guard case .rgba(let limit) = form, frame.layout != .rgba else { return frame }
        var out = frame
        let target = VideoFrameConverter.targetSize(stored: frame.size, sampleAspect: frame.sampleAspect,
                                                    orientation: frame.orientation, limit: limit)
        let rows = Self.rgbaRows(for: frame.orientation, alpha: false)
        out.planes = [try converter.convert(frame, target: target, rowsBottomUp: rows.bottomUp)]
        out.orientation = rows.orientation
        out.layout = .rgba
        out.size = target
        out.sampleAspect = 1
        out.range = .full
        return out
    }

    /// The next frame as decoded (planes while a seek looks for its target).
    private func nextDecoded() throws -> VideoFrame? {
        if let target = seekTarget {
            // Keep the newest frame at or before the target; hand it out when a later one (or the end) shows up.
            while let frame = try decodeOne() {
                if frame.pts <= target + 1e-6 {
                    held = frame
                    continue
                }
                seekTarget = nil
                if let h = held {
                    held = nil
                    lookahead = frame
                    return h
                }
                return frame
            }
            seekTarget = nil
            defer { held = nil }
            if let h = held { return h }
            if let failure { throw failure }
            return nil
        }
        if let l = lookahead {
            lookahead = nil
            return l
        }
        if let frame = try decodeOne() { return frame }
        if let failure { throw failure }
        return nil
    }

    /// One line on libavcodec's threads, references, delay and the frame buffers its pool handed out so far.
    var poolSummary: String { pool.summary(path: info.path, context: codec.context) }

    /// Seeks so the next frame is the one shown at `seconds` (the newest frame whose time is at or before it).
    func seek(to seconds: Double) throws {
        let target = max(0, seconds)
        input.renewDeadline(Self.readTimeLimit)
        // A target past Int64's microseconds (a state file's 1e300) seeks to the end, never a trapping conversion.
        let ts = Int64(Int(clamping: ((target + streamStart) * Double(AV_TIME_BASE)).rounded(.down), to: 0...Int.max) ?? 0)
        let rc = avformat_seek_file(input.context, -1, Int64.min, ts, ts, 0)
        if rc < 0 {
            // Some containers cannot seek by time: start over from the top and decode up to the target.
            let back = avformat_seek_file(input.context, -1, Int64.min, 0, 0, 0)
            if back < 0 { throw MediaError(path: info.path, reason: "seek to \(target) s: \(FFmpegLibrary.errorText(rc))") }
        }
        avcodec_flush_buffers(codec.context)
        inputDone = false
        drained = false
        consecutiveErrors = 0
        failure = nil
        held = nil
        lookahead = nil
        lastPTS = nil
        seekTarget = target
    }

    /// Decodes the next frame (presentation order as the decoder outputs it); nil when drained or broken.
    private func decodeOne() throws -> VideoFrame? {
        while !drained {
            do {
                if try codec.receive(what: what) {
                    consecutiveErrors = 0
                    return try take(codec.frame)
                }
            } catch let error as MediaError {
                decodeFailed(error)
                continue
            }
            if inputDone {
                drained = true
                checkLength()
                break
            }
            input.renewDeadline(Self.readTimeLimit)
            let got: Bool
            do {
                got = try input.read(into: packet, what: what)
            } catch let error as MediaError {
                failure = error
                endInput()
                continue
            }
            guard got else { endInput(); continue }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            do {
                try codec.send(packet, what: what)
            } catch let error as MediaError {
                decodeFailed(error)
            }
        }
        return nil
    }

    /// No more packets: flush the decoder.
    private func endInput() {
        inputDone = true
        try? codec.send(nil, what: what)
    }

    /// A packet that would not decode is skipped, unless too many in a row failed.
    private func decodeFailed(_ error: MediaError) {
        consecutiveErrors += 1
        if inputDone {
            failure = failure ?? error
            drained = true
        } else if consecutiveErrors > Self.maxConsecutiveErrors {
            failure = error
            endInput()
        }
    }

    /// At a clean end: a stream much shorter than its container declares is a truncated file.
    private func checkLength() {
        guard failure == nil, let declared = declaredLength, declared > 0.5 else { return }
        let frameTime = info.frameRate > 0 ? 1 / info.frameRate : 0.04
        let end = (lastPTS ?? 0) + frameTime
        if end < declared - max(0.25, declared * 0.05) {
            failure = MediaError(path: info.path, reason: "\(what): video ends at \(String(format: "%.2f", end)) s of \(String(format: "%.2f", declared)) s")
        }
    }

    /// Copies a decoded frame into a `VideoFrame` (its planes as they are, or RGBA through swscale).
    private func take(_ frame: UnsafeMutablePointer<AVFrame>) throws -> VideoFrame {
        pool.saw(frame)
        let f = frame.pointee
        let ts = f.best_effort_timestamp != kiosk_nopts_value() ? f.best_effort_timestamp : f.pts
        var pts = ts != kiosk_nopts_value() && timeBase.den > 0
            ? Double(ts) * Double(timeBase.num) / Double(timeBase.den) - streamStart
            : (lastPTS.map { $0 + (info.frameRate > 0 ? 1 / info.frameRate : 0.04) } ?? 0)
        if let last = lastPTS, pts <= last - 10 { pts = last + (info.frameRate > 0 ? 1 / info.frameRate : 0.04) }
        lastPTS = pts
        let size = PixelSize(width: Int(f.width), height: Int(f.height))
        guard size.width > 0, size.height > 0 else { throw MediaError(path: info.path, reason: "\(what): empty frame") }
        let format = AVPixelFormat(rawValue: f.format)
        let sar = f.sample_aspect_ratio.num > 0 && f.sample_aspect_ratio.den > 0
            ? Double(f.sample_aspect_ratio.num) / Double(f.sample_aspect_ratio.den) : info.sampleAspect
        var range: ColorRange = f.color_range == AVCOL_RANGE_JPEG ? .full : .limited
        let layout: VideoPixelLayout?
        switch format {
        case AV_PIX_FMT_YUV420P: layout = .yuv420p
        case AV_PIX_FMT_YUVJ420P: layout = .yuv420p; range = .full
        case AV_PIX_FMT_YUV422P: layout = .yuv422p
        case AV_PIX_FMT_YUVJ422P: layout = .yuv422p; range = .full
        case AV_PIX_FMT_YUV444P: layout = .yuv444p
        case AV_PIX_FMT_YUVJ444P: layout = .yuv444p; range = .full
        case AV_PIX_FMT_NV12: layout = .nv12
        case AV_PIX_FMT_YUV420P10LE: layout = .yuv420p10
        case AV_PIX_FMT_P010LE: layout = .p010
        default: layout = nil
        }
        let matrix: ColorMatrix
        switch f.colorspace {
        case AVCOL_SPC_BT709: matrix = .bt709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M, AVCOL_SPC_FCC: matrix = .bt601
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: matrix = .bt2020
        default: matrix = .untagged(height: size.height)
        }
        let siting: ChromaSiting = f.chroma_location == AVCHROMA_LOC_CENTER ? .center : .left
        let rgba: PixelSize??
        switch form {
        case .rgba(let limit) where seekTarget == nil: rgba = .some(limit)
        default: rgba = layout == nil ? .some(nil) : .none
        }
        if rgba == nil, let layout, let planes = Self.referencePlanes(frame, layout: layout, size: size) {
            return VideoFrame(pts: pts, size: size, layout: layout, matrix: matrix, range: range, siting: siting,
                              planes: planes, sampleAspect: sar, orientation: info.orientation)
        }
        if layout == nil, conversionNote == nil {
            let name = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "\(format.rawValue)"
            conversionNote = "\(info.path): pixel format \(name) has no shader path; converting to RGBA with swscale"
        }
        // RGBA asked for, or a format with no shader path (converted at its own size)
        let target = VideoFrameConverter.targetSize(stored: size, sampleAspect: sar, orientation: info.orientation,
                                                    limit: rgba ?? nil)
        let alpha = av_pix_fmt_desc_get(format).map { $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0 } ?? true
        let rows = Self.rgbaRows(for: info.orientation, alpha: alpha)
        let plane = try converter.convert(frame, matrix: matrix, range: range, siting: siting, target: target,
                                          rowsBottomUp: rows.bottomUp)
        return VideoFrame(pts: pts, size: target, layout: .rgba, matrix: matrix, range: .full, siting: .center,
                          planes: [plane], sampleAspect: 1, orientation: rows.orientation)
    }

    /// How an RGBA frame of a clip shown with `orientation` is stored. An upright clip's opaque frames are
    /// written bottom-up, GL's row order, and marked mirrored top-bottom (`.downMirrored`), which every reader of
    /// a frame (the shaders, `ClipStill`) already turns back: the renderer can then copy an unscaled frame
    /// straight into the framebuffer (`PlainCopy`: a memcpy on llvmpipe, 0.7 ms for 1080p) instead of a shader
    /// pass (18 ms). Frames with `alpha` (blended over the background) and other orientations keep their rows.
    static func rgbaRows(for orientation: Orientation, alpha: Bool) -> (bottomUp: Bool, orientation: Orientation) {
        orientation == .up && !alpha ? (true, .downMirrored) : (false, orientation)
    }
}
