/// How a text medium (`smilText`, a `text/plain` file) is shown in its region: SMIL 3.0's smilText attributes,
/// on the element or as `param`s of a `ref`/`text`.
/// - `textMode`: `crawl` (one line moving right to left, a ticker), `scroll` (lines moving up), or any other
///   (`append`, `replace`, `jump`): still;
/// - `textRate`: pixels of the root layout per second (default 40);
/// - `textAlign` (`start`/`left`, `center`, `end`/`right`), `textColor` (default white), `textFontSize` (pixels
///   of the root layout; default half the region's height for a crawl, a tenth for the others) and
///   `textBackgroundColor` (the region's band; default none).
public struct SMILTextStyle: Sendable, Hashable {
    /// How the text moves.
    public enum Mode: String, Sendable, Hashable {
        case crawl, scroll, still
    }
    /// Where a line sits across its region.
    public enum Align: String, Sendable, Hashable {
        case left, center, right
    }
    public var mode: Mode = .still
    public var rate: Double = 40
    public var align: Align = .left
    public var color: LayoutColor = LayoutColor(red: 1, green: 1, blue: 1)
    public var fontSize: Double?
    public var background: LayoutColor?

    /// The defaults.
    public init() {}

    /// The attribute names read.
    public static let names = ["textMode", "textRate", "textAlign", "textColor", "textFontSize", "textBackgroundColor"]

    /// Reads one attribute; a reason when the value is bad.
    public mutating func read(_ name: String, _ raw: String) -> String? {
        let value = raw.trimmingCharacters(in: .whitespaces)
        switch name {
        case "textMode": mode = Mode(rawValue: value) ?? .still
        case "textRate":
            guard value != "auto" else { return nil }
            guard let r = SMILValues.number(value.hasSuffix("px") ? String(value.dropLast(2)) : value), r > 0, r <= 10_000 else {
                return "textRate=\"\(ErrorQuote.cut(raw))\" is not pixels a second (above 0)"
            }
            rate = r
        case "textAlign":
            switch value {
            case "start", "left": align = .left
            case "center": align = .center
            case "end", "right": align = .right
            default: return "textAlign=\"\(ErrorQuote.cut(raw))\" is not start, center, end, left or right"
            }
        case "textColor", "textBackgroundColor":
            guard let c = SMILValues.color(value) else { return "\(name)=\"\(ErrorQuote.cut(raw))\" is not a colour" }
            if name == "textColor" { color = c } else { background = c }
        case "textFontSize":
            guard let s = SMILValues.number(value.hasSuffix("px") ? String(value.dropLast(2)) : value), s >= 4, s <= 1000 else {
                return "textFontSize=\"\(ErrorQuote.cut(raw))\" is not a size in pixels (4 to 1000)"
            }
            fontSize = s
        default: return nil
        }
        return nil
    }
}
