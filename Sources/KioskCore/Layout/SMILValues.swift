/// SMIL attribute values: clock values (`5s`, `500ms`, `1.5min`, `2h`, `00:01:30`, `01:30.5`, `12`), lengths
/// (`120`, `120px`, `25%`) and CSS colours (`#rgb`, `#rrggbbaa`, `rgb()`, `rgba()`, CSS's names, `transparent`).
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

    /// A CSS colour as SMIL and the signage players take it: `transparent`, CSS Color 4's 148 names (any case),
    /// `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, and `rgb()`/`rgba()` with three numbers (0-255) or percentages and
    /// an optional alpha (0-1 or a percentage), comma- or space-separated (`rgb(255 0 0 / 50%)`).
    public static func color(_ text: String) -> LayoutColor? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard t.count <= 64 else { return nil }
        if t == "transparent" { return .transparent }
        if let named = CSSColorNames.table[t] { return LayoutColor(rgb: named) }
        if t.hasPrefix("#") { return hexColor(String(t.dropFirst())) }
        for name in ["rgba(", "rgb("] where t.hasPrefix(name) && t.hasSuffix(")") {
            return functionColor(String(t.dropFirst(name.count).dropLast()))
        }
        return nil
    }

    /// The digits after `#`: 3 or 4 (each doubled), 6 or 8; the last pair, if any, is alpha.
    private static func hexColor(_ digits: String) -> LayoutColor? {
        guard [3, 4, 6, 8].contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
        let full = digits.count <= 4 ? digits.map { "\($0)\($0)" }.joined() : digits
        guard let v = UInt32(full, radix: 16) else { return nil }
        return full.count == 8 ? LayoutColor(rgb: v >> 8, alpha: Double(v & 0xff) / 255) : LayoutColor(rgb: v)
    }

    /// What is inside `rgb(…)` or `rgba(…)`.
    private static func functionColor(_ inner: String) -> LayoutColor? {
        var body = inner, alphaText: String?
        if let slash = inner.firstIndex(of: "/") {  // CSS 4: `r g b / a`
            body = String(inner[..<slash])
            alphaText = inner[inner.index(after: slash)...].trimmingCharacters(in: .whitespaces)
        }
        let separators: Set<Character> = body.contains(",") ? [","] : [" "]
        var parts = body.split(whereSeparator: { separators.contains($0) }).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        if parts.count == 4, alphaText == nil { alphaText = parts.removeLast() }
        guard parts.count == 3 else { return nil }
        var c: [Double] = []
        for p in parts {
            if p.hasSuffix("%"), let v = number(String(p.dropLast())), (0...100).contains(v) { c.append(v / 100) }
            else if let v = number(p), (0...255).contains(v) { c.append(v / 255) }
            else { return nil }
        }
        var alpha = 1.0
        if let a = alphaText {
            if a.hasSuffix("%"), let v = number(String(a.dropLast())), (0...100).contains(v) { alpha = v / 100 }
            else if let v = number(a), (0...1).contains(v) { alpha = v }
            else { return nil }
        }
        return LayoutColor(red: c[0], green: c[1], blue: c[2], alpha: alpha)
    }

    /// `soundLevel`: a percentage (`50%`, `0%`) or a plain factor; nil when neither or negative.
    public static func soundLevel(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("%") { return number(String(t.dropLast())).flatMap { $0 >= 0 ? $0 / 100 : nil } }
        return number(t).flatMap { $0 >= 0 ? $0 : nil }
    }
}
