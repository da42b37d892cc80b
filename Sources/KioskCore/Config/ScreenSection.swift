/// A `[screen NAME]` section of a config file: the options and paths of one screen of several (issue 40).
public struct ScreenSection: Sendable, Equatable {
    /// One line of a section with the `FILE:LINE` it came from.
    public struct Entry: Sendable, Equatable {
        /// What the line says: an option, a flag (on or off) or a path.
        public var line: ConfigLine
        /// Its `FILE:LINE`.
        public var origin: String
    }

    /// The screen's NAME, as `--screen NAME:…` names it.
    public var name: String
    /// The `FILE:LINE` of the `[screen NAME]` header.
    public var origin: String
    /// The section's lines (blank ones left out), in file order.
    public var entries: [Entry]

    /// The section's `path = …` lines, in order, each with its origin.
    public var paths: [(path: String, origin: String)] {
        entries.compactMap { e in e.line.path.map { ($0, e.origin) } }
    }
}

/// A config text read whole: the global lines as arguments and the `[screen NAME]` sections after them.
public struct ConfigDocument: Sendable {
    /// The arguments of the lines before the first section, options first then paths, each with its `FILE:LINE`.
    public var global: [(argument: String, origin: String)] = []
    /// The sections in file order.
    public var sections: [ScreenSection] = []
}

/// A command line with each `--config FILE` replaced by its global lines, and the files' sections.
public struct ExpandedArguments: Sendable {
    /// The arguments.
    public var args: [String] = []
    /// Each argument's `FILE:LINE`, nil for the command line's own.
    public var origins: [String?] = []
    /// The `[screen NAME]` sections of the files, in order.
    public var sections: [ScreenSection] = []

    /// Nothing yet.
    public init() {}
}

extension ConfigFile {
    /// The global lines and the sections of a config text; throws the first bad line's error (`FILE:LINE: …`).
    public static func document(from text: String, file: String) throws(UsageError) -> ConfigDocument {
        var problems: [UsageError] = []
        let read = document(from: text, file: file, problems: &problems)
        if let first = problems.first { throw first }
        return read
    }

    /// As `document(from:file:)`, reading on past bad lines: each one's error is added to `problems` (in line
    /// order) and the line left out. A section's line is checked as it is read: its name must be a per-screen
    /// option (`ScreenOptions.perScreen`) and its value must fit the option, so each bad one has its own line.
    public static func document(from text: String, file: String, problems: inout [UsageError]) -> ConfigDocument {
        var options: [(argument: String, origin: String)] = []
        var paths: [(argument: String, origin: String)] = []
        var sections: [ScreenSection] = []
        var badHeader = false  // the lines under a bad header are checked, and belong to no section
        for (n, raw) in lines(of: text).enumerated() {
            let at = "\(file):\(n + 1)"
            do throws(UsageError) {
                let line: ConfigLine
                do throws(UsageError) {
                    line = try read(line: raw, at: at)
                } catch {
                    badHeader = badHeader || stripComment(raw).trimmingCharacters(in: blank).hasPrefix("[")
                    throw error
                }
                if case .screenSection(let name) = line {
                    sections.append(ScreenSection(name: name, origin: at, entries: []))
                    badHeader = false
                } else if sections.isEmpty && !badHeader {
                    options += line.arguments.map { ($0, at) }
                    if let p = line.path { paths.append((p, at)) }
                } else if line != .blank {
                    try ScreenOptions.check(line, at: at)
                    if !badHeader { sections[sections.count - 1].entries.append(ScreenSection.Entry(line: line, origin: at)) }
                }
            } catch {
                problems.append(error)
            }
        }
        return ConfigDocument(global: options + paths, sections: sections)
    }
}
