import Foundation

/// A failed DRM/KMS or GBM call: names the call, the device and the reason, in one line.
public struct DRMError: Error, Equatable, CustomStringConvertible {
    /// The C call (or step) that failed.
    public let call: String
    /// The device path, e.g. `/dev/dri/card0`.
    public let path: String
    /// Why, in words.
    public let reason: String

    /// Creates an error from its parts.
    public init(call: String, path: String, reason: String) {
        self.call = call
        self.path = path
        self.reason = reason
    }

    /// An error whose reason is `strerror` of the code (an errno or a negative return value).
    static func errno(_ call: String, _ path: String, _ code: Int32) -> DRMError {
        DRMError(call: call, path: path, reason: String(cString: strerror(abs(code))))
    }

    /// `call on path: reason`.
    public var description: String { "\(call) on \(path): \(reason)" }
}
