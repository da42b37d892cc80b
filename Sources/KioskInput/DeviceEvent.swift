import KioskCore

/// One event from the input devices, as libinput reports it, in Swift values: points in screen units (0...1,
/// top-left origin, on the screen as mounted, before the display's rotation), times in seconds of
/// CLOCK_MONOTONIC.
public enum DeviceEvent: Sendable, Equatable {
    /// A touchscreen point of seat slot `slot`.
    case touch(TouchPhase, slot: Int, at: UnitPoint, time: Double)
    /// A key or button of a keyboard, remote, CEC adapter (evdev code), pressed or released.
    case key(code: Int, pressed: Bool, time: Double)
    /// Relative pointer motion in pixels (mice, touchpads).
    case pointerMotion(dx: Double, dy: Double, time: Double)
    /// Absolute pointer position (tablets, a VM's tablet).
    case pointerAbsolute(at: UnitPoint, time: Double)
    /// A pointer button (evdev code: BTN_LEFT is 0x110), pressed or released.
    case button(code: Int, pressed: Bool, time: Double)
    /// A vertical wheel in detents (positive: turned away from the user).
    case wheel(steps: Double, time: Double)
    /// A touchpad pinch: `scale` since the pinch began (1 at the start); `ended` on the last.
    case pinch(scale: Double, ended: Bool, time: Double)
    /// A touchpad multi-finger swipe: movement since the last update; `ended` on the last.
    case swipe(dx: Double, dy: Double, fingers: Int, ended: Bool, time: Double)
    /// A device was added (log line material).
    case deviceAdded(name: String, kinds: [String])
}

/// Why input could not be set up.
public struct InputError: Error, CustomStringConvertible, Sendable {
    /// One line naming the call, the device and the reason.
    public var description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

/// Where device events come from: libinput, or a script in tests.
public protocol DeviceEventSource: AnyObject {
    /// What it reads, for log lines.
    var name: String { get }
    /// The events waiting now, without blocking.
    func poll() -> [DeviceEvent]
    /// The current time on the clock the events are stamped with, seconds.
    func now() -> Double
    /// Device opens that failed since the last call, one line each.
    func takeOpenFailures() -> [String]
    /// A descriptor that is readable when events wait (the frame loop's wait watches it), if there is one.
    var fileDescriptor: Int32? { get }
}

extension DeviceEventSource {
    /// None: the loop reads it once a frame.
    public var fileDescriptor: Int32? { nil }
}

extension DeviceEvent {
    /// The event of a device that covers only `panel` of the screen (one panel of a span): its touch and absolute
    /// pointer positions moved from the device's whole area into that part; other events as they are.
    public func placed(in panel: UnitRect) -> DeviceEvent {
        func place(_ p: UnitPoint) -> UnitPoint {
            UnitPoint(x: panel.x + p.x * panel.width, y: panel.y + p.y * panel.height)
        }
        switch self {
        case .touch(let phase, let slot, let p, let time): return .touch(phase, slot: slot, at: place(p), time: time)
        case .pointerAbsolute(let p, let time): return .pointerAbsolute(at: place(p), time: time)
        default: return self
        }
    }
}
