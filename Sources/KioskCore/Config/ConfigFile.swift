import Foundation

/// The appliance's config file: `name = value` lines that stand for the command line's `--name value`
/// (a flag is `name = true`), `#` comments, and `path = …` lines for what to play. Options given on the command
/// line after `--config FILE` win, because they come later. A `[screen NAME]` line starts the options of one screen
/// of several (`ScreenSection`, read by `kiosk play` and `kiosk check-config` only).
public enum ConfigFile {
    /// What is trimmed around a line, a name and a value: spaces, tabs and a stray carriage return (an old Mac or
    /// half-converted line end), which no option value means.
    static let blank = CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\r"))

    /// Options whose own values include a word that otherwise turns a flag on or off: `cec = off` is `--cec off`
    /// (no CEC), not `--cec` left out (which is `auto`).
    static let wordValued: Set<String> = Set(["cec"]).union(CommandSpecs.healthWordValued)

    /// The lines of a config text, empty ones kept (their numbers are the file's). "\r\n" is one Character in
    /// Swift, so a file saved with CRLF line ends (a Windows editor) is split there too.
    public static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    }

    /// The command-line arguments a config text stands for. Throws a `UsageError` naming the line.
    public static func arguments(from text: String, file: String) throws -> [String] {
        try located(from: text, file: file).map(\.argument)
    }

    /// The arguments a config text stands for, each with the `FILE:LINE` it came from. A `[screen NAME]` section
    /// is an error here: only `kiosk play` and `kiosk check-config` read sections (`document(from:file:)`).
    public static func located(from text: String, file: String) throws -> [(argument: String, origin: String)] {
        let document = try document(from: text, file: file)
        if let section = document.sections.first { throw sectionsNotRead(section) }
        return document.global
    }

    /// The error for a `[screen NAME]` section where a command reads none.
    public static func sectionsNotRead(_ section: ScreenSection) -> UsageError {
        UsageError("\(section.origin): [screen \(section.name)] sections are read by kiosk play, record, snapshot and check-config only")
    }

    /// What one config line (`number`, from 1) says: its options and its `path = …` entry, each with the
    /// `FILE:LINE` it came from. One line is read on its own, so a checker can read every line of a file (and
    /// report every bad one) in one pass. A `[screen NAME]` header is an error here (see `document(from:file:)`).
    public static func located(line raw: Substring, number: Int, file: String) throws
        -> (options: [(argument: String, origin: String)], paths: [(argument: String, origin: String)]) {
        let at = "\(file):\(number)"
        let read = try read(line: raw, at: at)
        if case .screenSection(let name) = read {
            throw UsageError("\(at): [screen \(name)] sections are read by kiosk play and check-config only")
        }
        return (read.arguments.map { ($0, at) }, read.path.map { [($0, at)] } ?? [])
    }

    /// What one config line is, read on its own; `at` (`FILE:LINE`) names it in the error for a bad line.
    public static func read(line raw: Substring, at: String) throws(UsageError) -> ConfigLine {
        let trimmed = stripComment(raw).trimmingCharacters(in: blank)
        if trimmed.isEmpty { return .blank }
        if trimmed.hasPrefix("[") { return try sectionHeader(trimmed, at: at) }
        guard let eq = trimmed.firstIndex(of: "=") else {
            throw UsageError("\(at): expected 'name = value', got '\(ErrorQuote.cut(trimmed))'")
        }
        let name = trimmed[..<eq].trimmingCharacters(in: blank)
        var value = trimmed[trimmed.index(after: eq)...].trimmingCharacters(in: blank)
        if value.count >= 2, value.first == "\"", value.last == "\"" { value = String(value.dropFirst().dropLast()) }
        guard !name.isEmpty, !name.hasPrefix("-") else { throw UsageError("\(at): bad option name '\(ErrorQuote.cut(name))'") }
        switch (name, value.lowercased()) {
        case ("path", _): return .path(value)
        case (_, _) where wordValued.contains(name): return .option(name: name, value: value)
        case (_, "true"), (_, "yes"), (_, "on"): return .flag(name: name, on: true)
        case (_, "false"), (_, "no"), (_, "off"): return .flag(name: name, on: false)
        default: return .option(name: name, value: value)
        }
    }

    /// A `[…]` line: `[screen NAME]`, or the error for any other header (naming the one kind there is).
    private static func sectionHeader(_ trimmed: String, at: String) throws(UsageError) -> ConfigLine {
        let other = UsageError("\(at): expected 'name = value', got '\(ErrorQuote.cut(trimmed))' (the only section is [screen NAME])")
        guard trimmed.hasSuffix("]") else { throw other }
        let words = trimmed.dropFirst().dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.first == "screen" else { throw other }
        guard words.count == 2, let name = words.last.map(String.init), ScreenName.isValid(name) else {
            throw UsageError("\(at): '\(ErrorQuote.cut(trimmed))': \(ScreenName.rule)")
        }
        return .screenSection(name)
    }

    /// The line without its comment: `#` at the start, or after a space once a value has begun, outside quotes
    /// (so `background = #102030` and `background = "#102030"` both keep their colour).
    static func stripComment(_ line: Substring) -> Substring {
        var quoted = false
        var valueStarted = false
        var afterEquals = false
        var previous: Character = " "
        var blanksOnly = true  // only spaces and tabs so far: a `#` here starts a comment line
        for i in line.indices {
            let c = line[i]
            if c == "\"" { quoted.toggle() }
            if c == "#" && !quoted {
                if blanksOnly || ((previous == " " || previous == "\t") && (!afterEquals || valueStarted)) { return line[..<i] }
            }
            if afterEquals && c != " " && c != "\t" { valueStarted = true }
            if c == "=" && !afterEquals { afterEquals = true }
            if c != " " && c != "\t" { blanksOnly = false }
            previous = c
        }
        return line
    }

    /// `args` with each `--config FILE` replaced by the arguments its file stands for.
    public static func expand(_ args: [String], read: (String) -> String?) throws -> [String] {
        try expandLocated(args, read: read).args
    }

    /// As `expand`, with each argument's origin: `FILE:LINE` for those a config file gave, nil for the command
    /// line's own. A `[screen NAME]` section in a file is an error here (see `expandScreens`).
    public static func expandLocated(_ args: [String], read: (String) -> String?) throws -> (args: [String], origins: [String?]) {
        let expanded = try expandScreens(args, read: read)
        if let section = expanded.sections.first { throw sectionsNotRead(section) }
        return (expanded.args, expanded.origins)
    }

    /// As `expandLocated`, with the `[screen NAME]` sections of the files read, in order (`kiosk play`).
    public static func expandScreens(_ args: [String], read: (String) -> String?) throws -> ExpandedArguments {
        var out = ExpandedArguments()
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
                out.args.append(a)
                out.origins.append(nil)
                i += 1
                continue
            }
            guard let f = file, let text = read(f) else { throw UsageError("--config: cannot read '\(file ?? "")'") }
            let document = try document(from: text, file: f)
            for (argument, origin) in document.global {
                out.args.append(argument)
                out.origins.append(origin)
            }
            out.sections += document.sections
        }
        return out
    }

    /// `error` prefixed with the `FILE:LINE` of the config line that set the flag it names (`--name…` at its
    /// start, or `'--name'` in it), when the last setting of that flag came from a config file.
    public static func locate(_ error: UsageError, args: [String], origins: [String?]) -> UsageError {
        if origins.contains(where: { $0.map { error.message.hasPrefix($0 + ":") } ?? false }) { return error }
        if let argument = error.argument, let i = args.lastIndex(of: argument), i < origins.count, let origin = origins[i] {
            return UsageError("\(origin): \(error.message)")
        }
        for named in flagNames(in: error.message) {
            // a name the error cut (`ErrorQuote`: its first characters, then "… (N bytes)") matches by those characters
            let cut = named.range(of: "… (").map { String(named[..<$0.lowerBound]) }
            let name = cut ?? named
            if let i = args.lastIndex(where: { $0 == name || $0.hasPrefix(name + "=") || (cut != nil && $0.hasPrefix(name)) }),
               i < origins.count, let origin = origins[i] {
                return UsageError("\(origin): \(error.message)")
            }
        }
        return error
    }

    /// The `--name`s an error message may be about, likeliest first: a leading one (`--zoom: …`: up to `:`, `=` or
    /// a space), then each quoted one (`unknown option '--zo+om'`), ending at any later quote, since an unknown
    /// name may hold any character, a quote too. A handful of quotes at most: `UsageError` keeps lines short.
    static func flagNames(in message: String) -> [String] {
        var names: [String] = []
        if message.hasPrefix("--") {
            names.append(String(message.prefix { $0 != ":" && $0 != "=" && $0 != " " }))
        }
        let quotes = message.indices.filter { message[$0] == "'" }
        for (n, open) in quotes.enumerated() where message[message.index(after: open)...].hasPrefix("--") {
            for close in quotes.dropFirst(n + 1).prefix(8) {  // more: the parser's `argument` finds those
                let quoted = message[message.index(after: open)..<close]
                names.append(String(quoted.prefix { $0 != "=" }))
            }
        }
        return names.filter { $0.count > 2 }
    }
}
