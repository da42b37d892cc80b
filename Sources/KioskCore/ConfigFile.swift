/// The appliance's config file: `name = value` lines that stand for the command line's `--name value`
/// (a flag is `name = true`), `#` comments, and `path = …` lines for what to play. Options given on the command
/// line after `--config FILE` win, because they come later.
public enum ConfigFile {
    /// The command-line arguments a config text stands for. Throws a `UsageError` naming the line.
    public static func arguments(from text: String, file: String) throws -> [String] {
        var options: [String] = []
        var paths: [String] = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = stripComment(Substring(raw)).trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            guard let eq = trimmed.firstIndex(of: "=") else {
                throw UsageError("\(file):\(n + 1): expected 'name = value', got '\(trimmed)'")
            }
            let name = trimmed[..<eq].trimmingCharacters(in: .whitespaces)
            var value = trimmed[trimmed.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.first == "\"", value.last == "\"" { value = String(value.dropFirst().dropLast()) }
            guard !name.isEmpty, !name.hasPrefix("-") else { throw UsageError("\(file):\(n + 1): bad option name '\(name)'") }
            switch (name, value.lowercased()) {
            case ("path", _): paths.append(value)
            case (_, "true"), (_, "yes"), (_, "on"): options.append("--\(name)")
            case (_, "false"), (_, "no"), (_, "off"): continue
            default: options += ["--\(name)", value]
            }
        }
        return options + paths
    }

    /// The line without its comment: `#` at the start, or after a space once a value has begun, outside quotes
    /// (so `background = #102030` and `background = "#102030"` both keep their colour).
    static func stripComment(_ line: Substring) -> Substring {
        var quoted = false
        var valueStarted = false
        var afterEquals = false
        var previous: Character = " "
        for i in line.indices {
            let c = line[i]
            if c == "\"" { quoted.toggle() }
            if c == "#" && !quoted {
                let lineStart = line[..<i].allSatisfy { $0 == " " || $0 == "\t" }
                if lineStart || ((previous == " " || previous == "\t") && (!afterEquals || valueStarted)) { return line[..<i] }
            }
            if afterEquals && c != " " && c != "\t" { valueStarted = true }
            if c == "=" && !afterEquals { afterEquals = true }
            previous = c
        }
        return line
    }

    /// `args` with each `--config FILE` replaced by the arguments its file stands for.
    public static func expand(_ args: [String], read: (String) -> String?) throws -> [String] {
        var out: [String] = []
        var i = 0
        while i < args.count {
            let a = args[i]
            var file: String?
            if a == "--config" {
                guard i + 1 < args.count else { throw UsageError("--config needs a value (FILE)") }
                file = args[i + 1]
                i += 2
            } else if a.hasPrefix("--config=") {
                file = String(a.dropFirst(9))
                i += 1
            } else {
                out.append(a)
                i += 1
                continue
            }
            guard let f = file, let text = read(f) else { throw UsageError("--config: cannot read '\(file ?? "")'") }
            out += try arguments(from: text, file: f)
        }
        return out
    }
}
