internal import CFFmpeg
import Glibc
import KioskCore

/// The tags of an audio or video file as libavformat reads them into its metadata dictionaries (ID3, MP4
/// `ilst`, Vorbis comments, Matroska tags): the container's own first, then each stream's in order, the first
/// value of a key winning. Keys match without regard to case, as `av_dict_get` matches them.
struct ContainerTags {
    /// The tags kept, by lowercase key.
    private(set) var values: [String: String] = [:]

    /// The keys read.
    static let keys = ["title", "artist", "album", "date", "track", "description", "creation_time"]
    /// The longest value kept, in bytes (a tag is a line, not a lyrics sheet).
    static let maxValue = 16 * 1024
    /// Seconds opening the file may take at most (less when `--decode-timeout` is shorter).
    static let timeLimit = 5.0

    /// The value of `key` (one of `keys`), nil when absent or empty.
    subscript(key: String) -> String? { values[key] }

    /// Opens `path` (whose first bytes are `head`) under `LocalMediaPolicy` and reads its tags. The error is
    /// one line naming the file: an unsupported format, a refused demuxer, a file that cannot be opened.
    init(path: String, head: [UInt8]) throws(MediaError) {
        let input: FFmpegInput
        do {
            let format = try FormatSniffer.format(path: path, head: head)
            input = try FFmpegInput(path: path, format: format,
                                    timeLimit: min(Self.timeLimit, LocalMediaPolicy.readTimeout), findStreamInfo: false)
        } catch let error as MediaError {
            throw error
        } catch {
            throw MediaError(path: path, reason: "\(error)")
        }
        take(input.context.pointee.metadata)
        for stream in input.streams { take(stream.pointee.metadata) }
    }

    /// Adds the wanted keys of `dictionary` that are not set yet.
    private mutating func take(_ dictionary: OpaquePointer?) {
        guard let dictionary else { return }
        for key in Self.keys where values[key] == nil {
            guard let entry = av_dict_get(dictionary, key, nil, 0), let raw = entry.pointee.value else { continue }
            let length = strnlen(raw, Self.maxValue)
            let text = MetadataText.decode(UnsafeRawBufferPointer(start: raw, count: length), utf8: true)
            if !text.isEmpty { values[key] = text }
        }
    }
}
