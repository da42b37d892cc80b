/// Where a clip's YUV frames become RGB (`--video-convert`).
public enum VideoConversion: String, Sendable, Equatable, CaseIterable {
    /// The CPU on a software rasterizer (llvmpipe, softpipe), the GPU otherwise.
    case auto
    /// The GPU: the planes are uploaded as they are and the layer's shader converts them.
    case gpu
    /// The CPU: swscale converts each frame to RGBA on the decoder's thread.
    case cpu

    /// Whether a GL renderer string names a software rasterizer, where every shaded pixel costs CPU time.
    public static func isSoftwareRenderer(_ renderer: String) -> Bool {
        let name = renderer.lowercased()
        return ["llvmpipe", "softpipe", "swrast", "swiftshader"].contains { name.contains($0) }
    }

    /// `auto` settled for a renderer: cpu on a software rasterizer, gpu otherwise.
    public func resolved(renderer: String) -> VideoConversion {
        guard self == .auto else { return self }
        return Self.isSoftwareRenderer(renderer) ? .cpu : .gpu
    }
}

/// How a clip's decoder hands its frames over.
public enum VideoFrameForm: Sendable, Equatable {
    /// The decoded planes as they are (the shader converts them).
    case planes
    /// RGBA from swscale, shrunk to `limit` (as displayed) when the frame is larger; nil: the frame's own size.
    case rgba(limit: PixelSize?)
}
