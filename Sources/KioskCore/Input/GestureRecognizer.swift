/// The touch gesture recogniser: a state machine over timestamped touch points (slots down/move/up) that says
/// which gestures they make. It knows nothing about zoom or items: `ViewInteraction` decides what a gesture does.

/// A recognised gesture. Distances in canvas pixels, velocities in pixels per second.
public enum Gesture: Sendable, Equatable {
    /// One quick touch, not followed by a second within the double-tap time.
    case tap(CanvasPoint)
    /// Two quick touches close together.
    case doubleTap(CanvasPoint)
    /// One finger held still for the long-press time.
    case longPress(CanvasPoint)
    /// Two fingers touched and lifted together without moving.
    case twoFingerTap
    /// One finger moved by (dx, dy) since the last report.
    case drag(dx: Double, dy: Double)
    /// The one-finger drag ended, moving at (vx, vy) when the finger lifted.
    case dragEnded(vx: Double, vy: Double)
    /// A fast horizontal drag: `forward` when the finger moved right to left (show the next item).
    case swipe(forward: Bool)
    /// Two fingers: the distance between them changed by `scale` since the last report, about `center`; the
    /// centre moved by (dx, dy).
    case pinch(scale: Double, center: CanvasPoint, dx: Double, dy: Double)
    /// The pinch ended.
    case pinchEnded
}

/// Thresholds, as fractions of the canvas's shorter side where they are distances.
public struct GestureSettings: Sendable, Equatable {
    /// A finger that moves less than this (fraction of the shorter side) is still a tap or a long press.
    public var slop = 0.02
    /// Seconds a tap may last.
    public var tapTime = 0.3
    /// Seconds between the two taps of a double tap.
    public var doubleTapTime = 0.3
    /// Two taps further apart than this (fraction of the shorter side) are two taps.
    public var doubleTapDistance = 0.08
    /// Seconds for a long press.
    public var longPressTime = 0.6
    /// A swipe moves at least this far horizontally (fraction of the canvas width).
    public var swipeDistance = 0.12
    /// A swipe ends at least this fast (canvas widths per second); a slower drag is a pan.
    public var swipeVelocity = 0.5
    /// Seconds of the last movement that set the release velocity.
    public var velocityWindow = 0.1

    /// The defaults.
    public init() {}
}

/// Turns touch samples into gestures. Feed it `touch(...)` for every sample and `tick(at:)` once per frame
/// (taps and long presses are decided by time passing).
public struct GestureRecognizer: Sendable {
    private struct Finger: Sendable {
        var start: CanvasPoint
        var startTime: Double
        var last: CanvasPoint
        var history: [(CanvasPoint, Double)]
    }

    private enum Mode: Sendable, Equatable {
        case idle
        /// One finger, not yet moved past the slop.
        case pressing
        /// One finger dragging.
        case dragging
        /// Two fingers (or more: the first two count).
        case pinching
        /// Long press reported, or a pinch ended with a finger still down: wait for all fingers up.
        case ignoring
    }

    /// The settings in use.
    public var settings: GestureSettings
    /// The canvas the points are on (thresholds scale with it).
    public var canvas: PixelSize

    private var fingers: [Int: Finger] = [:]
    private var order: [Int] = []  // slots in the order they went down
    private var mode: Mode = .idle
    private var maxFingers = 0
    private var sequenceStart = 0.0
    private var moved = false
    private var pendingTap: (CanvasPoint, Double)?
    private var lastPinch: (distance: Double, center: CanvasPoint)?
    private var pinchStarted = false

    /// Creates a recogniser for a canvas.
    public init(canvas: PixelSize, settings: GestureSettings = GestureSettings()) {
        self.canvas = canvas
        self.settings = settings
    }

    private var shortSide: Double { Double(max(1, min(canvas.width, canvas.height))) }

    /// Whether any finger is down.
    public var isTouching: Bool { !fingers.isEmpty }

    /// Feeds one sample; returns the gestures it completes.
    public mutating func touch(_ phase: TouchPhase, slot: Int, at p: CanvasPoint, time t: Double) -> [Gesture] {
        var out = tick(at: t)
        switch phase {
        case .down:
            guard fingers[slot] == nil else { return out + move(slot: slot, to: p, time: t) }
            if fingers.isEmpty {
                maxFingers = 0
                moved = false
                sequenceStart = t
                mode = .pressing
            }
            fingers[slot] = Finger(start: p, startTime: t, last: p, history: [(p, t)])
            order.append(slot)
            maxFingers = max(maxFingers, fingers.count)
            if fingers.count == 2 {
                if mode == .dragging { out.append(.dragEnded(vx: 0, vy: 0)) }
                if mode == .pressing || mode == .dragging { mode = .pinching }
                lastPinch = pinchGeometry()
            }
        case .move:
            out += move(slot: slot, to: p, time: t)
        case .up:
            guard fingers[slot] != nil else { return out }
            out += move(slot: slot, to: p, time: t)
            out += lift(slot: slot, time: t)
        case .cancel:
            fingers.removeAll()
            order.removeAll()
            if mode == .dragging { out.append(.dragEnded(vx: 0, vy: 0)) }
            if mode == .pinching, pinchStarted { out.append(.pinchEnded) }
            pinchStarted = false
            mode = .idle
            pendingTap = nil
        }
        return out
    }

    /// Lets time pass: reports a tap whose double-tap time ran out, or a long press.
    public mutating func tick(at t: Double) -> [Gesture] {
        var out: [Gesture] = []
        if let (p, at) = pendingTap, t - at > settings.doubleTapTime, fingers.isEmpty {
            pendingTap = nil
            out.append(.tap(p))
        }
        if mode == .pressing, fingers.count == 1, let f = fingers.values.first, t - f.startTime >= settings.longPressTime {
            mode = .ignoring
            pendingTap = nil
            out.append(.longPress(f.start))
        }
        return out
    }

    private mutating func move(slot: Int, to p: CanvasPoint, time t: Double) -> [Gesture] {
        guard var f = fingers[slot] else { return [] }
        let previous = f.last
        f.last = p
        f.history.append((p, t))
        while f.history.count > 2, let first = f.history.first, t - first.1 > settings.velocityWindow { f.history.removeFirst() }
        fingers[slot] = f
        if f.start.distance(to: p) > settings.slop * shortSide { moved = true }
        switch mode {
        case .pressing:
            guard moved else { return [] }
            mode = .dragging
            pendingTap = nil
            return [.drag(dx: p.x - f.start.x, dy: p.y - f.start.y)]
        case .dragging:
            return p == previous ? [] : [.drag(dx: p.x - previous.x, dy: p.y - previous.y)]
        case .pinching:
            guard moved, let before = lastPinch, let now = pinchGeometry() else { return [] }
            lastPinch = now
            pinchStarted = true
            guard before.distance > 0, now.distance > 0 else { return [] }
            let scale = now.distance / before.distance
            if scale == 1 && now.center == before.center { return [] }
            return [.pinch(scale: scale, center: now.center, dx: now.center.x - before.center.x, dy: now.center.y - before.center.y)]
        case .idle, .ignoring:
            return []
        }
    }

    private mutating func lift(slot: Int, time t: Double) -> [Gesture] {
        guard let f = fingers[slot] else { return [] }
        fingers[slot] = nil
        order.removeAll { $0 == slot }
        var out: [Gesture] = []
        switch mode {
        case .pressing:
            guard fingers.isEmpty else { break }
            mode = .idle
            if t - f.startTime <= settings.tapTime {
                if let (p, at) = pendingTap, t - at <= settings.doubleTapTime + settings.tapTime,
                   p.distance(to: f.start) <= settings.doubleTapDistance * shortSide {
                    pendingTap = nil
                    out.append(.doubleTap(p))
                } else {
                    if let (p, _) = pendingTap { out.append(.tap(p)) }
                    pendingTap = (f.start, t)
                }
            }
        case .dragging:
            mode = .idle
            let v = velocity(f)
            out.append(.dragEnded(vx: v.x, vy: v.y))
            let dx = f.last.x - f.start.x, dy = f.last.y - f.start.y
            let width = Double(max(1, canvas.width))
            if abs(dx) >= settings.swipeDistance * width, abs(dx) > 1.5 * abs(dy),
               abs(v.x) >= settings.swipeVelocity * width, (v.x < 0) == (dx < 0) {
                out.append(.swipe(forward: dx < 0))
            }
        case .pinching:
            if fingers.isEmpty {
                mode = .idle
                if pinchStarted {
                    out.append(.pinchEnded)
                } else if maxFingers == 2, !moved, t - sequenceStart <= 2 * settings.tapTime {
                    out.append(.twoFingerTap)
                }
                pinchStarted = false
            } else if fingers.count == 1 {
                // Two fingers lifting one after the other may still be a two-finger tap; a pinch ends here.
                if pinchStarted || moved || maxFingers > 2 {
                    if pinchStarted { out.append(.pinchEnded) }
                    pinchStarted = false
                    mode = .ignoring
                }
            } else {
                lastPinch = pinchGeometry()
            }
        case .ignoring:
            if fingers.isEmpty { mode = .idle }
        case .idle:
            break
        }
        return out
    }

    /// The distance between the first two fingers and their midpoint.
    private func pinchGeometry() -> (distance: Double, center: CanvasPoint)? {
        guard order.count >= 2, let a = fingers[order[0]], let b = fingers[order[1]] else { return nil }
        return (a.last.distance(to: b.last), a.last.mid(b.last))
    }

    /// The finger's velocity over the last `velocityWindow` seconds.
    private func velocity(_ f: Finger) -> CanvasPoint {
        guard let first = f.history.first, let last = f.history.last, last.1 > first.1 else { return CanvasPoint(x: 0, y: 0) }
        let dt = last.1 - first.1
        return CanvasPoint(x: (last.0.x - first.0.x) / dt, y: (last.0.y - first.0.y) / dt)
    }
}
