/// The full-screen slideshow as a layout: one region, `main`, over the whole screen, whose timeline is the
/// playlist (the live one, with its folders, schedule and shuffle) rather than a SMIL body. The player draws it
/// through the same region composer as a SMIL layout, and remote clients see it as they see a layout's regions:
/// `kiosk-regions` lists `main`, and `playlist-next main` is the playlist's next.
public enum SlideshowLayout {
    /// The slideshow's one region.
    public static let regionName = "main"

    /// The layout for a screen of `size` with the letterbox colour `background`: a root layout of the screen's
    /// own pixels, and region `main` covering it with no background of its own (the root's shows around a
    /// letterboxed picture, as `--background` always has).
    public static func document(size: PixelSize, background: RGBColor) -> SMILDocument {
        let here = SourceLine(file: "(the playlist)", line: 0)
        let root = SMILRootLayout(width: Double(size.width), height: Double(size.height),
                                  backgroundColor: LayoutColor(red: background.red, green: background.green, blue: background.blue))
        let main = SMILRegion(name: regionName, left: .pixels(0), top: .pixels(0), width: .percent(100), height: .percent(100),
                              fit: .meet, source: here)
        return SMILDocument(file: "(the playlist)", rootLayout: root, regions: [main], body: SMILContainer(kind: .seq, source: here))
    }

    /// What region `main` shows: the playlist's current item (nil: nothing yet, or the playlist is idle) at
    /// `time` seconds into it.
    public static func status(path: String?, time: Double) -> [RegionStatus] {
        [RegionStatus(name: regionName, src: path, path: path, timePosition: path == nil ? 0 : time)]
    }
}
