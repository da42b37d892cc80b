/// SMIL attribute values: clock values (`5s`, `500ms`, `1.5min`, `2h`, `00:01:30`, `01:30.5`, `12`), lengths
/// (`120`, `120px`, `25%`) and CSS colours (`#rgb`, `#rrggbb`, `rgb(r,g,b)`, the 16 HTML names, `transparent`).
/// Each parser returns nil for text it does not take; the reader names FILE:LINE and the attribute.
public enum SMILValues {
    /// Seconds from a SMIL clock value (full `hh:mm:ss(.f)`, partial `mm:ss(.f)`, or a timecount with an optional
    /// metric `h`, `min`, `s`, `ms`). Negative, non-finite and malformed values give nil, and so do values past
    /// `TimeSpan.longest` (100 years): every clock value in a layout is a `TimeSpan`'s seconds.
    public static func clock(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty, t.count <= 64 else { return nil }
        if t.contains(":") {
            let parts = t.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 || parts.count == 3 else { return nil }
            guard let seconds = Double(parts[parts.count - 1]), seconds >= 0, seconds < 60,
                  parts[parts.count - 1].first?.isNumber == true, parts[parts.count - 1].split(separator: ".")[0].count == 2,
                  let minutes = Int(parts[parts.count - 2]), (0..<60).contains(minutes), parts[parts.count - 2].count == 2 else { return nil }
            var hours = 0
            if parts.count == 3 {
                guard let h = Int(parts[0]), h >= 0, parts[0].allSatisfy(\.isNumber) else { return nil }
                hours = h
            }
            return TimeSpan(seconds: Double(hours) * 3600 + Double(minutes) * 60 + seconds)?.seconds
        }
        let metrics: [(String, Double)] = [("min", 60), ("ms", 0.001), ("h", 3600), ("s", 1)]
        var number = t, scale = 1.0
        for (suffix, factor) in metrics where t.hasSuffix(suffix) {
            number = String(t.dropLast(suffix.count))
            scale = factor
            break
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." }), number.filter({ $0 == "." }).count <= 1,
              let value = Double(number), value.isFinite, value >= 0 else { return nil }
        return TimeSpan(seconds: value * scale)?.seconds
    }

    /// A region length: pixels (`120`, `120px`, `-10`) or a percentage (`25%`).
    public static func length(_ text: String) -> LayoutLength? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("%") {
            return number(String(t.dropLast())).map(LayoutLength.percent)
        }
        let digits = t.hasSuffix("px") ? String(t.dropLast(2)) : t
        return number(digits).map(LayoutLength.pixels)
    }

    /// A plain decimal number (sign allowed), finite and no larger than a million in size.
    static func number(_ text: String) -> Double? {
        guard !text.isEmpty, text.count <= 32,
              text.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" }),
              let v = Double(text), v.isFinite, abs(v) <= 1_000_000 else { return nil }
        return v
    }

    /// A CSS colour as SMIL takes it.
    public static func color(_ text: String) -> LayoutColor? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t == "transparent" { return .transparent }
        if let named = htmlColors[t] { return hex(named) }
        if t.hasPrefix("#") {
            let digits = String(t.dropFirst())
            guard digits.allSatisfy(\.isHexDigit) else { return nil }
            if digits.count == 3 { return hex(UInt32(digits.map { "\($0)\($0)" }.joined(), radix: 16)) }
            if digits.count == 6 { return hex(UInt32(digits, radix: 16)) }
            return nil
        }
        if t.hasPrefix("rgb("), t.hasSuffix(")") {
            let parts = t.dropFirst(4).dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 3 else { return nil }
            var c: [Double] = []
            for p in parts {
                if p.hasSuffix("%"), let v = number(String(p.dropLast())), (0...100).contains(v) { c.append(v / 100) }
                else if let v = Int(p), (0...255).contains(v) { c.append(Double(v) / 255) }
                else { return nil }
            }
            return LayoutColor(red: c[0], green: c[1], blue: c[2])
        }
        return nil
    }

    private static func hex(_ value: UInt32?) -> LayoutColor? {
        guard let v = value else { return nil }
        return LayoutColor(red: Double(v >> 16 & 0xff) / 255, green: Double(v >> 8 & 0xff) / 255, blue: Double(v & 0xff) / 255)
    }

    /// CSS's 16 basic colour keywords.
    private static let htmlColors: [String: UInt32] = [
        "black": 0x000000, "silver": 0xc0c0c0, "gray": 0x808080, "white": 0xffffff, "maroon": 0x800000, "red": 0xff0000,
        "purple": 0x800080, "fuchsia": 0xff00ff, "green": 0x008000, "lime": 0x00ff00, "olive": 0x808000,
        "yellow": 0xffff00, "navy": 0x000080, "blue": 0x0000ff, "teal": 0x008080, "aqua": 0x00ffff,
    ]

    /// `soundLevel`: a percentage (`50%`, `0%`) or a plain factor; nil when neither or negative.
    public static func soundLevel(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("%") { return number(String(t.dropLast())).flatMap { $0 >= 0 ? $0 / 100 : nil } }
        return number(t).flatMap { $0 >= 0 ? $0 : nil }
    }
}
