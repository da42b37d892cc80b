/// Why content is not trusted: one line naming the file and the reason.
///
/// Every failure in KioskTrust (an unreadable file, a malformed key or signature, a key that is not the configured
/// one, a file or trusted comment that does not match its signature) is one of these, so a caller can log
/// `"\(error)"` as is.
public struct TrustError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (or the name given for bytes in memory) the reason is about.
    public let file: String
    /// What is wrong with it, in words for the log.
    public let reason: String

    /// An error about `file`, for `reason`.
    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    /// `file: reason`.
    public var description: String { "\(file): \(reason)" }
}
