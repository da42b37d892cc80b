/// Times as a player writes them on screen: `0:07`, `1:23`, `1:02:03`.
public enum DurationText {
    /// `seconds` rounded down to whole seconds, as `M:SS` (or `H:MM:SS` from an hour on); negative and
    /// non-finite values are `0:00`.
    public static func format(_ seconds: Double) -> String {
        let total = seconds.isFinite ? Int(clamping: seconds.rounded(.down), to: 0...Int.max) ?? 0 : 0
        let h = total / 3600, m = total / 60 % 60, s = total % 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    /// `elapsed / length` (`1:23 / 4:05`); just the elapsed time when the length is not finite.
    public static func progress(_ elapsed: Double, of length: Double) -> String {
        length.isFinite ? "\(format(elapsed)) / \(format(length))" : format(elapsed)
    }

    /// A countdown of the time left, rounded up so it reads `0:01` in the last second and `0:00` only at the end.
    public static func remaining(_ left: Double) -> String {
        format(left.isFinite ? max(0, left).rounded(.up) : 0)
    }
}
