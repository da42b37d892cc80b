/// The grid's filter chips and what a tile knows about its item: the kinds a chip picks, and the badges a tile
/// shows (length, a 360 mark, a play mark). Pure values, shared by the thumbnailer (which learns the facts while
/// it decodes) and the grid (which filters and draws by them).

/// A filter chip above the grid: which items it shows.
public enum GridFilter: String, Sendable, CaseIterable, Codable {
    /// Every item.
    case all
    /// Stills (a 360 still is both an image and a 360 item).
    case images
    /// Clips.
    case videos
    /// Sound files.
    case audio
    /// Animated pictures (GIF, animated WebP, APNG).
    case animated
    /// Spherical items: equirect 360/180 and fisheye, stills and clips.
    case sphere = "360"

    /// The chip's label on screen.
    public var label: String {
        switch self {
        case .all: return "All"
        case .images: return "Images"
        case .videos: return "Videos"
        case .audio: return "Audio"
        case .animated: return "Animated"
        case .sphere: return "360"
        }
    }

    /// The filter named `text` on the command line (`all`, `images`, `videos`, `audio`, `animated`, `360`),
    /// case-insensitive; nil for anything else.
    public init?(parsing text: String) {
        guard let f = GridFilter(rawValue: text.lowercased()) else { return nil }
        self = f
    }
}

/// What a grid tile knows about its item: its kind, length and projection. Known from the file name until the
/// item is probed, then from the probe (the thumbnail's decode probes it).
public struct TileFacts: Sendable, Equatable, Codable {
    /// Still, animation, clip or sound.
    public var kind: MediaKind
    /// The length in seconds of a clip, a sound or one pass of an animation (nil: unknown or a still).
    public var duration: Double?
    /// The decided projection (flat unless the metadata or the playlist says otherwise).
    public var projection: ProjectionKind
    /// How the eyes are packed (mono unless stereo).
    public var stereo: StereoLayout
    /// Whether these facts come from a probe of the file (false: guessed from its name).
    public var probed: Bool

    /// Facts as given.
    public init(kind: MediaKind, duration: Double? = nil, projection: ProjectionKind = .flat, stereo: StereoLayout = .mono,
                probed: Bool = true) {
        self.kind = kind
        self.duration = duration
        self.projection = projection
        self.stereo = stereo
        self.probed = probed
    }

    /// The guess from a file name alone: a clip or sound extension, else a still (an animation or a sphere is
    /// only known once probed).
    public init(guessingFrom path: String) {
        let ext = MediaExtensions.of(path)
        let kind: MediaKind = MediaExtensions.clips.contains(ext) ? .video
            : MediaExtensions.sounds.contains(ext) ? .audio : .image
        self.init(kind: kind, probed: false)
    }

    /// Whether the item is spherical (equirect or fisheye).
    public var isSphere: Bool { projection != .flat }

    /// Whether the chip `filter` shows it.
    public func matches(_ filter: GridFilter) -> Bool {
        switch filter {
        case .all: return true
        case .images: return kind == .image
        case .videos: return kind == .video
        case .audio: return kind == .audio
        case .animated: return kind == .animation
        case .sphere: return isSphere
        }
    }

    /// The length badge (`m:ss`) for clips, sounds and animations of known length; nil for stills.
    public var lengthBadge: String? {
        guard kind != .image, let d = duration, d.isFinite, d > 0 else { return nil }
        return DurationText.format(d)
    }

    /// Whether the tile carries a play mark (clips).
    public var hasPlayMark: Bool { kind == .video }
}
