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

    /// The most bytes an error line may take as the log writes it (`\xNN` for a control character).
    public static var lineBudget: Int { 4 * limit + 200 }

    /// A whole error line kept short, whatever its maker quoted: every run between quotes (`'`) longer than `limit`
    /// scalars is cut as `cut` does, so a value echoed whole by any error (`--effect: '<1 MB>' does not start with
    /// a name`) still gives a short line naming its flag; a line still over `lineBudget` bytes as logged (a value
    /// full of quotes, or of control characters, each logged as 4 bytes) is then cut as a whole. A line within the
    /// budget is returned as is.
    public static func line(_ message: String) -> String {
        guard loggedBytes(message.unicodeScalars) > lineBudget else { return message }
        let runs = message.split(separator: "'", omittingEmptySubsequences: false).map { cut($0) }.joined(separator: "'")
        guard loggedBytes(runs.unicodeScalars) > lineBudget else { return runs }
        let tail = "… (\(message.utf8.count) bytes)"
        var kept = String.UnicodeScalarView()
        var used = 0
        for scalar in runs.unicodeScalars {
            used += loggedBytes(scalar)
            if used > lineBudget - tail.utf8.count { break }
            kept.append(scalar)
        }
        return String(kept) + tail
    }

    /// The bytes `scalars` take as the log writes them: a control character as `\xNN`, the rest as UTF-8.
    private static func loggedBytes(_ scalars: String.UnicodeScalarView) -> Int {
        scalars.reduce(0) { $0 + loggedBytes($1) }
    }

    private static func loggedBytes(_ scalar: Unicode.Scalar) -> Int {
        scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value) ? 4 : UTF8.width(scalar)
    }
}

