/// The one way a floating-point number becomes an integer in kiosk's sources (`LayeringTests` holds every other
/// file to it). A number from outside (an IPC request, an MQTT payload, the state file, a playlist, or a time
/// derived from them) and a pixel computed from one alike: `Int(someDouble)` traps when the value is NaN,
/// infinite or past `Int.max`/`Int.min` (1e19, 2^63), which took the whole player down with its socket; these
/// never trap. For a narrower type, take the `Int` and narrow it with the standard library's integer
/// `init(clamping:)`.
extension Int {
    /// The 32-bit range mpv gives its integer options and command arguments (`playlist-pos`, `Integer`
    /// arguments): a value outside it is refused there, not wrapped.
    public static let mpvIntegerRange = Int(Int32.min)...Int(Int32.max)

    /// `value` when it is finite, whole and within `range`; nil otherwise (a value to refuse).
    public init?(whole value: Double, in range: ClosedRange<Int> = Int.min...Int.max) {
        guard let exact = Int(exactly: value), range.contains(exact) else { return nil }
        self = exact
    }

    /// `value` rounded by `rule` (default: half away from zero) and clamped into `range`: infinities and values
    /// past the ends give the nearest end. Nil only for NaN, which has no nearest end.
    @inlinable
    public init?(clamping value: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero,
                 to range: ClosedRange<Int>) {
        guard !value.isNaN else { return nil }
        let rounded = value.rounded(rule)
        if rounded <= Double(range.lowerBound) {
            self = range.lowerBound
        } else if rounded >= Double(range.upperBound) {
            self = range.upperBound
        } else {
            // Strictly between two Ints' doubles, so below 2^63 and above -2^63: the conversion cannot trap.
            // Double(upperBound) may round past upperBound (2^63 for Int.max), hence the clamp after it.
            self = Swift.min(Swift.max(Int(rounded), range.lowerBound), range.upperBound)
        }
    }

    /// `value` rounded by `rule` (default: half away from zero; `.towardZero` is what `Int(value)` does),
    /// saturating at `Int.min`/`Int.max`; NaN gives 0. For a value already bounded (a pixel of a bounded
    /// canvas, a fraction of a known length) where a trap would be the worse answer.
    @inlinable
    public init(saturating value: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) {
        self = Int(clamping: value, rounding: rule, to: Int.min...Int.max) ?? 0
    }

    /// `init(saturating:rounding:)` of a `Float` (a pixel's channel in a downscaler's sums).
    @inlinable
    public init(saturating value: Float, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) {
        self.init(saturating: Double(value), rounding: rule)
    }
}
