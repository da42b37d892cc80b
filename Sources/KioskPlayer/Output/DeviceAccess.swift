import KioskCore
import KioskSeat

/// How `play` opens the display and input devices: through logind (TakeDevice) when this process has a session
/// logind answers for and control of it can be taken, otherwise directly (open(2), which needs the `video` and
/// `input` groups).
struct DeviceAccess {
    /// Opens `/dev/dri/cardN`.
    let display: DeviceOpener
    /// Opens `/dev/input/eventN`.
    let input: DeviceOpener
    /// The session under control, released at the end.
    private let session: LogindSession?

    /// Direct open(2), errors naming the `video` and `input` groups.
    static var direct: DeviceAccess {
        DeviceAccess(display: DirectOpener(group: "video"), input: DirectOpener(group: "input"), session: nil)
    }

    /// logind where it runs and gives control, else direct; logs one info line saying which and why.
    static func choose(log: Log) -> DeviceAccess {
        guard let session = LogindSession.current() else {
            log.info("device access: direct open (no logind session)")
            return .direct
        }
        do {
            try session.takeControl()
        } catch {
            log.info("device access: direct open (\(error))")
            return .direct
        }
        let opener = LogindOpener(session: session)
        log.info("device access: logind session \(session.id) (TakeDevice)")
        return DeviceAccess(display: opener, input: opener, session: session)
    }

    /// Gives control of the session back to logind (nothing for direct access).
    func release() { session?.releaseControl() }
}
