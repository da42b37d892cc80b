/// Command-line options declared in tables (type, range, default, help), so `--help` and validation come
/// from one place.

/// A usage error: exit status 2 with this one line.
public struct UsageError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The one-line reason, naming the flag or value.
    public var message: String
    /// The command-line argument the error is about, exactly as given, when the parser knows it (an unknown option):
    /// `ConfigFile.locate` finds the config line that set it by this, whatever characters the name holds.
    public var argument: String?
    /// Creates an error; a value quoted in it is cut to a few hundred characters (`ErrorQuote.line`), so no bad
    /// value, however long, makes a long line.
    public init(_ message: String, argument: String? = nil) {
        self.message = ErrorQuote.line(message)
        self.argument = argument
    }
    /// The message.
    public var description: String { message }
}

/// The type and validation of one option's value.
public enum OptionKind: Sendable {
    /// No value: present or not.
    case flag
    /// A number within a closed range.
    case number(ClosedRange<Double>)
    /// A whole number within a closed range.
    case integer(ClosedRange<Int>)
    /// One of a set of words.
    case choice([String])
    /// `WxH`.
    case size
    /// `#RRGGBB`.
    case color
    /// `X,Y` in 0...1.
    case point
    /// Free text.
    case text
}

/// One declared option.
public struct OptionSpec: Sendable {
    /// The long name without dashes.
    public var name: String
    /// The value's type.
    public var kind: OptionKind
    /// The placeholder shown in help (`S`, `WxH`...).
    public var metavar: String
    /// One line of help.
    public var help: String
    /// Whether it may be given more than once.
    public var repeatable: Bool

    /// Declares an option.
    public init(_ name: String, _ kind: OptionKind, metavar: String = "", _ help: String, repeatable: Bool = false) {
        self.name = name
        self.kind = kind
        self.metavar = metavar
        self.help = help
        self.repeatable = repeatable
    }

    /// The left column of `--help`.
    public var usage: String {
        switch kind {
        case .flag: return "--\(name)"
        case .choice(let c): return "--\(name) \(c.joined(separator: "|"))"
        default: return "--\(name) \(metavar.isEmpty ? "VALUE" : metavar)"
        }
    }
}

/// The options and positional arguments of one command, validated.
public struct ParsedOptions: Sendable {
    /// Values by option name (flags map to "").
    public private(set) var values: [String: [String]] = [:]
    /// Positional arguments in order.
    public private(set) var positional: [String] = []

    /// Whether a flag or option was given.
    public func has(_ name: String) -> Bool { values[name] != nil }
    /// The last value given for `name`.
    public func string(_ name: String) -> String? { values[name]?.last }
    /// All values given for `name`.
    public func all(_ name: String) -> [String] { values[name] ?? [] }
    /// A number option (already validated).
    public func number(_ name: String) -> Double? { string(name).flatMap(Double.init) }
    /// An integer option (already validated).
    public func integer(_ name: String) -> Int? { string(name).flatMap { Int($0) } }
    /// A size option (already validated).
    public func size(_ name: String) -> PixelSize? { string(name).flatMap(PixelSize.init(parsing:)) }
    /// A colour option (already validated).
    public func color(_ name: String) -> RGBColor? { string(name).flatMap(RGBColor.init(hex:)) }
    /// A point option (already validated).
    public func point(_ name: String) -> UnitPoint? { string(name).flatMap(OptionParser.parsePoint) }

    /// Parses `args` against `specs`. `--name=value` and `--name value` both work; `--` ends options.
    public static func parse(_ args: [String], specs: [OptionSpec], command: String) throws -> ParsedOptions {
        var out = ParsedOptions()
        var i = 0
        var onlyPositional = false
        while i < args.count {
            let a = args[i]
            i += 1
            if onlyPositional || !a.hasPrefix("-") || a == "-" {
                out.positional.append(a)
                continue
            }
            if a == "--" { onlyPositional = true; continue }
            guard a.hasPrefix("--") else {
                throw UsageError("\(command): unknown option '\(ErrorQuote.cut(a))' (see kiosk \(command) --help)", argument: a)
            }
            var name = String(a.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let spec = specs.first(where: { $0.name == name }) else {
                throw UsageError("\(command): unknown option '--\(ErrorQuote.cut(name))' (see kiosk \(command) --help)", argument: a)
            }
            if case .flag = spec.kind {
                if inline != nil { throw UsageError("--\(name) takes no value") }
                out.values[name] = [""]
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard i < args.count else { throw UsageError("--\(name) needs a value (\(spec.metavar.isEmpty ? "see --help" : spec.metavar))") }
                value = args[i]
                i += 1
            }
            try OptionParser.validate(value, for: spec)
            if spec.repeatable { out.values[name, default: []].append(value) } else { out.values[name] = [value] }
        }
        return out
    }
}

/// Validation of single values.
public enum OptionParser {
    /// Parses `X,Y` with both in 0...1.
    public static func parsePoint(_ s: String) -> UnitPoint? {
        let p = s.split(separator: ",")
        guard p.count == 2, let x = Double(p[0]), let y = Double(p[1]), (0...1).contains(x), (0...1).contains(y) else { return nil }
        return UnitPoint(x: x, y: y)
    }

    /// Throws a `UsageError` naming the flag when `value` does not fit `spec`.
    public static func validate(_ value: String, for spec: OptionSpec) throws {
        let flag = "--\(spec.name)"
        switch spec.kind {
        case .flag, .text:
            if value.isEmpty, case .text = spec.kind { throw UsageError("\(flag): empty value") }
        case .number(let r):
            guard let v = Double(value), v.isFinite else { throw UsageError("\(flag): '\(ErrorQuote.cut(value))' is not a number") }
            guard r.contains(v) else { throw UsageError("\(flag): \(ErrorQuote.cut(value)) is out of range \(fmt(r.lowerBound))...\(fmt(r.upperBound))") }
        case .integer(let r):
            guard let v = Int(value) else { throw UsageError("\(flag): '\(ErrorQuote.cut(value))' is not a whole number") }
            guard r.contains(v) else { throw UsageError("\(flag): \(ErrorQuote.cut(value)) is out of range \(r.lowerBound)...\(r.upperBound)") }
        case .choice(let c):
            guard c.contains(value) else { throw UsageError("\(flag): '\(ErrorQuote.cut(value))' is not one of \(c.joined(separator: ", "))") }
        case .size:
            guard PixelSize(parsing: value) != nil else { throw UsageError("\(flag): '\(ErrorQuote.cut(value))' is not a size WxH (1..16384 each)") }
        case .color:
            guard RGBColor(hex: value) != nil else { throw UsageError("\(flag): '\(ErrorQuote.cut(value))' is not a colour #RRGGBB") }
        case .point:
            guard parsePoint(value) != nil else { throw UsageError("\(flag): '\(ErrorQuote.cut(value))' is not X,Y with both in 0..1") }
        }
    }

    private static func fmt(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(saturating: d, rounding: .towardZero)) : String(d)
    }

    /// `--help` text for a command.
    public static func help(usage: String, summary: String, specs: [OptionSpec]) -> String {
        var s = "usage: \(usage)\n\n\(summary)\n\noptions:\n"
        let width = min(34, (specs.map { $0.usage.count }.max() ?? 10) + 2)
        for spec in specs {
            let left = spec.usage
            let pad = left.count < width ? String(repeating: " ", count: width - left.count) : "\n" + String(repeating: " ", count: width + 2)
            s += "  \(left)\(pad)\(spec.help)\n"
        }
        s += "  --help\(String(repeating: " ", count: max(1, width - 6)))show this help\n"
        return s
    }
}
