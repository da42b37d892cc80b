internal import CFFmpeg
import KioskCore

/// Picks the demuxer for a file from its first bytes alone, refusing weak content matches (random bytes named
/// `.jpg`, a `.txt` that only the `tty` demuxer would take) and demuxers off `LocalMediaPolicy`'s allow list
/// (a concat or HLS playlist under any name). The file name takes no part: a name such as `a%d.png` would make
/// libavformat pick `image2`, which reads it as a pattern and opens `a0.png`.
enum FormatSniffer {
    /// Demuxers that accept almost anything and are never a picture or a clip here.
    private static let refused: Set<String> = ["tty", "bin", "xbin", "adf", "idf", "data"]

    /// The demuxer for `head` (the file's first bytes) or a MediaError "unsupported format".
    static func format(path: String, head: [UInt8]) throws -> UnsafePointer<AVInputFormat> {
        _ = FFmpegLibrary.quiet
        if JPEGStructure.isJPEG(head) {
            // ffmpeg's JPEG probe scores a head with no end marker (any JPEG over the head's size) too low to
            // trust; the SOI marker and the caller's own marker parse decide instead.
            guard let jpeg = av_find_input_format("jpeg_pipe") else { throw MediaError(path: path, reason: "unsupported format") }
            return jpeg
        }
        var head = head
        if let tag = id3TagLength(head), tag + 16 > head.count,
           let after = try? FileBytes.read(path, offset: tag, count: 1 << 16), after.count > 16 {
            head = after  // an ID3 tag (big cover art) longer than the head: judge the audio after it
        }
        var padded = head
        padded.append(contentsOf: [UInt8](repeating: 0, count: Int(AVPROBE_PADDING_SIZE)))
        var score: Int32 = 0
        let found: UnsafePointer<AVInputFormat>? = "".withCString { name in
            padded.withUnsafeMutableBufferPointer { buf in
                var pd = AVProbeData(filename: name, buf: buf.baseAddress, buf_size: Int32(head.count),
                                     mime_type: nil)
                return av_probe_input_format3(&pd, 1, &score)
            }
        }
        guard let format = found, score > AVPROBE_SCORE_EXTENSION,
              let cname = format.pointee.name, !refused.contains(String(cString: cname)) else {
            throw MediaError(path: path, reason: "unsupported format")
        }
        guard LocalMediaPolicy.allows(String(cString: cname)) else {
            throw MediaError(path: path, reason: LocalMediaPolicy.refusal)
        }
        return format
    }

    /// Bytes of an ID3v2 tag at the start of `head` (header, body and footer), or nil when there is none.
    static func id3TagLength(_ head: [UInt8]) -> Int? {
        guard head.count >= 10, head[0] == 0x49, head[1] == 0x44, head[2] == 0x33,
              head[6] & 0x80 == 0, head[7] & 0x80 == 0, head[8] & 0x80 == 0, head[9] & 0x80 == 0 else { return nil }
        let body = Int(head[6]) << 21 | Int(head[7]) << 14 | Int(head[8]) << 7 | Int(head[9])
        return 10 + body + (head[5] & 0x10 != 0 ? 10 : 0)
    }
}
