import KioskCore

/// A grid tile's picture and what the tile knows about its item.
public struct Thumbnail: Sendable, Equatable {
    /// The picture: `side`×`side`, opaque (alpha 255).
    public var image: RGBAImage
    /// The item's kind, length and projection, learned by probing it.
    public var facts: TileFacts

    /// A thumbnail as given.
    public init(image: RGBAImage, facts: TileFacts) {
        self.image = image
        self.facts = facts
    }
}

/// Why a thumbnail was not made, when it is not a media error.
public enum ThumbnailError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The caller no longer wanted it (`isCancelled` said so between two steps).
    case cancelled(path: String)

    /// `path: thumbnail cancelled`.
    public var description: String {
        switch self {
        case .cancelled(let path): return "\(path): thumbnail cancelled"
        }
    }
}

/// Makes a grid tile's picture: the item shown as a flat picture, cut to its centred square and scaled to the
/// tile. Stills are decoded only as large as the tile needs (JPEG at a reduced DCT size); a stereo item shows one
/// eye, unsqueezed; a 360/180/fisheye item shows its flat source picture; a clip its frame at 10 % of its length;
/// a sound file its cover art or the sound placeholder; an animation its first frame.
public enum Thumbnailer {
    /// Where in a clip its tile's frame is taken, as a fraction of its length.
    public static let clipPosition = 0.1

    /// The thumbnail of the file at `path` as a JPEG (the web page's media list): the one `cache` keeps for it, the
    /// grid's, when there is one; else made now and kept there.
    public static func jpeg(path: String, side: Int, cache: ThumbnailDiskCache?) throws -> [UInt8] {
        if let kept = cache?.load(path: path, side: side) { return try ThumbnailJPEG.encode(kept.image, name: path) }
        let made = try thumbnail(path: path, override: nil, side: side)
        cache?.store(made, path: path, side: side)
        return try ThumbnailJPEG.encode(made.image, name: path)
    }

    /// The thumbnail of the file at `path`, `side`×`side` pixels. `override` is the playlist's projection
    /// override for the item (it decides stereo and projection as in the player). `limits` and `timeout` bound
    /// the decode as for playing; `isCancelled` is asked before decoding, after probing and after a clip's seek,
    /// and a true answer throws `ThumbnailError.cancelled`. Other failures throw a `MediaError` naming the file.
    public static func thumbnail(path: String, override: ProjectionOverride?, side: Int,
                                 limits: DecodeLimits = .standard, timeout: Double = 20,
                                 isCancelled: () -> Bool = { false }) throws -> Thumbnail {
        guard side > 0, side <= 4096 else { throw MediaError(path: path, reason: "thumbnail side \(side) is not in 1...4096") }
        func check() throws { if isCancelled() { throw ThumbnailError.cancelled(path: path) } }
        try check()
        let info = try MediaFile.probe(path, limits: limits)
        try check()
        let decision = ProjectionResolver.decide(path: path, metadata: info.projection, override: override).projection
        var facts = TileFactsProbe.facts(of: info, override: override)
        let crop = ThumbnailCrop(stereo: decision.stereo, eye: decision.eye)
        let square = PixelSize(width: side, height: side)
        var picture: RGBAImage
        var cut = crop
        switch info.kind {
        case .image, .animation:
            let item = try MediaFile.decode(path, limits: limits, timeout: timeout) { crop.decodeSize(full: $0, side: side) }
            switch item.picture {
            case .still(let image):
                picture = image
            case .animation(let frames, _):
                picture = frames.image(at: 0)  // decoded before `decode` returned; later frames do not matter
                facts.kind = .animation
                facts.duration = frames.durations.reduce(0, +)
            case .clip:
                throw MediaError(path: path, reason: "not a picture (clip)")
            }
        case .video:
            let at = (info.duration ?? 0) * clipPosition
            picture = try ClipStill.frame(path: path, at: at.isFinite ? at : 0, limits: limits, isCancelled: isCancelled) {
                crop.decodeSize(full: $0, side: side)
            }
        case .audio:
            cut = .whole
            // Cover art that cannot be decoded leaves the placeholder, as the player's now-playing card does.
            if let art = try? MediaFile.coverArt(path, targetSize: { ThumbnailCrop.whole.decodeSize(full: $0, side: side) }) {
                picture = art
            } else {
                picture = SoundPicture.placeholder(size: square)
            }
        }
        try check()
        picture = ThumbnailCrop.opaque(ThumbnailCrop.cut(picture, to: cut.square(in: picture.size)))
        return Thumbnail(image: try MediaFile.scaled(picture, to: square, path: path), facts: facts)
    }
}
