/// The NAME of one screen of several: it becomes MQTT topics, file names and Home Assistant ids, so it is
/// `[a-z0-9][a-z0-9_-]{0,31}`.
public enum ScreenName {
    /// The rule, as an error states it.
    public static let rule = "a screen NAME is 1 to 32 of a-z, 0-9, _ and -, starting with a letter or digit"

    /// Whether `name` keeps the rule.
    public static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 32, isLowerOrDigit(first) else { return false }
        return bytes.allSatisfy { isLowerOrDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    private static func isLowerOrDigit(_ b: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b)
    }
}

/// The outputs one screen shows on.
public enum ScreenConnectors: Sendable, Equatable, CustomStringConvertible {
    /// One connector (`HDMI-A-1`).
    case single(String)
    /// One canvas across the outputs, left to right (`A+B`), with `bezel` pixels drawn as hidden between two panels.
    case span([String], bezel: Int)
    /// The same content on each output, at each one's size (`A,B`).
    case mirror([String])

    /// The connector names, in the order given.
    public var names: [String] {
        switch self {
        case .single(let name): return [name]
        case .span(let names, _), .mirror(let names): return names
        }
    }

    /// The kind and the connectors: `single HDMI-A-1`, `span DP-1+DP-2, bezel 40 px`, `mirror DP-1,DP-2`.
    public var description: String {
        switch self {
        case .single(let name): return "single \(name)"
        case .span(let names, let bezel): return "span \(names.joined(separator: "+")), bezel \(bezel) px"
        case .mirror(let names): return "mirror \(names.joined(separator: ","))"
        }
    }
}

/// One `--screen NAME:CONNECTORS:SOURCE` (or config `screen = …` line), parsed: split at its first two `:` only,
/// so SOURCE may be a URL with colons of its own.
public struct ScreenSpec: Sendable, Equatable {
    /// The screen's NAME.
    public var name: String
    /// Its connectors (a span's bezel is 0 here: it comes from `bezel` options).
    public var connectors: ScreenConnectors
    /// What it plays (a file, folder, playlist, SMIL or URL); nil when SOURCE is empty (its section's paths).
    public var source: String?

    /// The screen `text` describes, or a usage error naming it and the reason.
    public static func parse(_ text: String) throws(UsageError) -> ScreenSpec {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw UsageError("--screen '\(ErrorQuote.cut(text))': expected NAME:CONNECTORS:SOURCE (e.g. lobby:HDMI-A-1:/srv/media)")
        }
        let name = String(parts[0])
        guard ScreenName.isValid(name) else {
            throw UsageError("--screen '\(ErrorQuote.cut(text))': \(ScreenName.rule)")
        }
        let connectors = try parseConnectors(String(parts[1]), screen: name)
        return ScreenSpec(name: name, connectors: connectors, source: parts[2].isEmpty ? nil : String(parts[2]))
    }

    /// CONNECTORS: one name, `A+B` (a span) or `A,B` (a mirror); each name once, no empty one.
    static func parseConnectors(_ text: String, screen: String) throws(UsageError) -> ScreenConnectors {
        let label = "--screen \(screen)"
        guard !text.isEmpty else {
            throw UsageError("\(label): no connector (CONNECTORS is one, e.g. HDMI-A-1, A+B for a span or A,B for a mirror)")
        }
        let span = text.contains("+"), mirror = text.contains(",")
        if span && mirror {
            throw UsageError("\(label): '\(ErrorQuote.cut(text))' mixes + (a span) and , (a mirror): a screen is one or the other")
        }
        let names = text.split(separator: span ? "+" : ",", omittingEmptySubsequences: false).map(String.init)
        for name in names {
            guard !name.isEmpty else { throw UsageError("\(label): an empty connector name in '\(ErrorQuote.cut(text))'") }
            guard !name.contains(where: { $0.isWhitespace || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) else {
                throw UsageError("\(label): '\(ErrorQuote.cut(name))' is not a connector name (see kiosk outputs)")
            }
        }
        if let twice = names.enumerated().first(where: { names[..<$0.offset].contains($0.element) })?.element {
            throw UsageError("\(label): connector \(twice) is named twice")
        }
        if span { return .span(names, bezel: 0) }
        if mirror { return .mirror(names) }
        return .single(text)
    }
}

extension ScreenConnectors {
    /// The canvas a screen of this kind composes on when each of its outputs is `size`, and each output's part of
    /// it: a span's outputs side by side, left to right, `bezel` pixels (hidden behind the panels' frames) between
    /// two; a mirror's and a single output's the whole canvas.
    public func canvas(outputSize size: PixelSize) -> (size: PixelSize, parts: [(connector: String, rect: PixelRect)]) {
        switch self {
        case .single(let name):
            return (size, [(name, PixelRect(x: 0, y: 0, width: size.width, height: size.height))])
        case .mirror(let names):
            return (size, names.map { ($0, PixelRect(x: 0, y: 0, width: size.width, height: size.height)) })
        case .span(let names, let bezel):
            let parts = names.enumerated().map { i, name in
                (name, PixelRect(x: i * (size.width + bezel), y: 0, width: size.width, height: size.height))
            }
            let width = names.count * size.width + max(0, names.count - 1) * bezel
            return (PixelSize(width: width, height: size.height), parts)
        }
    }
}
