import Foundation
import KioskCore

/// An item's caption in a text file next to it: for `photo.jpg`, `photo.jpg.txt`, else `photo.txt`. The text
/// is UTF-8 (a byte-order mark is dropped, invalid bytes become U+FFFD) and only its first `maxBytes` are read;
/// it goes through `LocalFile`, so a FIFO, device or folder of that name is refused with one line, never opened
/// to block.
enum CaptionSidecar {
    /// The most bytes read of a sidecar; a longer one is cut (at a character boundary).
    static let maxBytes = 4096

    /// The sidecar names for the media file at `path`, the more specific first.
    static func candidates(for path: String) -> [String] {
        let name = (path as NSString).lastPathComponent
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return [path + ".txt"] }
        let stem = (path as NSString).deletingLastPathComponent
        let bare = String(name[..<dot]) + ".txt"
        return [path + ".txt", stem.isEmpty ? bare : stem + "/" + bare]
    }

    /// The text of the first sidecar of `path` that exists (nil when there is none). One that exists but is not
    /// a readable regular file is logged with one line naming it and skipped.
    static func text(for path: String, log: Log) -> String? {
        for candidate in candidates(for: path) where FileAccess.status(candidate) != nil {
            do throws(MediaError) {
                let file = try BoundedFileReads(candidate, budget: maxBytes)
                let bytes = file.read(at: 0, count: maxBytes)
                return decode(bytes, truncated: file.size > bytes.count)
            } catch {
                log.warn("\(candidate): caption file ignored: \(error.reason)")
            }
        }
        return nil
    }

    /// `bytes` as text; when `truncated`, a character cut in two at the end is dropped.
    static func decode(_ bytes: [UInt8], truncated: Bool) -> String {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        if truncated {  // drop the last character's bytes when the cut left it unfinished
            var lead = body.endIndex
            while lead > body.startIndex, body[lead - 1] & 0xC0 == 0x80, body.endIndex - lead < 3 { lead -= 1 }
            if lead > body.startIndex {
                let first = body[lead - 1]
                let needed = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
                if body.endIndex - (lead - 1) < needed { body = body[..<(lead - 1)] }
            }
        }
        return String(decoding: body, as: UTF8.self)
    }
}
