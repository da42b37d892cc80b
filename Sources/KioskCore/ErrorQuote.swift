/// Text quoted in an error line, cut so that one huge bad value (a 10 MB config value, a runaway schedule field)
/// cannot make the line huge: at most `limit` Unicode scalars, then `… (N bytes)` with the whole text's length.
public enum ErrorQuote {
    /// The most Unicode scalars of a value an error line quotes.
    public static let limit = 200

    /// `text` whole when it is at most `limit` scalars, else its first `limit` scalars, an ellipsis and its
    /// length in UTF-8 bytes (`aaaa… (10485760 bytes)`). Scalars, not characters, so a letter carrying
    /// thousands of combining marks is cut too.
    public static func cut(_ text: some StringProtocol) -> String {
        let scalars = text.unicodeScalars
        guard scalars.index(scalars.startIndex, offsetBy: limit + 1, limitedBy: scalars.endIndex) != nil else {
            return String(text)
        }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars.prefix(limit))
        return String(kept) + "… (\(text.utf8.count) bytes)"
    }

    /// A whole error line kept short, whatever its maker quoted: every run between quotes (`'`) longer than `limit`
    /// scalars is cut as `cut` does, so a value echoed whole by any error (`--effect: '<1 MB>' does not start with
    /// a name`) still gives a short line naming its flag. A line of at most `2 * limit` bytes is returned as is.
    public static func line(_ message: String) -> String {
        guard message.utf8.count > 2 * limit else { return message }
        return message.split(separator: "'", omittingEmptySubsequences: false).map { cut($0) }.joined(separator: "'")
    }
}

