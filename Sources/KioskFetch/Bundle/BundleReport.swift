import KioskCore

/// What one import of a bundle found and did.
public struct BundleReport: Sendable {
    /// How the import ended.
    public enum Outcome: String, Sendable {
        /// The bundle's index is now the cache's last good one (what plays), for the URL it stands for.
        case imported
        /// The bundle holds what the cache's last good index already is: nothing was copied.
        case unchanged
        /// Refused (see `problems`): nothing in the cache changed.
        case refused
    }

    /// How it ended.
    public var outcome: Outcome
    /// The bundle's index file (`FOLDER/kiosk/index.smil` or `FOLDER/index.smil`), or the folder given when none was
    /// found.
    public var bundle: String
    /// The URL the bundle stands for (its `kiosk-url`), once read.
    public var indexURL: String?
    /// The cache's last good index after the import (the bundle's when imported or unchanged).
    public var index: KeptIndex?
    /// That index's map for the player (URL -> absolute path of the cached file).
    public var map: ContentMap?
    /// That index's own file (absolute path).
    public var indexFile: String?
    /// The media the bundle's index names.
    public var mediaCount: Int
    /// Files copied into the cache (those it held already with the same SHA-256 are not copied again).
    public var filesCopied: Int
    /// Bytes copied into the cache.
    public var bytesCopied: Int64
    /// What refused the bundle, one line each naming the bundle's file; empty unless refused.
    public var problems: [String]
    /// What the cache said along the way (a budget it cannot keep, a state file it ignored), one line each.
    public var notes: [String]

    /// One line: the bundle, the URL it stands for, the outcome, its media and what was copied.
    public var summary: String {
        "\(bundle)" + (indexURL.map { " for \($0)" } ?? "") + ": \(outcome.rawValue), \(mediaCount) media, "
            + "\(filesCopied) file\(filesCopied == 1 ? "" : "s") (\(bytesCopied) bytes) copied"
    }
}
