import Foundation
import KioskCore

/// Which files of a folder play, and the path each gets: the one rule the playlist loader and the folder watcher
/// share, so that what a watcher reports matches what was loaded.
public enum FolderMedia {
    /// Whether a file named `name` plays: it has a media extension (`MediaExtensions`) and is not hidden (no
    /// leading dot). That leaves out files still arriving under a temporary name: `.part`, `.partial`,
    /// `.crdownload`, `.download`, `.tmp` and a trailing `~` are not media extensions, and rsync's temporaries
    /// (`.name.XXXXXX`) and editors' swap files are hidden.
    public static func counts(_ name: String) -> Bool {
        !name.hasPrefix(".") && MediaExtensions.isMedia(name)
    }

    /// The path of `relative` (a path inside `folder`) as the playlist holds it.
    public static func path(_ folder: String, _ relative: String) -> String {
        (folder as NSString).appendingPathComponent(relative)
    }
}
