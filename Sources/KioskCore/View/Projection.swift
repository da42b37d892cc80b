/// How a picture maps onto the screen: flat, or a sphere (equirectangular 360/180, fisheye), possibly stereo.
/// Pure values; the renderer's projection passes read them.

/// The source projection of an item.
public enum ProjectionKind: String, Sendable, CaseIterable, Codable {
    /// A plain picture (also the flat crop of one eye of stereo content).
    case flat
    /// Equirectangular: 360×180 (input FOV 360) or half, 180×180 (input FOV 180).
    case equirect
    /// Equidistant fisheye with an input field of view of 180–220°.
    case fisheye
}

/// How two eyes are packed into one picture.
public enum StereoLayout: String, Sendable, CaseIterable, Codable {
    /// One picture, no stereo.
    case mono
    /// Left eye on the left half, right eye on the right half.
    case sbs
    /// Left eye on the top half, right eye on the bottom half.
    case tb
    /// Side by side at half horizontal resolution per eye (each eye squeezed to half width).
    case hsbs
    /// Top-bottom at half vertical resolution per eye (each eye squeezed to half height).
    case htb

    /// The eye's part of the picture, in fractions of it (x, y, width, height).
    public func eyeRect(_ eye: Eye) -> UnitRect {
        let second = eye == .right
        switch self {
        case .mono: return .full
        case .sbs, .hsbs: return UnitRect(x: second ? 0.5 : 0, y: 0, width: 0.5, height: 1)
        case .tb, .htb: return UnitRect(x: 0, y: second ? 0.5 : 0, width: 1, height: 0.5)
        }
    }

    /// The size an eye of `eye` pixels is meant to be seen at: unsqueezed for the half-resolution layouts.
    public func unsqueezed(eye: PixelSize) -> PixelSize {
        switch self {
        case .mono, .sbs, .tb: return eye
        case .hsbs: return PixelSize(width: eye.width * 2, height: eye.height)
        case .htb: return PixelSize(width: eye.width, height: eye.height * 2)
        }
    }

    /// The size one eye of a `picture` is meant to be seen at: the eye's pixels, unsqueezed for the half-resolution
    /// layouts.
    public func eyeDisplaySize(picture: PixelSize) -> PixelSize {
        switch self {
        case .mono, .hsbs, .htb: return picture
        case .sbs: return PixelSize(width: max(1, picture.width / 2), height: picture.height)
        case .tb: return PixelSize(width: picture.width, height: max(1, picture.height / 2))
        }
    }
}

/// Which eye of stereo content is shown.
public enum Eye: String, Sendable, CaseIterable {
    /// The first eye (left half, or top half): what ffmpeg's v360 shows for `in_stereo`.
    case left
    /// The second eye.
    case right
}

/// A rectangle in fractions of a picture: (0,0) top-left, (1,1) bottom-right.
public struct UnitRect: Sendable, Hashable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double

    /// Creates a rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole picture.
    public static let full = UnitRect(x: 0, y: 0, width: 1, height: 1)
}

/// An item's source projection: kind, input field of view, stereo packing and the eye shown.
public struct ItemProjection: Sendable, Equatable {
    /// Degrees an equirect may cover horizontally (360: full sphere, 180: half; always 180 vertically).
    public static let equirectFOVs: ClosedRange<Double> = 180...360
    /// Degrees a fisheye may cover.
    public static let fisheyeFOVs: ClosedRange<Double> = 180...220
    /// The largest side a spherical source is decoded to (textures stay within what GLES 3 GPUs take).
    public static let maxSourceSide = 8192

    /// Flat, equirect or fisheye.
    public var kind: ProjectionKind
    /// Degrees covered horizontally: 360 or 180 for equirect (180...360 accepted), 180–220 for fisheye; ignored for flat.
    public var inputFOV: Double
    /// How the eyes are packed.
    public var stereo: StereoLayout
    /// Which eye is shown.
    public var eye: Eye

    /// Creates a projection; `inputFOV` defaults to 360 for equirect and 180 for fisheye.
    public init(kind: ProjectionKind, inputFOV: Double? = nil, stereo: StereoLayout = .mono, eye: Eye = .left) {
        self.kind = kind
        self.inputFOV = inputFOV ?? (kind == .equirect ? 360 : 180)
        self.stereo = stereo
        self.eye = eye
    }

    /// A plain flat picture.
    public static let flat = ItemProjection(kind: .flat)

    /// Whether the item is shown through a view on a sphere (yaw, pitch, roll, fov), not flat.
    public var isSpherical: Bool { kind != .flat }

    /// The part of the picture holding the eye shown.
    public var eyeRect: UnitRect { stereo.eyeRect(eye) }

    /// The size to decode a spherical picture of `picture` size to: whole, only limited to `maxSourceSide`.
    public static func decodeSize(picture: PixelSize) -> PixelSize {
        let side = max(picture.width, picture.height)
        guard side > maxSourceSide else { return picture }
        let s = Double(maxSourceSide) / Double(side)
        return PixelSize(width: max(1, Int(saturating: Double(picture.width) * s)),
                         height: max(1, Int(saturating: Double(picture.height) * s)))
    }
}

/// Where an item's projection came from, as `kiosk probe` reports it.
public enum ProjectionSource: String, Sendable, CaseIterable {
    /// Tokens in the file name.
    case name
    /// The stream's side data (spherical mapping, stereo 3D).
    case metadata
    /// An `#EXTKIOSK:` playlist line or command-line flags.
    case override
    /// Nothing said anything: flat.
    case none
}

/// What a file's metadata says about its projection (from the stream's side data).
public struct ProjectionMetadata: Sendable, Equatable {
    /// The projection, or nil when the metadata names none or one the player cannot show.
    public var kind: ProjectionKind?
    /// The input field of view, when the metadata implies one (180 for a half equirect).
    public var inputFOV: Double?
    /// The stereo packing, if stereo 3D side data is present.
    public var stereo: StereoLayout?
    /// Right eye stored first (stereo 3D's invert flag).
    public var swappedEyes: Bool
    /// A projection named by the metadata that the player does not show (for example `cubemap`).
    public var unsupported: String?

    /// Creates a description.
    public init(kind: ProjectionKind? = nil, inputFOV: Double? = nil, stereo: StereoLayout? = nil,
                swappedEyes: Bool = false, unsupported: String? = nil) {
        self.kind = kind
        self.inputFOV = inputFOV
        self.stereo = stereo
        self.swappedEyes = swappedEyes
        self.unsupported = unsupported
    }

    /// Whether it says anything at all.
    public var isEmpty: Bool { kind == nil && stereo == nil && unsupported == nil }
}

/// The decided projection of an item and why.
public struct ProjectionDecision: Sendable, Equatable {
    /// The projection to show it with.
    public var projection: ItemProjection
    /// What decided it.
    public var source: ProjectionSource
    /// A projection the metadata names that cannot be shown (the item is then shown flat).
    public var unsupported: String?

    /// Creates a decision.
    public init(projection: ItemProjection, source: ProjectionSource, unsupported: String? = nil) {
        self.projection = projection
        self.source = source
        self.unsupported = unsupported
    }
}
