import Foundation

/// Opens and closes device nodes (`/dev/dri/cardN`, `/dev/input/eventN`): directly, or through a seat manager
/// such as logind. Outputs and input sources take one, so they never need to know which.
public protocol DeviceOpener: AnyObject {
    /// What opens the devices, for the log: `direct` or `logind session N`.
    var name: String { get }
    /// An open descriptor for `path` (`flags` as for open(2); a seat manager may choose its own), or a one-line error.
    func open(_ path: String, flags: Int32) throws -> Int32
    /// Closes a descriptor this opener returned for `path`.
    func close(_ fd: Int32, path: String)
}

/// A device that could not be opened: names the call, the device and the reason, in one line.
public struct DeviceAccessError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The call that failed, e.g. `open` or `TakeDevice`.
    public let call: String
    /// The device path.
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

    /// `call on path: reason`.
    public var description: String { "\(call) on \(path): \(reason)" }
}

/// Plain open(2)/close(2). A refused open names the group the user needs (`video` for displays, `input` for
/// input devices).
public final class DirectOpener: DeviceOpener {
    /// The group that grants access to the devices this opener is for.
    public let group: String
    /// `direct`.
    public var name: String { "direct" }

    /// An opener whose permission errors name `group`.
    public init(group: String) { self.group = group }

    /// open(2) with O_CLOEXEC; EACCES/EPERM name the group.
    public func open(_ path: String, flags: Int32) throws -> Int32 {
        let fd = Foundation.open(path, flags | O_CLOEXEC)
        if fd >= 0 { return fd }
        let e = errno
        let reason = e == EACCES || e == EPERM
            ? "permission denied: the user needs the `\(group)` group or a logind seat session"
            : String(cString: strerror(e))
        throw DeviceAccessError(call: "open", path: path, reason: reason, code: e)
    }

    /// close(2).
    public func close(_ fd: Int32, path: String) { _ = Foundation.close(fd) }
}
