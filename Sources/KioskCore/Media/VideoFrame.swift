/// A decoded video frame as it crosses from the decode thread to the render thread: YUV planes it owns, and what
/// the shader needs to turn them into RGB (layout, matrix, range). No pixel is converted on the CPU.

/// How a frame's samples are laid out in its planes.
public enum VideoPixelLayout: String, Sendable, Equatable, CaseIterable {
    /// Three 8-bit planes, chroma halved in both axes.
    case yuv420p
    /// Three 8-bit planes, chroma halved horizontally.
    case yuv422p
    /// Three 8-bit planes, full-size chroma.
    case yuv444p
    /// An 8-bit luma plane and one plane of interleaved U,V halved in both axes.
    case nv12
    /// Three planes of 16-bit little-endian samples holding 10 bits (low bits), chroma halved in both axes.
    case yuv420p10
    /// A 16-bit luma plane and one interleaved U,V plane, 10 bits in the high bits of each 16-bit sample.
    case p010
    /// One plane of straight RGBA, 8 bits a channel (the swscale fallback for formats with no shader path).
    case rgba

    /// Number of planes.
    public var planeCount: Int {
        switch self {
        case .yuv420p, .yuv422p, .yuv444p, .yuv420p10: return 3
        case .nv12, .p010: return 2
        case .rgba: return 1
        }
    }

    /// Bytes of one sample of a plane (2 for a U,V pair of nv12, 4 for p010's pair, 4 for RGBA).
    public func bytesPerTexel(plane: Int) -> Int {
        switch self {
        case .yuv420p, .yuv422p, .yuv444p: return 1
        case .nv12: return plane == 0 ? 1 : 2
        case .yuv420p10: return 2
        case .p010: return plane == 0 ? 2 : 4
        case .rgba: return 4
        }
    }

    /// The size in texels of plane `plane` for a frame of `size`.
    public func planeSize(_ plane: Int, of size: PixelSize) -> PixelSize {
        guard plane > 0 else { return size }
        let halfW = (size.width + 1) / 2, halfH = (size.height + 1) / 2
        switch self {
        case .yuv420p, .nv12, .yuv420p10, .p010: return PixelSize(width: halfW, height: halfH)
        case .yuv422p: return PixelSize(width: halfW, height: size.height)
        case .yuv444p, .rgba: return size
        }
    }

    /// Significant bits of a sample (8 or 10).
    public var bitDepth: Int { self == .yuv420p10 || self == .p010 ? 10 : 8 }
}

/// The YUV to RGB matrix a stream is tagged with.
public enum ColorMatrix: String, Sendable, Equatable, CaseIterable {
    /// ITU-R BT.601 (SD).
    case bt601
    /// ITU-R BT.709 (HD).
    case bt709
    /// ITU-R BT.2020 non-constant luminance (UHD).
    case bt2020

    /// The luma weights (Kr, Kb).
    public var weights: (kr: Double, kb: Double) {
        switch self {
        case .bt601: return (0.299, 0.114)
        case .bt709: return (0.2126, 0.0722)
        case .bt2020: return (0.2627, 0.0593)
        }
    }

    /// The usual default for an untagged stream: BT.601 below 720 lines, BT.709 from 720 up.
    public static func untagged(height: Int) -> ColorMatrix { height < 720 ? .bt601 : .bt709 }
}

/// Whether samples use the limited (16-235/240) or full (0-255) range.
public enum ColorRange: String, Sendable, Equatable {
    /// Studio swing: luma 16-235, chroma 16-240 (scaled for 10 bits).
    case limited
    /// Full swing: 0 to the largest code.
    case full
}

/// Where chroma samples sit horizontally relative to luma (4:2:0 and 4:2:2).
public enum ChromaSiting: String, Sendable, Equatable {
    /// With the left luma sample of each pair (MPEG-2, H.264 and HEVC default).
    case left
    /// Between the two luma samples (JPEG, MPEG-1).
    case center
}

/// One plane's bytes: `stride` bytes per row, `rows` rows, in an array of its own or in the decoder's memory.
public struct VideoPlane: Sendable, Equatable {
    /// The rows, each `stride` bytes (the stride may exceed the used width); empty when `memory` holds them.
    public var bytes: [UInt8]
    /// The decoder's buffer holding the rows instead, referenced rather than copied (the plane path).
    public var memory: PlaneMemory?
    /// Bytes from one row to the next.
    public var stride: Int
    /// Number of rows.
    public var rows: Int

    /// A plane in an array.
    public init(bytes: [UInt8], stride: Int, rows: Int) {
        self.bytes = bytes
        self.memory = nil
        self.stride = stride
        self.rows = rows
    }

    /// A plane left in the decoder's memory.
    public init(memory: PlaneMemory, stride: Int, rows: Int) {
        self.bytes = []
        self.memory = memory
        self.stride = stride
        self.rows = rows
    }

    /// How many bytes the plane has.
    public var byteCount: Int { memory?.count ?? bytes.count }

    /// Runs `body` with the plane's bytes, wherever they are.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        if let memory { return try body(memory.buffer) }
        return try bytes.withUnsafeBytes(body)
    }

    /// Planes are equal when their layout and bytes are.
    public static func == (a: VideoPlane, b: VideoPlane) -> Bool {
        guard a.stride == b.stride, a.rows == b.rows, a.byteCount == b.byteCount else { return false }
        if let m = a.memory, m === b.memory { return true }
        return a.withBytes { x in b.withBytes { y in x.elementsEqual(y) } }
    }
}

/// A decoded video frame owning its planes.
public struct VideoFrame: Sendable, Equatable {
    /// Presentation time in seconds of media time.
    public var pts: Double
    /// Stored (coded) size in pixels, before aspect ratio and rotation.
    public var size: PixelSize
    /// How the planes are laid out.
    public var layout: VideoPixelLayout
    /// The YUV to RGB matrix.
    public var matrix: ColorMatrix
    /// Limited or full range.
    public var range: ColorRange
    /// Horizontal chroma siting.
    public var siting: ChromaSiting
    /// The planes, `layout.planeCount` of them.
    public var planes: [VideoPlane]
    /// Sample aspect ratio (pixel width / pixel height), 1 for square pixels.
    public var sampleAspect: Double
    /// How the stored picture must be turned to be seen upright (from the display matrix).
    public var orientation: Orientation

    /// Creates a frame.
    public init(pts: Double, size: PixelSize, layout: VideoPixelLayout, matrix: ColorMatrix, range: ColorRange,
                siting: ChromaSiting = .left, planes: [VideoPlane], sampleAspect: Double = 1,
                orientation: Orientation = .up) {
        self.pts = pts
        self.size = size
        self.layout = layout
        self.matrix = matrix
        self.range = range
        self.siting = siting
        self.planes = planes
        self.sampleAspect = sampleAspect
        self.orientation = orientation
    }

    /// Bytes held by the planes.
    public var byteCount: Int { planes.reduce(0) { $0 + $1.byteCount } }

    /// The displayed size: width stretched by the sample aspect ratio, then turned by the orientation.
    public var displaySize: PixelSize {
        let w = max(1, Int(saturating: Double(size.width) * sampleAspect))
        return orientation.displayedSize(of: PixelSize(width: w, height: size.height))
    }
}
