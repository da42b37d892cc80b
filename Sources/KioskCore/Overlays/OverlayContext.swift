import Foundation

/// What the player knows in one frame that overlays show: the canvas, the item on screen and the wall clock.
/// The player builds one a frame and hands it to `OverlayState.scene(at:context:)`.
public struct OverlayContext: Sendable, Equatable {
    /// The item on screen, as overlays see it.
    public struct Item: Sendable, Equatable {
        /// What kind of item it is, for the progress and the card.
        public enum Kind: String, Sendable, Equatable {
            /// A still or an animation: its slot is the configured duration.
            case still
            /// A video.
            case clip
            /// A sound file (cover art or the placeholder on screen): the now-playing card shows.
            case sound
        }

        /// Its slot's sequence number (`Slot.sequence`): a caption shown again by a tap belongs to one slot.
        public var sequence: Int
        /// What kind it is.
        public var kind: Kind
        /// The caption, already formatted (`CaptionFormat.render`); nil for none or with captions off.
        public var caption: String?
        /// Its place in the playlist, from 1.
        public var index: Int
        /// The playlist's length.
        public var count: Int
        /// Seconds of its slot shown (pauses excluded).
        public var slotTime: Double
        /// Its slot's length in seconds (infinite when unbounded).
        public var slotLength: Double
        /// Whether the slideshow is paused (times shown do not move).
        public var paused: Bool
        /// A name for it on screen: the playlist's title, else the file name without its extension.
        public var name: String
        /// Its tags (title, artist, album, track, date), for the card and `--clip-info`; nil when not read.
        public var metadata: ItemMetadata?
        /// Whether a sound file has embedded cover art.
        public var hasArtwork: Bool
        /// The next item's name, if one follows.
        public var nextName: String?

        /// An item; the optional parts default to none.
        public init(sequence: Int, kind: Kind, index: Int, count: Int, slotTime: Double, slotLength: Double,
                    name: String, caption: String? = nil, paused: Bool = false, metadata: ItemMetadata? = nil,
                    hasArtwork: Bool = false, nextName: String? = nil) {
            self.sequence = sequence
            self.kind = kind
            self.caption = caption
            self.index = index
            self.count = count
            self.slotTime = slotTime
            self.slotLength = slotLength
            self.paused = paused
            self.name = name
            self.metadata = metadata
            self.hasArtwork = hasArtwork
            self.nextName = nextName
        }

        /// Seconds left in the slot (never negative).
        public var remaining: Double { max(0, slotLength - slotTime) }
    }

    /// The canvas in pixels (its shape decides the card's layout; its width the bar's step).
    public var canvas: PixelSize
    /// The item on screen; nil while idle.
    public var item: Item?
    /// The wall clock now (the player's `wallClock`, which follows `--start-time`).
    public var now: Date
    /// The wall clock's time zone.
    public var timeZone: TimeZone
    /// The regions of the layout on screen (canvas fractions); empty without one. The clock keeps off them
    /// unless `--clock-position` placed it.
    public var regions: [OverlayRect] = []

    /// A context.
    public init(canvas: PixelSize, item: Item?, now: Date, timeZone: TimeZone) {
        self.canvas = canvas
        self.item = item
        self.now = now
        self.timeZone = timeZone
    }
}
