import KioskCore
import KioskInput

/// Device events scripted on a virtual clock: each is handed out once the clock has reached its time.
final class ScriptedDeviceSource: DeviceEventSource {
    let name = "script"
    let clock: VirtualClock
    var events: [DeviceEvent]

    init(clock: VirtualClock, events: [DeviceEvent]) {
        self.clock = clock
        self.events = events
    }

    func now() -> Double { clock.now }
    func takeOpenFailures() -> [String] { [] }

    func poll() -> [DeviceEvent] {
        let t = clock.now
        let due = events.filter { Self.time(of: $0) <= t }
        events.removeAll { Self.time(of: $0) <= t }
        return due
    }

    static func time(of e: DeviceEvent) -> Double {
        switch e {
        case .touch(_, _, _, let t), .key(_, _, let t), .pointerMotion(_, _, let t), .pointerAbsolute(_, let t),
             .button(_, _, let t), .wheel(_, let t), .pinch(_, _, let t), .swipe(_, _, _, _, let t):
            return t
        case .deviceAdded:
            return 0
        }
    }

    /// One finger from `from` to `to` (screen units) in `steps` moves over `seconds`, starting at `start`.
    static func drag(from: UnitPoint, to: UnitPoint, start: Double, seconds: Double, steps: Int = 10) -> [DeviceEvent] {
        var out: [DeviceEvent] = [.touch(.down, slot: 0, at: from, time: start)]
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            let p = UnitPoint(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f)
            out.append(.touch(.move, slot: 0, at: p, time: start + seconds * f))
        }
        out.append(.touch(.up, slot: 0, at: to, time: start + seconds + 0.01))
        return out
    }
}
