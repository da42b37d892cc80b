import Foundation
import KioskCore
import KioskSeat

/// A failed DRM/KMS or GBM call: the same one-line error as any device access (`call on path: reason`).
public typealias DRMError = DeviceAccessError

extension DeviceAccessError {
    /// An error whose reason is `strerror` of the code (an errno or a negative return value).
    static func errno(_ call: String, _ path: String, _ code: Int32) -> DRMError {
        DRMError(call: call, path: path, reason: String(cString: strerror(abs(code))), code: abs(code))
    }

    /// Whether the call failed because this client is not DRM master (EACCES/EPERM: a VT switch, another client).
    public var isLostMaster: Bool { code == EACCES || code == EPERM }
}
