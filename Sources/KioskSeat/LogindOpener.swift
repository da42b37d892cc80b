import Foundation
import KioskCore

/// Opens devices through a logind session (TakeDevice/ReleaseDevice); the session must be under control
/// (`takeControl()`). Without `O_NONBLOCK` in the flags the descriptor is made blocking, as open(2) would give it.
public final class LogindOpener: DeviceOpener {
    /// The session the devices come from.
    public let session: LogindSession
    /// `logind session N`.
    public var name: String { "logind session \(session.id)" }

    /// An opener over `session`.
    public init(session: LogindSession) { self.session = session }

    /// TakeDevice for `path`.
    public func open(_ path: String, flags: Int32) throws -> Int32 {
        let fd = try session.takeDevice(path: path)
        if flags & O_NONBLOCK == 0 {
            let current = fcntl(fd, F_GETFL)
            if current >= 0 { _ = fcntl(fd, F_SETFL, current & ~O_NONBLOCK) }
        }
        return fd
    }

    /// ReleaseDevice for `path`, then close(2).
    public func close(_ fd: Int32, path: String) {
        session.releaseDevice(path: path)
        _ = Foundation.close(fd)
    }
}
