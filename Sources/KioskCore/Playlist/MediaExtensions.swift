import Foundation

/// The file-name extensions kiosk takes for media: the one list every part asks (folder scans, "is this a
/// picture by its name?"). Lower case, without the dot.
public enum MediaExtensions {
    /// Still and animated pictures.
    public static let pictures: Set<String> = ["jpg", "jpeg", "png", "bmp", "tif", "tiff", "gif", "webp", "apng"]
    /// Video clips.
    public static let clips: Set<String> = ["mp4", "m4v", "mov", "mkv", "webm", "avi", "ts", "mpg", "mpeg"]
    /// Sound files (shown with their cover art or a placeholder).
    public static let sounds: Set<String> = ["mp3", "m4a", "aac", "flac", "wav", "ogg", "opus"]
    /// Everything tried as media when found in a folder.
    public static let all: Set<String> = pictures.union(clips).union(sounds)

    /// The lower-cased extension of `path` (`""` when it has none).
    public static func of(_ path: String) -> String { (path as NSString).pathExtension.lowercased() }

    /// Whether `path`'s name says it is a picture (no probe needed to tell it from a clip or a sound file).
    public static func isPicture(_ path: String) -> Bool { pictures.contains(of(path)) }

    /// Whether `path`'s name has one of the media extensions.
    public static func isMedia(_ path: String) -> Bool { all.contains(of(path)) }

    /// The MIME type a browser shows the file at `path` by (the web page's thumbnails); nil for what it cannot.
    public static func mimeType(_ path: String) -> String? {
        let types = ["jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "apng": "image/apng", "gif": "image/gif",
                     "webp": "image/webp", "bmp": "image/bmp", "mp4": "video/mp4", "m4v": "video/mp4", "webm": "video/webm"]
        return types[of(path)]
    }
}
