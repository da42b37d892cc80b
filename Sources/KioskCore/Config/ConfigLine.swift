/// What one line of a config file says, read on its own (`ConfigFile.read(line:at:)`).
public enum ConfigLine: Sendable, Equatable {
    /// Nothing: an empty line or a comment.
    case blank
    /// `name = value`: the option `--name value`.
    case option(name: String, value: String)
    /// `name = true|yes|on`: the flag `--name`; `name = false|no|off`: left out (in a `[screen]` section: unset,
    /// so the screen does without what the global lines set).
    case flag(name: String, on: Bool)
    /// `path = …`: something to play.
    case path(String)
    /// `[screen NAME]`: the lines after it, up to the next header, are that screen's.
    case screenSection(String)

    /// The command-line arguments the line stands for: none for a blank, a path, a header or a flag that is off.
    public var arguments: [String] {
        switch self {
        case .option(let name, let value): return ["--\(name)", value]
        case .flag(let name, on: true): return ["--\(name)"]
        case .blank, .flag, .path, .screenSection: return []
        }
    }

    /// The path of a `path = …` line.
    public var path: String? {
        if case .path(let p) = self { return p }
        return nil
    }

    /// The option a `name = …` line sets (not `path`).
    public var optionName: String? {
        switch self {
        case .option(let name, _), .flag(let name, _): return name
        case .blank, .path, .screenSection: return nil
        }
    }
}
