import Foundation

/// A failed DRM/KMS or GBM call: names the call, the device and the reason, in one line.
public struct DRMError: Error, Equatable, CustomStringConvertible {
    /// The C call (or step) that failed.
    public let call: String
    /// The device path, e.g. `/dev/dri/card0`.
    public let path: String
    /// Why, in words.
    public let reason: String
    /// The errno behind it (positive), or 0 when there is none.
    public let code: Int32

    /// Creates an error from its parts.
    public init(call: String, path: String, reason: String, code: Int32 = 0) {
        self.call = call
        self.path = path
        self.reason = reason
        self.code = code
    }

    /// An error whose reason is `strerror` of the code (an errno or a negative return value).
    static func errno(_ call: String, _ path: String, _ code: Int32) -> DRMError {
        DRMError(call: call, path: path, reason: String(cString: strerror(abs(code))), code: abs(code))
    }

    /// Whether the call failed because this client is not DRM master (EACCES/EPERM: a VT switch, another client).
    public var isLostMaster: Bool { code == EACCES || code == EPERM }

    /// `call on path: reason`.
    public var description: String { "\(call) on \(path): \(reason)" }
}
