import Foundation

/// The whole of input's effect on the player, pure: input events in, commands out (next, previous, its own
/// pause reasons, timer restarts, volume, overlay, the effect and its split, quit), and the current item's view
/// overridden. It never
/// touches the slideshow: it is one producer of commands among others.

/// What input asks of the player: commands (the same as any other producer's), and what only the device side
/// can do (switch VT) or say (a log line).
public enum InteractionRequest: Sendable, Equatable {
    /// A command for the player: next, previous, pause reasons, timer restarts, volume, overlay, quit.
    case command(PlayerCommand)
    /// Switch to this VT (only reachable with `--allow-vt-switch`).
    case switchVT(Int)
    /// A line worth logging: what a gesture or key did.
    case note(String)
}

/// Input settings from the command line.
public struct InteractionSettings: Sendable {
    /// The key map with its safety flags.
    public var keys = KeyMap()
    /// Seconds without input after which a zoomed or turned or paused view goes back to the slideshow.
    public var touchIdle: Double?
    /// Gesture thresholds.
    public var gestures = GestureSettings()

    /// Defaults.
    public init() {}
}

/// Input's state machine. Call `handle` for each event and `step` once per frame before the slideshow's update,
/// and run the commands they return; call `views` from the composer for each layer.
public final class Interaction {
    /// Zoom factor of one key press or wheel detent.
    public static let zoomStep = 1.5
    /// Zoom factor of one wheel detent.
    public static let wheelStep = 1.25

    private var recognizer: GestureRecognizer
    private var keys: KeyMap
    private let touchIdle: Double?
    private var view = ViewInteraction()
    private var sequence: Int?
    private var geometry: LayerGeometry?
    private var fitted = FlatView()
    private var baseSphere = SphereView()
    private var userPaused = false
    /// The pause reasons this producer holds now (it sends a command when one changes).
    private var held = Set<PauseReason>()
    private var lastInput: Double?
    private var now = 0.0
    private var pointer: CanvasPoint
    private var mouseDown = false
    private var padSwipe = (dx: 0.0, dy: 0.0)
    private var splitDrag = SplitDrag()

    /// Whether the overview grid is open: touches, keys and the wheel then drive it (`GridInputRouting`). The
    /// player sets it once a frame, before `handle`.
    public var gridOpen = false

    /// While a layout plays: the keys (letters, digits) its `accesskey()` begins wait on, which go to it instead of
    /// the key map, and whether a tap goes to it (its `activateEvent` begins) instead of the info toggle.
    public var layoutKeys: Set<Character> = []
    public var layoutTaps = false

    /// The canvas points are on.
    public var canvas: PixelSize {
        didSet {
            recognizer.canvas = canvas
        }
    }

    /// Creates the state for a canvas.
    public init(canvas: PixelSize, settings: InteractionSettings) {
        self.canvas = canvas
        recognizer = GestureRecognizer(canvas: canvas, settings: settings.gestures)
        keys = settings.keys
        touchIdle = settings.touchIdle
        pointer = CanvasPoint(x: Double(canvas.width) / 2, y: Double(canvas.height) / 2)
    }

    /// The split bar as last drawn (a fraction of the canvas width), nil while none is drawn: a drag starting
    /// within `SplitDrag.reach` pixels of it moves the split. The player sets it once a frame, before `handle`.
    public var splitBar: Double? {
        get { splitDrag.bar }
        set { splitDrag.bar = newValue }
    }

    /// Whether the user paused the slideshow (two-finger tap, pause key).
    public var isUserPaused: Bool { userPaused }

    /// Whether the current flat item is zoomed in at the last step.
    public var isZoomed: Bool { view.isZoomed(at: now) }

    private var centre: CanvasPoint { CanvasPoint(x: Double(canvas.width) / 2, y: Double(canvas.height) / 2) }

    /// One input event at player time `t` (events are stamped in the same time).
    public func handle(_ event: InputEvent) -> [InteractionRequest] {
        let t = event.time
        now = max(now, t)
        var out: [InteractionRequest] = []
        switch event {
        case .touch(let phase, let slot, let p, _):
            lastInput = t
            let first = phase == .down && !recognizer.isTouching
            if first && !gridOpen { _ = splitDrag.press(at: p, canvas: canvas) }
            for g in recognizer.touch(phase, slot: slot, at: p, time: t) {
                out += splitDrag.isGrabbing ? grabbed(g, at: p, time: t) : apply(g, at: t)
            }
            // A second finger (a pinch) or the last one lifting ends the grab.
            if (phase == .down && !first) || !recognizer.isTouching { splitDrag.release() }
        case .key(let code, let pressed, _) where !gridOpen && KeyCode.character(code).map(layoutKeys.contains) == true:
            if pressed, let c = KeyCode.character(code) {
                lastInput = t
                out.append(.command(.trigger(.key(c))))
            }
        case .key(let code, let pressed, _):
            let outcome = keys.handle(code: code, pressed: pressed)
            if pressed { lastInput = t }
            if gridOpen, let g = GridInputRouting.command(forKey: code) {
                if pressed { out.append(.command(.grid(g))) }
            } else if !gridOpen || GridInputRouting.passesThrough(outcome) {
                out += apply(outcome, code: code, at: t)
            }
        case .pointerMove(let p, _):
            if mouseDown {
                let drag = Gesture.drag(dx: p.x - pointer.x, dy: p.y - pointer.y)
                out += splitDrag.isGrabbing ? grabbed(drag, at: p, time: t) : apply(drag, at: t)
            }
            pointer = p
        case .pointerButton(let pressed, let p, _):
            lastInput = t
            pointer = p
            if !pressed && mouseDown && gridOpen { out.append(.command(.grid(.input(.dragEnded(vy: 0))))) }
            if !pressed && mouseDown, !gridOpen, !splitDrag.isGrabbing, geometry?.spherical == true {
                view.release(vx: 0, vy: 0, t: t, base: baseSphere, canvas: canvas)
            }
            if pressed && !mouseDown && !gridOpen { _ = splitDrag.press(at: p, canvas: canvas) }
            if !pressed { splitDrag.release() }
            mouseDown = pressed
        case .wheel(let steps, let p, _):
            lastInput = t
            pointer = p
            if gridOpen { return [.command(.grid(GridInputRouting.command(forWheel: steps)))] }
            out += zoom(by: Foundation.pow(Self.wheelStep, steps), about: p, at: t)
        case .touchpadPinch(let scale, let p, let ended, _):
            lastInput = t
            if scale != 1 { out += apply(.pinch(scale: scale, center: p, dx: 0, dy: 0), at: t) }
            if ended { out += apply(.pinchEnded, at: t) }
        case .touchpadSwipe(let dx, let dy, let ended, _):
            lastInput = t
            padSwipe.dx += dx
            padSwipe.dy += dy
            if ended {
                let s = padSwipe
                padSwipe = (0, 0)
                if abs(s.dx) >= 0.1 * Double(canvas.width), abs(s.dx) > abs(s.dy) {
                    out += skip(forward: s.dx < 0, why: "touchpad swipe")
                }
            }
        }
        return out
    }

    /// Once per frame at player time `t`, before the slideshow's update: pending taps and long presses, ending
    /// animations, the return after `touchIdle`, and the rule that the slideshow pauses while zoomed in.
    public func step(at t: Double) -> [InteractionRequest] {
        now = max(now, t)
        var out: [InteractionRequest] = []
        for g in recognizer.tick(at: t) { out += apply(g, at: t) }
        view.settle(at: t)
        if let idle = touchIdle, let last = lastInput, t - last >= idle, view.isTouched || userPaused {
            view.reset(at: t, base: fitted)
            userPaused = false
            lastInput = nil
            out.append(.note("no input for \(idle) s: back to the slideshow"))
        }
        out += hold(.user, userPaused)
        out += hold(.zoomed, view.isZoomed(at: t))
        out += hold(.interaction, recognizer.isTouching || mouseDown)
        return out
    }

    /// The composer's hook: the views a layer is drawn with. For the current slot the user's zoom, pan or turn
    /// replaces the slideshow's own `flat` and `sphere`; a new slot starts untouched.
    public func views(sequence s: Int, current: Bool, geometry g: LayerGeometry, flat: FlatView,
                      sphere: SphereView) -> (flat: FlatView, sphere: SphereView) {
        guard current else { return (flat, sphere) }
        if sequence != s {
            sequence = s
            view = ViewInteraction()
            mouseDown = false
        }
        geometry = g
        fitted = FlatView(fit: flat.fit)
        if !view.isTouched { baseSphere = sphere }
        return (view.isTouched ? view.flatView(at: now, base: fitted) : flat,
                view.sphereView(at: now, base: baseSphere, canvas: g.canvas))
    }

    /// The current item's view as drawn at `t`: zoom and centre of a flat item (the fitted view until the user
    /// zooms or pans), angles and field of view of a sphere; nil while nothing shows.
    public func status(at t: Double) -> PlayerStatus.View? {
        guard let geo = geometry else { return nil }
        var out = PlayerStatus.View()
        let sphere = view.sphereView(at: t, base: baseSphere, canvas: geo.canvas)
        (out.yaw, out.pitch, out.roll, out.fov) = (sphere.yaw, sphere.pitch, sphere.roll, sphere.hFOV)
        if !geo.spherical {
            let flat = view.isTouched ? view.flatView(at: t, base: fitted) : fitted
            let c = flat.clampedCenter(picture: geo.picture, canvas: geo.canvas)
            (out.zoom, out.centerX, out.centerY) = (flat.zoom, c.x, c.y)
        }
        return out
    }

    /// A view command (from any producer) on the current item at `t`: zoom and centre for flat items, angles and
    /// field of view for spheres; fails with a reason when it does not apply to what is showing.
    public func apply(_ change: ViewChange, at t: Double) -> CommandReply {
        guard let geo = geometry else { return .failed("nothing is showing") }
        now = max(now, t)
        lastInput = t
        let flatOnly = "applies to flat pictures; a 360/180/fisheye item takes yaw, pitch, roll and fov"
        let sphereOnly = "applies to 360/180/fisheye items; a flat picture takes zoom and center"
        var flat = view.targetFlat(base: fitted)
        var sphere = view.sphereView(at: t, base: baseSphere, canvas: geo.canvas)
        switch change {
        case .reset:
            view.reset(at: t, base: fitted)
            return .done()
        case .zoom(let z):
            guard !geo.spherical else { return .failed("zoom \(flatOnly)") }
            guard z.isFinite, z > 0 else { return .failed("zoom must be a number from 1 to 4") }
            flat.zoom = z
        case .center(let x, let y):
            guard !geo.spherical else { return .failed("center \(flatOnly)") }
            guard (0...1).contains(x), (0...1).contains(y) else { return .failed("center must be X,Y within 0...1") }
            flat.center = UnitPoint(x: x, y: y)
        case .yaw(let d): sphere.yaw = d
        case .pitch(let d): sphere.pitch = d
        case .roll(let d): sphere.roll = d
        case .fov(let d):
            guard d.isFinite, d > 0 else { return .failed("fov must be degrees within 20...120") }
            sphere = sphere.zoomed(by: tan(sphere.hFOV * .pi / 360) / tan(min(d, 179) * .pi / 360))
        }
        switch change {
        case .zoom, .center:
            view.set(flat: flat, t: t, base: fitted, geometry: geo)
        default:
            guard geo.spherical else { return .failed("\(change) \(sphereOnly)") }
            guard [sphere.yaw, sphere.pitch, sphere.roll].allSatisfy(\.isFinite) else { return .failed("angles must be finite degrees") }
            view.set(sphere: sphere)
        }
        return .done()
    }

    // MARK: - gestures and keys to commands

    /// A command and what it did, as requests.
    private static let restart = InteractionRequest.command(.restartTimer)

    private func apply(_ g: Gesture, at t: Double) -> [InteractionRequest] {
        if gridOpen { return GridInputRouting.command(for: g).map { [.command(.grid($0))] } ?? [] }
        if case .longPress = g { return [.command(.grid(.open)), .note("long press: the grid")] }
        if layoutTaps, case .tap(let p) = g {
            let x = p.x / Double(max(1, canvas.width)), y = p.y / Double(max(1, canvas.height))
            return [.command(.trigger(.tap(x: x, y: y))), .note(String(format: "tap at %.0f,%.0f: the layout's", p.x, p.y))]
        }
        guard let geo = geometry else { return [] }
        switch g {
        case .tap:
            return [Self.restart, .command(.overlay(.toggleInfo))]
        case .longPress:
            return []
        case .twoFingerTap:
            return togglePause(why: "two-finger tap")
        case .doubleTap(let p):
            if geo.spherical {
                view.reset(at: t, base: fitted)
                return [Self.restart, .note("double tap: view reset")]
            }
            view.doubleTap(at: p, t: t, base: fitted, geometry: geo)
            let v = view.flat ?? fitted
            return [Self.restart, .note(String(format: "double tap at %.0f,%.0f: zoom %.2f centre %.3f,%.3f", p.x, p.y, v.zoom, v.center.x, v.center.y))]
        case .drag(let dx, let dy):
            if geo.spherical {
                view.turn(dx: dx, dy: dy, t: t, base: baseSphere, canvas: geo.canvas)
            } else {
                view.pan(dx: dx, dy: dy, t: t, base: fitted, geometry: geo)
            }
            return [Self.restart]
        case .dragEnded(let vx, let vy):
            guard geo.spherical else { return [] }
            view.release(vx: vx, vy: vy, t: t, base: baseSphere, canvas: geo.canvas)
            let v = view.sphereView(at: t, base: baseSphere, canvas: geo.canvas)
            return [.note(String(format: "drag: view yaw %.1f pitch %.1f", v.yaw, v.pitch))]
        case .swipe(let forward):
            guard !geo.spherical, !view.isZoomed(at: t) else { return [] }
            return skip(forward: forward, why: "swipe")
        case .pinch(let scale, let c, let dx, let dy):
            if geo.spherical {
                view.fov(scale: scale, t: t, base: baseSphere, canvas: geo.canvas)
            } else {
                view.pinch(scale: scale, about: c, dx: dx, dy: dy, t: t, base: fitted, geometry: geo)
            }
            return [Self.restart]
        case .pinchEnded:
            guard !geo.spherical else { return [] }
            view.pinchEnded(t: t, base: fitted, geometry: geo)
            return [.note(String(format: "pinch: zoom %.2f", (view.flat ?? fitted).zoom))]
        }
    }

    /// A gesture while the split bar is grabbed: a drag moves the split to where the finger is now (`p`); the
    /// drag's end and a swipe do nothing (the drag was the split's); taps and presses act as always.
    private func grabbed(_ g: Gesture, at p: CanvasPoint, time t: Double) -> [InteractionRequest] {
        switch g {
        case .drag:
            guard let split = splitDrag.split(at: p, canvas: canvas) else { return [] }
            return [Self.restart, .command(.effectSplit(split))]
        case .dragEnded, .swipe:
            return []
        default:
            return apply(g, at: t)
        }
    }

    private func apply(_ outcome: KeyOutcome, code: Int, at t: Double) -> [InteractionRequest] {
        switch outcome {
        case .ignored: return []
        case .switchVT(let n): return [.switchVT(n)]
        case .action(let a):
            switch a {
            case .next, .previous: return skip(forward: a == .next, why: "key \(code)")
            case .pause: return togglePause(why: "key \(code)")
            case .zoomIn: return zoom(by: Self.zoomStep, about: centre, at: t)
            case .zoomOut: return zoom(by: 1 / Self.zoomStep, about: centre, at: t)
            case .volumeUp: return [.command(.volume(.by(10)))]
            case .volumeDown: return [.command(.volume(.by(-10)))]
            case .mute: return [.command(.volume(.toggleMute))]
            case .overlay: return [Self.restart, .command(.overlay(.toggleInfo))]
            case .back:
                view.reset(at: t, base: fitted)
                userPaused = false
                return [Self.restart, .note("key \(code): back to the slideshow")]
            case .effect: return [.command(.toggleEffect), .note("key \(code): effect on or off")]
            case .grid: return [.command(.grid(.toggle)), .note("key \(code): the grid")]
            case .quit: return [.command(.quit)]
            case .none: return []
            }
        }
    }

    private func skip(forward: Bool, why: String) -> [InteractionRequest] {
        view = ViewInteraction()
        return [.command(forward ? .next : .previous), .note("\(why): \(forward ? "next" : "previous")")]
    }

    private func togglePause(why: String) -> [InteractionRequest] {
        userPaused.toggle()
        return [Self.restart, .note("\(why): \(userPaused ? "paused" : "resumed")")]
    }

    /// The command that adds or removes this producer's pause `reason` when `wanted` changed.
    private func hold(_ reason: PauseReason, _ wanted: Bool) -> [InteractionRequest] {
        guard wanted != held.contains(reason) else { return [] }
        if wanted { held.insert(reason) } else { held.remove(reason) }
        return [.command(wanted ? .pause(reason) : .resume(reason))]
    }

    private func zoom(by scale: Double, about p: CanvasPoint, at t: Double) -> [InteractionRequest] {
        guard let geo = geometry else { return [] }
        if geo.spherical {
            view.fov(scale: scale, t: t, base: baseSphere, canvas: geo.canvas)
            return [Self.restart]
        }
        view.zoomStep(by: scale, about: p, t: t, base: fitted, geometry: geo)
        return [Self.restart, .note(String(format: "zoom %.2f", (view.flat ?? fitted).zoom))]
    }
}
