import Foundation
import KioskCore

/// A text medium's file (`ref type="text/plain"`): UTF-8 text, at most 64 KiB, read through the media gate (a
/// regular file, beneath `--media-root` when one is set). Blank lines and surrounding spaces go; its lines are
/// the text's lines.
public enum TextMediaFile {
    /// The most a text file may hold.
    public static let maxBytes = 64 * 1024

    /// The text of `path`, or why it cannot be shown (one line).
    public static func read(_ path: String) throws(MediaError) -> String {
        let bytes: [UInt8]
        do {
            let size = try FileBytes.size(path)
            guard size <= maxBytes else { throw MediaError(path: path, reason: "\(size) bytes: a text is at most \(maxBytes / 1024) KiB") }
            bytes = try FileBytes.read(path, count: size)
        } catch let error as MediaError {
            throw error
        } catch {
            throw MediaError(path: path, reason: "\(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw MediaError(path: path, reason: "not UTF-8 text") }
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .joined(separator: "\n")
    }
}
