import Foundation

/// Where a layout or playlist fetched from a server finds its media: the URL the index came from (its relative
/// sources resolve against it) and the cache file of every medium the content fetcher holds. The player opens only
/// those local files; a source not in the map is not played (the fetcher has not got it, or refused it).
public struct ContentMap: Sendable, Equatable {
    /// The index's own URL (http or https).
    public let indexURL: String
    /// Absolute URL of each medium -> its file in the content cache.
    public let files: [String: String]

    /// A map of `files` for the index fetched from `indexURL`.
    public init(indexURL: String, files: [String: String]) {
        self.indexURL = indexURL
        self.files = files
    }

    /// `src` as an absolute http or https URL, resolved against the index's URL; nil for another scheme (`file:`,
    /// `ftp:`, `data:`, …) or text that is no URL.
    public func absolute(_ src: String) -> String? { Self.absolute(src, base: indexURL) }

    /// The cache file for `src` (resolved as `absolute` does); nil when it is not fetched.
    public func file(for src: String) -> String? { absolute(src).flatMap { files[$0] } }

    /// `src` resolved against `base` as a browser does (a query string kept, a fragment dropped), when the result
    /// is an http or https URL with a host; nil otherwise.
    public static func absolute(_ src: String, base: String) -> String? {
        let text = src.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, let baseURL = URL(string: base), let url = URL(string: text, relativeTo: baseURL)?.absoluteURL,
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else { return nil }
        var parts = URLComponents(url: url, resolvingAgainstBaseURL: false)
        parts?.fragment = nil
        return parts?.url?.absoluteString ?? url.absoluteString
    }

    /// Whether `text` names an http or https URL (what `kiosk play` hands the content fetcher, not a decoder).
    public static func isRemote(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }
}
