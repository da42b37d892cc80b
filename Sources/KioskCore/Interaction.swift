import Foundation

/// The whole of input's effect on the player, pure: input events in, the slideshow driven (next, previous,
/// pause while zoomed, timer restarts, return after idle) and the current item's view overridden; what the core
/// can't do itself (overlay, volume, quit, VT switch) comes back as requests.

/// What input asks of the player beyond the slideshow and the view.
public enum InteractionRequest: Sendable, Equatable {
    /// Show or hide the info overlay (tap, OK/Enter).
    case overlay
    /// Show the item's info (long press).
    case info
    /// Louder.
    case volumeUp
    /// Quieter.
    case volumeDown
    /// Mute or unmute.
    case mute
    /// Quit (only reachable with `--allow-quit`).
    case quit
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

/// Input's state machine over the slideshow. Call `handle` for each event, `step` once per frame before the
/// slideshow's update, and `views` from the composer for each layer.
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
    private var lastInput: Double?
    private var now = 0.0
    private var pointer: CanvasPoint
    private var mouseDown = false
    private var padSwipe = (dx: 0.0, dy: 0.0)

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

    /// Whether the user paused the slideshow (two-finger tap, pause key).
    public var isUserPaused: Bool { userPaused }

    /// Whether the current flat item is zoomed in at the last step.
    public var isZoomed: Bool { view.isZoomed(at: now) }

    private var centre: CanvasPoint { CanvasPoint(x: Double(canvas.width) / 2, y: Double(canvas.height) / 2) }

    /// One input event at player time `t` (events are stamped in the same time).
    public func handle(_ event: InputEvent, slideshow: Slideshow) -> [InteractionRequest] {
        let t = event.time
        now = max(now, t)
        var out: [InteractionRequest] = []
        switch event {
        case .touch(let phase, let slot, let p, _):
            lastInput = t
            for g in recognizer.touch(phase, slot: slot, at: p, time: t) { out += apply(g, at: t, slideshow: slideshow) }
        case .key(let code, let pressed, _):
            let outcome = keys.handle(code: code, pressed: pressed)
            if pressed { lastInput = t }
            out += apply(outcome, code: code, at: t, slideshow: slideshow)
        case .pointerMove(let p, _):
            if mouseDown { out += apply(.drag(dx: p.x - pointer.x, dy: p.y - pointer.y), at: t, slideshow: slideshow) }
            pointer = p
        case .pointerButton(let pressed, let p, _):
            lastInput = t
            pointer = p
            if !pressed && mouseDown, geometry?.spherical == true { view.release(vx: 0, vy: 0, t: t, base: baseSphere, canvas: canvas) }
            mouseDown = pressed
        case .wheel(let steps, let p, _):
            lastInput = t
            pointer = p
            out += zoom(by: Foundation.pow(Self.wheelStep, steps), about: p, at: t, slideshow: slideshow)
        case .touchpadPinch(let scale, let p, let ended, _):
            lastInput = t
            if scale != 1 { out += apply(.pinch(scale: scale, center: p, dx: 0, dy: 0), at: t, slideshow: slideshow) }
            if ended { out += apply(.pinchEnded, at: t, slideshow: slideshow) }
        case .touchpadSwipe(let dx, let dy, let ended, _):
            lastInput = t
            padSwipe.dx += dx
            padSwipe.dy += dy
            if ended {
                let s = padSwipe
                padSwipe = (0, 0)
                if abs(s.dx) >= 0.1 * Double(canvas.width), abs(s.dx) > abs(s.dy) {
                    out += skip(forward: s.dx < 0, at: t, slideshow: slideshow, why: "touchpad swipe")
                }
            }
        }
        return out
    }

    /// Once per frame at player time `t`, before the slideshow's update: pending taps and long presses, ending
    /// animations, the return after `touchIdle`, and the rule that the slideshow pauses while zoomed in.
    public func step(at t: Double, slideshow: Slideshow) -> [InteractionRequest] {
        now = max(now, t)
        var out: [InteractionRequest] = []
        for g in recognizer.tick(at: t) { out += apply(g, at: t, slideshow: slideshow) }
        view.settle(at: t)
        if let idle = touchIdle, let last = lastInput, t - last >= idle, view.isTouched || userPaused {
            view.reset(at: t, base: fitted)
            userPaused = false
            lastInput = nil
            out.append(.note("no input for \(idle) s: back to the slideshow"))
        }
        let wantPaused = userPaused || view.isZoomed(at: t)
        if wantPaused && !slideshow.isPaused { slideshow.pause(at: t) }
        if !wantPaused && slideshow.isPaused { slideshow.resume(at: t) }
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

    // MARK: - gestures and keys to actions

    private func apply(_ g: Gesture, at t: Double, slideshow: Slideshow) -> [InteractionRequest] {
        guard let geo = geometry else { return [] }
        switch g {
        case .tap:
            slideshow.restartTimer(at: t)
            return [.overlay]
        case .longPress:
            slideshow.restartTimer(at: t)
            return [.info]
        case .twoFingerTap:
            return [togglePause(at: t, slideshow: slideshow, why: "two-finger tap")]
        case .doubleTap(let p):
            slideshow.restartTimer(at: t)
            if geo.spherical {
                view.reset(at: t, base: fitted)
                return [.note("double tap: view reset")]
            }
            view.doubleTap(at: p, t: t, base: fitted, geometry: geo)
            let v = view.flat ?? fitted
            return [.note(String(format: "double tap at %.0f,%.0f: zoom %.2f centre %.3f,%.3f", p.x, p.y, v.zoom, v.center.x, v.center.y))]
        case .drag(let dx, let dy):
            slideshow.restartTimer(at: t)
            if geo.spherical {
                view.turn(dx: dx, dy: dy, t: t, base: baseSphere, canvas: geo.canvas)
            } else {
                view.pan(dx: dx, dy: dy, t: t, base: fitted, geometry: geo)
            }
            return []
        case .dragEnded(let vx, let vy):
            guard geo.spherical else { return [] }
            view.release(vx: vx, vy: vy, t: t, base: baseSphere, canvas: geo.canvas)
            let v = view.sphereView(at: t, base: baseSphere, canvas: geo.canvas)
            return [.note(String(format: "drag: view yaw %.1f pitch %.1f", v.yaw, v.pitch))]
        case .swipe(let forward):
            guard !geo.spherical, !view.isZoomed(at: t) else { return [] }
            return skip(forward: forward, at: t, slideshow: slideshow, why: "swipe")
        case .pinch(let scale, let c, let dx, let dy):
            slideshow.restartTimer(at: t)
            if geo.spherical {
                view.fov(scale: scale, t: t, base: baseSphere, canvas: geo.canvas)
            } else {
                view.pinch(scale: scale, about: c, dx: dx, dy: dy, t: t, base: fitted, geometry: geo)
            }
            return []
        case .pinchEnded:
            guard !geo.spherical else { return [] }
            view.pinchEnded(t: t, base: fitted, geometry: geo)
            return [.note(String(format: "pinch: zoom %.2f", (view.flat ?? fitted).zoom))]
        }
    }

    private func apply(_ outcome: KeyOutcome, code: Int, at t: Double, slideshow: Slideshow) -> [InteractionRequest] {
        switch outcome {
        case .ignored: return []
        case .switchVT(let n): return [.switchVT(n)]
        case .action(let a):
            switch a {
            case .next, .previous: return skip(forward: a == .next, at: t, slideshow: slideshow, why: "key \(code)")
            case .pause: return [togglePause(at: t, slideshow: slideshow, why: "key \(code)")]
            case .zoomIn: return zoom(by: Self.zoomStep, about: centre, at: t, slideshow: slideshow)
            case .zoomOut: return zoom(by: 1 / Self.zoomStep, about: centre, at: t, slideshow: slideshow)
            case .volumeUp: return [.volumeUp]
            case .volumeDown: return [.volumeDown]
            case .mute: return [.mute]
            case .overlay: slideshow.restartTimer(at: t); return [.overlay]
            case .back:
                view.reset(at: t, base: fitted)
                userPaused = false
                slideshow.restartTimer(at: t)
                return [.note("key \(code): back to the slideshow")]
            case .quit: return [.quit]
            case .none: return []
            }
        }
    }

    private func skip(forward: Bool, at t: Double, slideshow: Slideshow, why: String) -> [InteractionRequest] {
        view = ViewInteraction()
        if forward { slideshow.next() } else { slideshow.previous() }
        return [.note("\(why): \(forward ? "next" : "previous")")]
    }

    private func togglePause(at t: Double, slideshow: Slideshow, why: String) -> InteractionRequest {
        userPaused.toggle()
        slideshow.restartTimer(at: t)
        return .note("\(why): \(userPaused ? "paused" : "resumed")")
    }

    private func zoom(by scale: Double, about p: CanvasPoint, at t: Double, slideshow: Slideshow) -> [InteractionRequest] {
        guard let geo = geometry else { return [] }
        slideshow.restartTimer(at: t)
        if geo.spherical {
            view.fov(scale: scale, t: t, base: baseSphere, canvas: geo.canvas)
            return []
        }
        view.zoomStep(by: scale, about: p, t: t, base: fitted, geometry: geo)
        return [.note(String(format: "zoom %.2f", (view.flat ?? fitted).zoom))]
    }
}
