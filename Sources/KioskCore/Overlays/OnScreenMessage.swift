/// One on-screen message (mpv's OSD message): shown from when it was posted for its seconds, then gone, with
/// no fade (as in mpv). A newer message replaces an older one.
public struct OnScreenMessage: Sendable, Equatable {
    /// What it says. The item's place and the progress are written from the frame's context, so they stay
    /// right while they show (`show-progress` counts the seconds).
    public enum Content: Sendable, Equatable {
        /// Fixed text.
        case text(String)
        /// The item's place: `3 / 12`.
        case place
        /// The item's place and what follows: `3 / 12 · Next: Beach`.
        case placeAndNext
        /// The item's place and its slot's time: `3 / 12  0:04 / 0:10` (mpv's `show-progress`).
        case progress
    }

    /// What it says.
    public var content: Content
    /// Player time it was posted.
    public var postedAt: Double
    /// Seconds it stays.
    public var seconds: Double

    /// A message posted at `postedAt` for `seconds`.
    public init(_ content: Content, postedAt: Double, seconds: Double) {
        self.content = content
        self.postedAt = postedAt
        self.seconds = seconds
    }

    /// Player time it is gone.
    public var endsAt: Double { postedAt + seconds }

    /// Whether it shows at `t`.
    public func shows(at t: Double) -> Bool { t >= postedAt && t < endsAt }

    /// Its text with the frame's item (`nil` while idle: the place and progress then say nothing).
    public func text(item: OverlayContext.Item?) -> String? {
        switch content {
        case .text(let s): return s
        case .place:
            return item.map(Self.place)
        case .placeAndNext:
            guard let item else { return nil }
            return item.nextName.map { "\(Self.place(item)) · Next: \($0)" } ?? Self.place(item)
        case .progress:
            guard let item else { return nil }
            return "\(Self.place(item))  \(DurationText.progress(item.slotTime, of: item.slotLength))"
        }
    }

    /// Whether its text changes as the slot runs (the progress does, every second).
    var followsSlotTime: Bool { content == .progress }

    /// `3 / 12`.
    static func place(_ item: OverlayContext.Item) -> String { "\(item.index) / \(item.count)" }

    /// `Zoom 2.5×`: one decimal, none when whole.
    static func zoomText(_ zoom: Double) -> String {
        let tenths = (zoom * 10).rounded()
        let text = tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(saturating: tenths / 10, rounding: .towardZero)) : String(tenths / 10)
        return "Zoom \(text)×"
    }
}
