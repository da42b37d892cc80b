import Foundation

/// A JSON value as mpv's IPC uses it (and the one JSON string writer: `kiosk probe` quotes with it too): integers kept apart from floating-point numbers (mpv's INT64 and DOUBLE
/// node formats), objects with their keys in order (replies are written `data`, `request_id`, `error`, as mpv
/// writes them).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.int(let x), .double(let y)), (.double(let y), .int(let x)): return Double(x) == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The member `key` of an object (the first, as mpv's node maps do), nil otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// A string's text.
    public var string: String? { if case .string(let s) = self { return s } else { return nil } }

    /// A number as a double (integers too).
    public var number: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// An integer, or a double with no fraction.
    public var integer: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9e15: return Int64(Int(saturating: d, rounding: .towardZero))
        default: return nil
        }
    }
}

// MARK: - parsing

/// Why a line is not JSON.
public struct JSONParseError: Error, CustomStringConvertible, Sendable {
    /// Where and why.
    public let description: String
}

extension JSONValue {
    /// Nesting deeper than this is refused (mpv's own parser stops at 50 levels too).
    public static let maxDepth = 50

    /// Parses one JSON text (RFC 8259); anything after it but white space is an error.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var reader = JSONReader(bytes: bytes)
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.at == bytes.count else { throw reader.error("trailing characters") }
        return value
    }
}

/// A recursive-descent reader over UTF-8 bytes.
private struct JSONReader {
    let bytes: [UInt8]
    var at = 0

    func error(_ why: String) -> JSONParseError { JSONParseError(description: "\(why) at byte \(at)") }

    mutating func skipSpace() {
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONValue.maxDepth else { throw error("nested deeper than \(JSONValue.maxDepth)") }
        skipSpace()
        guard at < bytes.count else { throw error("unexpected end") }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try number()
        }
    }

    mutating func literal(_ word: String) throws(JSONParseError) {
        let w = Array(word.utf8)
        guard at + w.count <= bytes.count, Array(bytes[at..<at + w.count]) == w else { throw error("bad literal") }
        at += w.count
    }

    mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        at += 1
        var members: [(String, JSONValue)] = []
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return .object([]) }
        while true {
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw error("expected a key") }
            let key = try string()
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw error("expected ':'") }
            at += 1
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard at < bytes.count else { throw error("unexpected end") }
            if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
            if bytes[at] == UInt8(ascii: "}") { at += 1; return .object(members) }
            throw error("expected ',' or '}'")
        }
    }

    mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        at += 1
        var items: [JSONValue] = []
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return .array([]) }
        while true {
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard at < bytes.count else { throw error("unexpected end") }
            if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
            if bytes[at] == UInt8(ascii: "]") { at += 1; return .array(items) }
            throw error("expected ',' or ']'")
        }
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard at + 4 <= bytes.count else { throw error("short \\u escape") }
        var v: UInt32 = 0
        for b in bytes[at..<at + 4] {
            guard let digit = UInt8(exactly: b).flatMap({ Int(String(UnicodeScalar($0)), radix: 16) }) else {
                throw error("bad \\u escape")
            }
            v = v << 4 | UInt32(digit)
        }
        at += 4
        return v
    }

    mutating func string() throws(JSONParseError) -> String {
        at += 1
        var out: [UInt8] = []
        while at < bytes.count {
            let b = bytes[at]
            at += 1
            switch b {
            case UInt8(ascii: "\""):
                guard let s = String(validating: out, as: UTF8.self) else { throw error("a string is not UTF-8") }
                return s
            case UInt8(ascii: "\\"):
                guard at < bytes.count else { throw error("unexpected end") }
                let e = bytes[at]
                at += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), at + 6 <= bytes.count, bytes[at] == UInt8(ascii: "\\"),
                       bytes[at + 1] == UInt8(ascii: "u") {
                        at += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("bad surrogate pair") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("bad \\u escape") }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: throw error("bad escape")
                }
            default:
                guard b >= 0x20 else { throw error("a control character in a string") }
                out.append(b)
            }
        }
        throw error("unterminated string")
    }

    mutating func number() throws(JSONParseError) -> JSONValue {
        let start = at
        var isInteger = true
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
        while at < bytes.count {
            let b = bytes[at]
            if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") { at += 1; continue }
            if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") || b == UInt8(ascii: "+")
                || (b == UInt8(ascii: "-") && at > start) {
                isInteger = false
                at += 1
                continue
            }
            break
        }
        let text = String(decoding: bytes[start..<at], as: UTF8.self)
        guard !text.isEmpty, text != "-" else { throw error("unexpected character") }
        if isInteger, let i = Int64(text) { return .int(i) }
        guard let d = Double(text), d.isFinite else { throw error("bad number '\(text)'") }
        return .double(d)
    }
}

// MARK: - writing

extension JSONValue {
    /// Compact JSON text, keys in order (as mpv writes: no spaces).
    public var text: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            // mpv writes doubles with six decimals ("%f"); non-finite values have no JSON form.
            out += d.isFinite ? String(format: "%f", d) : "null"
        case .string(let s): Self.quote(s, into: &out)
        case .array(let items):
            out += "["
            for (i, v) in items.enumerated() {
                if i > 0 { out += "," }
                v.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (k, v)) in members.enumerated() {
                if i > 0 { out += "," }
                Self.quote(k, into: &out)
                out += ":"
                v.write(into: &out)
            }
            out += "}"
        }
    }

    /// `s` as a JSON string literal (quotes, backslashes and control characters escaped).
    public static func quoted(_ s: String) -> String {
        var out = ""
        quote(s, into: &out)
        return out
    }

    private static func quote(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }
}
