import KioskCore

/// Writes a screenshot in the format its file name asks for, as mpv's `screenshot-to-file` does: JPEG for `.jpg`
/// and `.jpeg` (the fleet's camera), PNG for anything else.
public enum ScreenshotWriter {
    /// Writes `image` to `path`.
    public static func write(_ image: RGBAImage, to path: String) throws {
        let name = path.split(separator: "/").last ?? ""
        let ext = name.contains(".") ? name.split(separator: ".").last?.lowercased() : nil
        guard let ext, ["jpg", "jpeg"].contains(ext) else { return try PNGWriter.write(image, to: path) }
        try PNGWriter.writeFile(try ThumbnailJPEG.encode(image, name: path), to: path, format: "JPEG")
    }
}
