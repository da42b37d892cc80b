import Foundation

/// Why a URL could not be fetched (or what was fetched is not taken): one line, `URL: reason`.
///
/// The reason is a case a caller can switch on (a 404 is not a full disk); its words are made once, here.
public struct FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// The server answered with this HTTP status (not 2xx, and not a 304 to a conditional request).
        case status(Int)
        /// The transfer failed in libcurl (connect, TLS, reset, timeout, a body shorter than its length): curl's text.
        case transfer(String)
        /// The server was too slow: no connection in time, or too few bytes for too long (curl's text).
        case timedOut(String)
        /// The body is larger than the limit, in bytes.
        case tooLarge(limit: Int64)
        /// A redirect pointed at a scheme other than http or https (`file`, `ftp`, …).
        case redirectRefused(scheme: String)
        /// More redirects than the limit.
        case tooManyRedirects(Int)
        /// The body does not have the SHA-256 the index gives for it.
        case checksum(expected: String, actual: String)
        /// The body's length is not what the server said.
        case length(expected: Int64, actual: Int64)
        /// A range reply that does not continue the partial file.
        case badRange(String)
        /// A local file could not be written, renamed or read (a full disk): the call, the path and `strerror`.
        case disk(String)
        /// Not fetched on purpose: not an http or https URL, a refused index, a missing signature or checksum.
        case refused(String)
    }

    /// The URL the reason is about.
    public let url: String
    /// Why.
    public let reason: Reason

    /// An error for `url`.
    public init(url: String, reason: Reason) {
        self.url = url
        self.reason = reason
    }

    /// `URL: reason`, one line.
    public var description: String { "\(FetchError.quoted(url)): \(reasonText)" }

    /// The reason in words.
    public var reasonText: String {
        switch reason {
        case .status(let code): return "HTTP \(code)"
        case .transfer(let text): return text
        case .timedOut(let text): return text
        case .tooLarge(let limit): return "larger than \(FetchError.mebibytes(limit))"
        case .redirectRefused(let scheme): return "a redirect to a \(scheme): URL refused (only http and https)"
        case .tooManyRedirects(let most): return "more than \(most) redirects"
        case .checksum(let expected, let actual): return "SHA-256 \(actual), not the \(expected) the index gives"
        case .length(let expected, let actual): return "\(actual) bytes, not the \(expected) the server announced"
        case .badRange(let text): return text
        case .disk(let text): return text
        case .refused(let text): return text
        }
    }

    /// `bytes` as "N MiB" (or "N bytes" under one MiB).
    static func mebibytes(_ bytes: Int64) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB"
            : bytes >= 1 << 20 ? String(format: "%.1f MiB", Double(bytes) / Double(1 << 20)) : "\(bytes) bytes"
    }

    /// A URL as an error line shows it: control characters escaped, cut at 300 characters.
    static func quoted(_ url: String) -> String {
        var shown = ""
        for scalar in url.unicodeScalars.prefix(300) {
            shown += scalar.value < 0x20 || scalar.value == 0x7F ? String(format: "%%%02X", scalar.value) : String(scalar)
        }
        return url.unicodeScalars.count > 300 ? shown + "…" : shown
    }
}
