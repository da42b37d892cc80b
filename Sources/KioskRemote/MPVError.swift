import KioskCore

/// mpv's client API error codes, with the exact strings its IPC puts in a reply's `error` (mpv_error_string).
public enum MPVError: String, Error, Sendable, Equatable {
    case invalidParameter = "invalid parameter"
    case optionNotFound = "option not found"
    case propertyNotFound = "property not found"
    case propertyFormat = "unsupported format for accessing property"
    case propertyUnavailable = "property unavailable"
    case propertyError = "error accessing property"
    case command = "error running command"
    case loadingFailed = "loading failed"
    case unsupported = "not supported"
    case notImplemented = "operation not implemented"

    /// The reply's `error` text.
    public var text: String { rawValue }
}

/// A request's outcome: success with an optional `data`, or an mpv error.
enum MPVResult: Equatable {
    /// Success; `data` is written when present.
    case success(JSONValue?)
    /// The error string.
    case failure(MPVError)
}
