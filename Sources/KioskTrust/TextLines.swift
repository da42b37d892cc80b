/// A file's text cut into lines as minisign reads it: split at `\n`, a line's trailing `\r` dropped (so a file
/// saved with CRLF line ends reads the same).
enum TextLines {
    /// The lines of `bytes`, without their ends.
    static func split(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
    }

    /// `line` without spaces and tabs at either end (around a base64 line).
    static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
        guard let first = line.firstIndex(where: { !blank($0) }), let last = line.lastIndex(where: { !blank($0) }) else {
            return line[line.startIndex..<line.startIndex]
        }
        return line[first...last]
    }

    /// The rest of `line` after `prefix`, or nil when it does not start with it.
    static func after(_ prefix: String, in line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let head = Array(prefix.utf8)
        guard line.starts(with: head) else { return nil }
        return line.dropFirst(head.count)
    }
}
