internal import CFFmpeg
import KioskCore

/// Resizes RGBA pictures with swscale (bicubic; area averaging for downscales of 2× or more).
public enum Scaler {
    /// `image` resized to `size`; the same image when the size already matches.
    public static func scale(_ image: RGBAImage, to size: PixelSize) throws -> RGBAImage {
        if image.size == size { return image }
        _ = FFmpegLibrary.quiet
        return try image.pixels.withUnsafeBufferPointer { buf in
            try PixelConversion.toRGBA(path: "Scaler.scale", planes: [buf.baseAddress], strides: [Int32(image.size.width * 4)],
                                       size: image.size, format: AV_PIX_FMT_RGBA, target: size)
        }
    }
}
