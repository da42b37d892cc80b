/// input.conf command lines (`set pause yes`, `loadfile "/srv/a b.jpg" append`): words split at blanks, with
/// "double" (backslash escapes) and 'single' quotes, and mpv's command prefixes dropped.
enum MPVTextCommand {
    /// Prefixes mpv allows before a command; they change only how mpv shows the result.
    static let prefixes: Set<String> = ["no-osd", "osd-auto", "osd-bar", "osd-msg", "osd-msg-bar", "raw",
                                        "expand-properties", "repeatable", "async", "sync"]

    /// The command's words; none for a blank line or a comment.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for ch in line {
            if escaped {
                switch ch {
                case "n": current.append("\n")
                case "t": current.append("\t")
                default: current.append(ch)
                }
                escaped = false
                continue
            }
            if let q = quote {
                if ch == q { quote = nil } else if ch == "\\" && q == "\"" { escaped = true } else { current.append(ch) }
                continue
            }
            switch ch {
            case "#" where !inWord:
                return strip(words)
            case " ", "\t", "\r", "\n":
                if inWord { words.append(current) }
                current = ""
                inWord = false
            case "\"", "'":
                quote = ch
                inWord = true
            default:
                current.append(ch)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return strip(words)
    }

    private static func strip(_ words: [String]) -> [String] {
        Array(words.drop { prefixes.contains($0) })
    }
}
