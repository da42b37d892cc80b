internal import CFFmpeg
import Glibc

/// Process-wide facts about the linked ffmpeg libraries: logging is silenced once, errors become text.
enum FFmpegLibrary {
    /// Silences ffmpeg's own logging; evaluated once, before any ffmpeg object is created.
    static let quiet: Void = { av_log_set_level(AV_LOG_QUIET) }()

    /// The text of an ffmpeg error code, as `av_strerror` gives it.
    static func errorText(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let text: String = buffer.withUnsafeMutableBufferPointer { buf -> String in
            guard let base = buf.baseAddress else { return "error \(code)" }
            if av_strerror(code, base, buf.count) < 0 { return "error \(code)" }
            return String(cString: base)
        }
        return text
    }
}
