internal import CFFmpeg
import KioskCore

extension MediaFile {
    /// The embedded cover art of an audio file (its attached-picture stream) as a still, scaled to
    /// `targetSize(full size)` and never larger; nil when the file has none.
    public static func coverArt(_ path: String, targetSize: (PixelSize) -> PixelSize) throws -> RGBAImage? {
        _ = FFmpegLibrary.quiet
        let size = try FileBytes.size(path)
        if size == 0 { throw MediaError(path: path, reason: "empty file") }
        let head = try FileBytes.read(path, count: min(size, 1 << 20))
        let demuxer = try FormatSniffer.format(path: path, head: head)
        let input = try FFmpegInput(path: path, format: demuxer, timeLimit: FFmpegImageDecoder.timeLimit, findStreamInfo: false)
        guard let stream = input.streams.first(where: {
            $0.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 && $0.pointee.attached_pic.size > 0
        }) else { return nil }
        let id = stream.pointee.codecpar?.pointee.codec_id ?? AV_CODEC_ID_NONE
        let what = "corrupt cover art (\(avcodec_get_name(id).map { String(cString: $0).uppercased() } ?? "picture"))"
        let codec = try FFmpegCodec(path: path, stream: stream)
        guard let packet = av_packet_alloc() else { throw MediaError(path: path, reason: "av_packet_alloc failed") }
        defer { var p: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&p) }
        let rc = av_packet_ref(packet, &stream.pointee.attached_pic)
        if rc < 0 { throw MediaError(path: path, reason: "av_packet_ref: \(FFmpegLibrary.errorText(rc))") }
        try codec.send(packet, what: what)
        try codec.send(nil, what: what)
        guard try codec.receive(what: what) else { throw MediaError(path: path, reason: "\(what): no picture decoded") }
        let full = PixelSize(width: Int(codec.frame.pointee.width), height: Int(codec.frame.pointee.height))
        let target = FFmpegImageDecoder.clamp(targetSize(full), to: full)
        return try PixelConversion.toRGBA(path: path, frame: codec.frame, target: target)
    }
}
