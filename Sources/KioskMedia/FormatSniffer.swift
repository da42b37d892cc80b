import CFFmpeg
import KioskCore

/// Picks the demuxer for a file from its first bytes, refusing guesses from the file name alone (random bytes
/// named `.jpg`, a `.txt` that only the `tty` demuxer would take) and weak content matches.
enum FormatSniffer {
    /// Demuxers that accept almost anything and are never a picture or a clip here.
    private static let refused: Set<String> = ["tty", "bin", "xbin", "adf", "idf", "data"]

    /// The demuxer for `head` (the file's first bytes) or a MediaError "unsupported format".
    static func format(path: String, head: [UInt8]) throws -> UnsafePointer<AVInputFormat> {
        _ = FFmpegLibrary.quiet
        var padded = head
        padded.append(contentsOf: [UInt8](repeating: 0, count: Int(AVPROBE_PADDING_SIZE)))
        var score: Int32 = 0
        let found: UnsafePointer<AVInputFormat>? = path.withCString { name in
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
        return format
    }
}
