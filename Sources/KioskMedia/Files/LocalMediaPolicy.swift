import Foundation
import KioskCore

/// What kiosk lets ffmpeg open, in one place: local regular files only (see `LocalFile`), through the `file`
/// protocol only, with a demuxer from a short allow list, and no open or read blocking longer than
/// `--decode-timeout`. Nested demuxers that open other files or URLs (concat, hls, dash, tee, image2 patterns)
/// are not on the list.
public enum LocalMediaPolicy {
    /// The demuxers kiosk plays, by libavformat's short name (a name with commas lists its aliases): the
    /// containers of clips and sounds, and the picture demuxers the decoders use.
    static let demuxers: Set<String> = [
        "mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm", "avi", "mpegts", "mpeg", "ogg", "flac", "wav", "mp3", "aac",
        "jpeg_pipe", "png_pipe", "bmp_pipe", "tiff_pipe", "webp_pipe", "apng", "gif",
    ]

    /// The one line for a file that a demuxer off the list would open (a concat or HLS playlist, say).
    static let refusal = "not a local media file"

    /// Whether the demuxer named `name` may open a file.
    static func allows(_ name: String) -> Bool { demuxers.contains(name) }

    /// `format_whitelist` for libavformat: every allowed name, comma-separated (libavformat matches any part).
    static var formatWhitelist: String { demuxers.sorted().joined(separator: ",") }

    /// Seconds one open or read of a media file may block before ffmpeg's interrupt callback ends it; the
    /// player sets it from `--decode-timeout` (default 20).
    public static var readTimeout: Double {
        get { timeout.value }
        set { timeout.value = newValue }
    }

    private static let timeout = LockedValue(20.0)
}

extension LocalMediaPolicy {
    /// Sets what every decode in this process follows from the player's `config`: how long a read may block
    /// (`--decode-timeout`) and the frame threads a clip gets (`--decode-threads`). Each command that plays or
    /// renders media calls it once at start.
    public static func apply(_ config: PlayerConfig) {
        readTimeout = config.decodeTimeout
        DecodeThreads.requested = config.decodeThreads
    }
}
