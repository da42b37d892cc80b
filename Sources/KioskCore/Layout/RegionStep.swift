/// A step through one region of a playing layout (`playlist-next main`, MQTT's `next` with a region).
public enum RegionStep: String, Sendable, Equatable {
    /// To the region's next medium.
    case next
    /// Back to the medium before the one it shows.
    case previous
}
