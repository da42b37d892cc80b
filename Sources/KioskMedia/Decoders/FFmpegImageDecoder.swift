internal import CFFmpeg
import KioskCore

/// Stills (JPEG, PNG, BMP, TIFF) and APNG animations through libavformat/libavcodec; also describes video and
/// audio files for `kiosk probe` (their playback is not decoded here).
public enum FFmpegImageDecoder {
    /// Seconds a probe or decode may take before it is abandoned (`LocalMediaPolicy.readTimeout`,
    /// `--decode-timeout`).
    public static var timeLimit: Double { LocalMediaPolicy.readTimeout }
    /// Most frames an animation may have; more is treated as a corrupt file.
    public static let maxAnimationFrames = 10_000
    /// Bytes of the file's head read for format sniffing and header parsing.
    static let headBytes = 1 << 20

    /// An opened file: its container, head bytes, and what the JPEG header says when it is a JPEG.
    private struct Opened {
        let input: FFmpegInput
        let head: [UInt8]
        let fileSize: Int
        let jpeg: JPEGStructure?

        /// Whether the container holds a picture (not a clip).
        var isPicture: Bool {
            let name = input.formatName
            return name == "image2" || name == "apng" || name.hasSuffix("_pipe")
        }

        /// The first video stream that is not an attached cover picture.
        var videoStream: UnsafeMutablePointer<AVStream>? {
            input.streams.first { s in
                guard let par = s.pointee.codecpar else { return false }
                return par.pointee.codec_type == AVMEDIA_TYPE_VIDEO
                    && s.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
            }
        }
    }

    /// Opens `path`; with `limits`, the sizes in the container's headers are checked against them first, before
    /// `avformat_find_stream_info` decodes anything.
    private static func open(_ path: String, limits: DecodeLimits? = nil) throws -> Opened {
        let size = try FileBytes.size(path)
        if size == 0 { throw MediaError(path: path, reason: "empty file") }
        let head = try FileBytes.read(path, count: headBytes)
        let tail = size <= head.count ? head
            : try FileBytes.read(path, offset: size - TruncationCheck.tailBytes, count: TruncationCheck.tailBytes)
        var jpeg: JPEGStructure?
        if JPEGStructure.isJPEG(head) {
            var j = JPEGStructure(bytes: head)
            if size > head.count { j.hasEnd = zip(tail, tail.dropFirst()).contains { $0 == 0xFF && $1 == 0xD9 } }
            jpeg = j
        }
        try TruncationCheck.check(path: path, head: head, tail: tail, fileSize: size, jpeg: jpeg)
        let format = try FormatSniffer.format(path: path, head: head)
        if let limits, jpeg == nil {
            let header = try FFmpegInput(path: path, format: format, timeLimit: timeLimit, findStreamInfo: false)
            let picture = Opened(input: header, head: head, fileSize: size, jpeg: nil).isPicture
            for stream in header.streams {
                guard let par = stream.pointee.codecpar, par.pointee.codec_type == AVMEDIA_TYPE_VIDEO,
                      par.pointee.width > 0, par.pointee.height > 0 else { continue }
                try limits.checkPixels(PixelSize(width: Int(par.pointee.width), height: Int(par.pointee.height)),
                                       path: path, what: picture ? "picture" : "video")
            }
        }
        let input = try FFmpegInput(path: path, format: format, timeLimit: timeLimit, findStreamInfo: jpeg == nil)
        return Opened(input: input, head: head, fileSize: size, jpeg: jpeg)
    }

    /// The kind of picture a codec decodes, for error messages ("truncated or corrupt PNG").
    private static func label(_ stream: UnsafeMutablePointer<AVStream>) -> String {
        switch stream.pointee.codecpar?.pointee.codec_id {
        case AV_CODEC_ID_MJPEG: return "JPEG"
        case AV_CODEC_ID_PNG: return "PNG"
        case AV_CODEC_ID_APNG: return "APNG"
        case AV_CODEC_ID_BMP: return "BMP"
        case AV_CODEC_ID_TIFF: return "TIFF"
        default:
            let id = stream.pointee.codecpar?.pointee.codec_id ?? AV_CODEC_ID_NONE
            return avcodec_get_name(id).map { String(cString: $0).uppercased() } ?? "picture"
        }
    }

    /// Describes a file: kind, displayed size, frames, duration, loops and orientation.
    /// With `limits`, a picture or video larger than they allow is refused from its headers.
    public static func probe(path: String, limits: DecodeLimits? = nil) throws -> MediaInfo {
        if let info = try StreamedPNGDecoder.probe(path: path, limits: limits) { return info }  // not decoded
        let file = try open(path, limits: limits)
        if file.isPicture {
            guard let stream = file.videoStream, let par = stream.pointee.codecpar else {
                throw MediaError(path: path, reason: "unsupported format: no picture stream")
            }
            let what = "truncated or corrupt \(label(stream))"
            if let jpeg = file.jpeg {
                guard let stored = jpeg.storedSize, stored.width > 0, stored.height > 0 else {
                    throw MediaError(path: path, reason: "\(what): no frame header")
                }
                let shown = (Orientation(rawValue: jpeg.orientation) ?? .up).displayedSize(of: stored)
                return MediaInfo(path: path, kind: .image, width: shown.width, height: shown.height, frames: 1,
                                 duration: nil, loops: 1, orientation: jpeg.orientation,
                                 projection: XMPProjection.metadata(file.head))
            }
            let w = Int(par.pointee.width), h = Int(par.pointee.height)
            guard w > 0, h > 0 else { throw MediaError(path: path, reason: "\(what): no picture size") }
            if file.input.formatName == "apng" {
                let durations = try packetDurations(file, stream: stream, what: what)
                let plays = PNGChunks.animationPlays(file.head) ?? 0
                let frames = durations.count
                return MediaInfo(path: path, kind: frames > 1 ? .animation : .image, width: w, height: h,
                                 frames: frames, duration: frames > 1 ? durations.reduce(0, +) : nil,
                                 loops: frames > 1 ? plays : 1, orientation: 1)
            }
            return MediaInfo(path: path, kind: .image, width: w, height: h, frames: 1, duration: nil, loops: 1,
                             orientation: 1)
        }
        return try clipInfo(file)
    }

    /// Video or audio: sizes, frame count and duration from the container.
    private static func clipInfo(_ file: Opened) throws -> MediaInfo {
        let path = file.input.path
        let duration = file.input.durationSeconds
        if let stream = file.videoStream, let par = stream.pointee.codecpar {
            var size = PixelSize(width: Int(par.pointee.width), height: Int(par.pointee.height))
            var orientation = Orientation.up
            if let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, nil) {
                let angle = av_display_rotation_get(UnsafeRawPointer(matrix).assumingMemoryBound(to: Int32.self))
                if angle.isFinite {
                    switch Int(saturating: angle / 90) & 3 {
                    case 3: orientation = .right   // -90: turn clockwise to show
                    case 1: orientation = .left
                    case 2: orientation = .down
                    default: orientation = .up
                    }
                }
            }
            size = orientation.displayedSize(of: size)
            var frames = Int(stream.pointee.nb_frames)
            if frames <= 0, let d = duration {
                let rate = stream.pointee.avg_frame_rate
                if rate.num > 0 && rate.den > 0 { frames = Int(saturating: d * Double(rate.num) / Double(rate.den)) }
            }
            var info = MediaInfo(path: path, kind: .video, width: size.width, height: size.height, frames: max(frames, 0),
                                 duration: duration, loops: 1, orientation: orientation.rawValue,
                                 projection: StreamProjection.metadata(stream))
            info.streams = streamList(file)
            switch orientation {
            case .right: info.rotation = 90
            case .down: info.rotation = 180
            case .left: info.rotation = 270
            default: info.rotation = 0
            }
            return info
        }
        let hasAudio = file.input.streams.contains { $0.pointee.codecpar?.pointee.codec_type == AVMEDIA_TYPE_AUDIO }
        guard hasAudio else { throw MediaError(path: path, reason: "unsupported format: no picture, video or audio stream") }
        var info = MediaInfo(path: path, kind: .audio, width: 0, height: 0, frames: 0, duration: duration, loops: 1,
                             orientation: 1)
        info.streams = streamList(file)
        return info
    }

    /// The video (not cover pictures) and audio streams, in file order.
    private static func streamList(_ file: Opened) -> [MediaStream] {
        file.input.streams.compactMap { s in
            guard let par = s.pointee.codecpar else { return nil }
            let codec = avcodec_get_name(par.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
            if par.pointee.codec_type == AVMEDIA_TYPE_VIDEO && s.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 {
                return MediaStream(type: "video", codec: codec, width: Int(par.pointee.width), height: Int(par.pointee.height))
            }
            if par.pointee.codec_type == AVMEDIA_TYPE_AUDIO {
                return MediaStream(type: "audio", codec: codec, sampleRate: Int(par.pointee.sample_rate),
                                   channels: Int(par.pointee.ch_layout.nb_channels))
            }
            return nil
        }
    }

    /// The delay of a frame whose own delay is missing or makes no sense.
    static let defaultFrameSeconds = 0.1

    /// Seconds of each packet of `stream`, in order (one packet per APNG frame), each > 0.
    private static func packetDurations(_ file: Opened, stream: UnsafeMutablePointer<AVStream>,
                                        what: String) throws -> [Double] {
        guard let packet = av_packet_alloc() else { throw MediaError(path: file.input.path, reason: "av_packet_alloc failed") }
        defer { var p: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&p) }
        let tb = stream.pointee.time_base
        var out: [Double] = []
        while try file.input.read(into: packet, what: what) {
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream.pointee.index else { continue }
            // A corrupt fcTL can give a negative or zero delay (or the stream a zero time base); such a frame gets
            // the usual 0.1 s, so that the probe's total and the decode's frames agree and never run backwards.
            let seconds = tb.den > 0 ? Double(packet.pointee.duration) * Double(tb.num) / Double(tb.den) : 0
            out.append(seconds.isFinite && seconds > 0 ? seconds : defaultFrameSeconds)
            if out.count > maxAnimationFrames { throw MediaError(path: file.input.path, reason: "\(what): over \(maxAnimationFrames) frames") }
            if file.input.pastDeadline { throw MediaError(path: file.input.path, reason: "\(what): decoding took too long") }
        }
        return out
    }

    /// `wanted` clamped to 1...`full` in each axis.
    static func clamp(_ wanted: PixelSize, to full: PixelSize) -> PixelSize {
        PixelSize(width: min(max(1, wanted.width), full.width), height: min(max(1, wanted.height), full.height))
    }

    /// The largest JPEG `lowres` factor k (1...3) with stored / 2^k >= target in both axes; 0 for none.
    static func lowresFactor(stored: PixelSize, target: PixelSize) -> Int {
        var k = 0
        while k < 3 && stored.width >> (k + 1) >= target.width && stored.height >> (k + 1) >= target.height { k += 1 }
        return k
    }

    /// Decodes a still or an APNG, oriented and scaled to `targetSize(displayed full size)` (never larger). The
    /// size in a JPEG's SOF or a PNG's IHDR is checked against `limits.maxPixels` before anything is decoded; an
    /// APNG's frames decode on demand into a window bounded by `limits.animationBytes`.
    public static func decode(path: String, limits: DecodeLimits = .standard, timeout: Double = 20,
                              targetSize: (PixelSize) -> PixelSize) throws -> DecodedItem {
        if let item = try decodeJPEG(path: path, limits: limits, targetSize: targetSize) { return item }
        // a PNG wanted smaller than it is streams through libpng into the scaler, never held whole
        if let item = try StreamedPNGDecoder.decode(path: path, limits: limits, targetSize: targetSize) { return item }
        if let ihdr = PNGChunks.headerSize(try FileBytes.read(path, count: 32)) {
            try limits.checkPixels(ihdr, path: path, what: "PNG")
        }
        let info = try probe(path: path, limits: limits)
        guard info.kind == .image || info.kind == .animation else {
            throw MediaError(path: path, reason: "not a picture (\(info.kind.rawValue))")
        }
        try limits.checkPixels(info.size, path: path, what: "picture")
        let orientation = Orientation(rawValue: info.orientation) ?? .up
        let wanted = clamp(targetSize(info.size), to: info.size)
        let storedTarget = orientation.swapsAxes ? wanted.transposed : wanted
        if info.kind == .animation {
            try limits.checkAnimationCanvas(info.size, path: path)
            let file = try open(path)
            guard let stream = file.videoStream else { throw MediaError(path: path, reason: "unsupported format: no picture stream") }
            let durations = try packetDurations(file, stream: stream, what: "truncated or corrupt \(label(stream))")
            let frames = try AnimationFrames(path: path, durations: durations, size: wanted,
                                             budgetBytes: limits.windowBytes(canvas: info.size, frame: wanted),
                                             timeout: timeout) {
                try FrameCursor(file: try open(path), target: storedTarget, orientation: orientation, options: [:])
            }
            return DecodedItem(info: info, picture: .animation(frames: frames, loops: info.loops))
        }
        let file = try open(path)
        var options: [String: String] = [:]
        if file.jpeg != nil {  // mjpeg decodes at 1/2, 1/4 or 1/8 size directly
            let k = lowresFactor(stored: orientation.swapsAxes ? info.size.transposed : info.size, target: storedTarget)
            if k > 0 { options["lowres"] = String(k) }
        }
        let cursor = try FrameCursor(file: file, target: storedTarget, orientation: orientation, options: options)
        guard let first = try cursor.next() else { throw MediaError(path: path, reason: "\(cursor.what): no picture decoded") }
        return DecodedItem(info: info, picture: .still(first))
    }

    /// One pass over a picture's frames: packets in, frames out one at a time, oriented and scaled to `target`.
    private final class FrameCursor: AnimationCursor {
        let file: Opened
        let stream: UnsafeMutablePointer<AVStream>
        let codec: FFmpegCodec
        let packet: UnsafeMutablePointer<AVPacket>
        let what: String
        let target: PixelSize
        let orientation: Orientation
        private var draining = false

        init(file: Opened, target: PixelSize, orientation: Orientation, options: [String: String]) throws {
            let path = file.input.path
            guard let stream = file.videoStream else { throw MediaError(path: path, reason: "unsupported format: no picture stream") }
            self.file = file
            self.stream = stream
            self.target = target
            self.orientation = orientation
            what = "truncated or corrupt \(FFmpegImageDecoder.label(stream))"
            codec = try FFmpegCodec(path: path, stream: stream, options: options)
            guard let packet = av_packet_alloc() else { throw MediaError(path: path, reason: "av_packet_alloc failed") }
            self.packet = packet
        }

        deinit { var p: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&p) }

        func next() throws -> RGBAImage? {
            let path = file.input.path
            while true {
                if try codec.receive(what: what) {
                    return orientation.apply(to: try PixelConversion.toRGBA(path: path, frame: codec.frame, target: target))
                }
                if draining { return nil }
                file.input.renewDeadline(FFmpegImageDecoder.timeLimit)  // each frame gets the whole time limit
                if try file.input.read(into: packet, what: what) {
                    defer { av_packet_unref(packet) }
                    guard packet.pointee.stream_index == stream.pointee.index else { continue }
                    try codec.send(packet, what: what)
                } else {
                    draining = true
                    try codec.send(nil, what: what)
                }
            }
        }
    }

    /// The direct path for JPEG: libjpeg-turbo (`TurboJPEGDecoder`) streams it, DCT-scaled, to the target; when
    /// libjpeg refuses the file, it is read once and handed to the mjpeg decoder as one packet, with no container
    /// probing. Returns nil for files that are not JPEG.
    static func decodeJPEG(path: String, limits: DecodeLimits = .standard, targetSize: (PixelSize) -> PixelSize) throws -> DecodedItem? {
        _ = FFmpegLibrary.quiet
        let size = try FileBytes.size(path)
        if size == 0 { throw MediaError(path: path, reason: "empty file") }
        let head = try FileBytes.read(path, count: min(size, headBytes))
        guard JPEGStructure.isJPEG(head) else { return nil }
        guard size <= maxJPEGBytes else { throw MediaError(path: path, reason: "JPEG too large (\(size) bytes)") }
        let tail = size <= head.count ? head
            : try FileBytes.read(path, offset: size - TruncationCheck.tailBytes, count: TruncationCheck.tailBytes)
        var jpeg = JPEGStructure(bytes: head)
        if size > head.count { jpeg.hasEnd = zip(tail, tail.dropFirst()).contains { $0 == 0xFF && $1 == 0xD9 } }
        try TruncationCheck.check(path: path, head: head, tail: tail, fileSize: size, jpeg: jpeg)
        let what = "truncated or corrupt JPEG"
        guard let stored = jpeg.storedSize, stored.width > 0, stored.height > 0 else {
            throw MediaError(path: path, reason: "\(what): no frame header")
        }
        try limits.checkPixels(stored, path: path, what: "JPEG")
        let orientation = Orientation(rawValue: jpeg.orientation) ?? .up
        let shown = orientation.displayedSize(of: stored)
        let info = MediaInfo(path: path, kind: .image, width: shown.width, height: shown.height, frames: 1,
                             duration: nil, loops: 1, orientation: orientation.rawValue,
                             projection: XMPProjection.metadata(head))
        let wanted = clamp(targetSize(shown), to: shown)
        let storedTarget = orientation.swapsAxes ? wanted.transposed : wanted
        let pixels: RGBAImage
        do {
            // libjpeg-turbo first: DCT-scaled and streamed, the picture is never held whole.
            pixels = try TurboJPEGDecoder(path: path, stored: stored, target: storedTarget).decode(timeLimit: timeLimit)
        } catch is TurboJPEGDecoder.Refusal {
            // What libjpeg refuses (lossless or 12-bit JPEG, damage it will not pass) goes to ffmpeg's mjpeg, which
            // decodes it or throws its own one-line error as before; at full size, as mjpeg's `lowres` fails on
            // lossless JPEG ("Operation not permitted").
            let frame = try decodeWholeJPEG(path: path, size: size, lowres: 0, what: what)
            var owned: UnsafeMutablePointer<AVFrame>? = frame
            defer { av_frame_free(&owned) }
            pixels = try PixelConversion.toRGBA(path: path, frame: frame, target: storedTarget)
        }
        return DecodedItem(info: info, picture: .still(orientation.apply(to: pixels)))
    }

    /// Decodes a whole JPEG file read straight into one packet. The decoder and the compressed bytes are freed
    /// before returning, so only the (reduced-size) decoded frame is held while it is scaled.
    private static func decodeWholeJPEG(path: String, size: Int, lowres: Int, what: String) throws -> UnsafeMutablePointer<AVFrame> {
        let codec = try FFmpegCodec(path: path, codecID: AV_CODEC_ID_MJPEG, options: lowres > 0 ? ["lowres": String(lowres)] : [:])
        do {
            guard let packet = av_packet_alloc() else { throw MediaError(path: path, reason: "av_packet_alloc failed") }
            defer { var p: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&p) }
            let rc = av_new_packet(packet, Int32(size))
            guard rc >= 0, let data = packet.pointee.data else {
                throw MediaError(path: path, reason: "av_new_packet: \(FFmpegLibrary.errorText(rc))")
            }
            try FileBytes.read(path, into: data, count: size)
            try codec.send(packet, what: what)
        }
        try codec.send(nil, what: what)
        guard try codec.receive(what: what) else { throw MediaError(path: path, reason: "\(what): no picture decoded") }
        guard let frame = av_frame_alloc() else { throw MediaError(path: path, reason: "av_frame_alloc failed") }
        av_frame_move_ref(frame, codec.frame)
        return frame
    }

    /// The largest JPEG file the direct path reads into memory.
    static let maxJPEGBytes = 256 << 20
}
