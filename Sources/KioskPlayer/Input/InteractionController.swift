import KioskCore
import KioskInput
import KioskRender
import KioskSeat

/// Input on the render loop: once per frame it reads the devices without blocking, turns screen points through
/// the display's rotation into canvas pixels and event times onto the player's clock, and lets the core's
/// `Interaction` turn them into commands for the player (one producer among others) and into the current
/// item's view. VT switches are done here.
public final class InteractionController {
    private let source: DeviceEventSource
    /// The input state machine, which also owns the current item's interactive view.
    let interaction: Interaction
    private let rotation: Rotation
    private let log: Log
    private var pointer = UnitPoint.center  // screen units
    /// Player time minus the source's time. The player's clock may run up to one refresh ahead of the devices'
    /// (it reads the next flip's time), so the smallest difference seen is kept: a steady offset, so that a
    /// gesture's velocity does not jitter from frame to frame.
    private var offset: Double?

    /// The canvas the player draws (it follows the display's mode).
    public var canvas: PixelSize {
        didSet { interaction.canvas = canvas }
    }

    /// Wires `source` to a new `Interaction` for a canvas shown through `rotation`.
    public init(source: DeviceEventSource, settings: InteractionSettings, canvas: PixelSize, rotation: Rotation, log: Log) {
        self.source = source
        self.rotation = rotation
        self.canvas = canvas
        self.log = log
        interaction = Interaction(canvas: canvas, settings: settings)
    }

    /// Opens libinput for `options` (the listed devices, else the seat); nil when input is off. Throws the
    /// one-line error naming the device (and the `input` group when the open was refused). `opener` opens the devices.
    public static func open(_ options: InputOptions, canvas: PixelSize, rotation: Rotation,
                            opener: DeviceOpener = DirectOpener(group: "input"), log: Log) throws -> InteractionController? {
        guard options.enabled else { return nil }
        let source = options.devices.isEmpty ? try LibinputSource(seat: options.seat, opener: opener)
            : try LibinputSource(devices: options.devices, opener: opener)
        source.ignoredDevices = Set(options.ignoredDevices)
        log.info("input: \(source.name)" + (options.ignoredDevices.isEmpty ? "" : " but \(options.ignoredDevices.joined(separator: ", ")) (another screen's)"))
        return InteractionController(source: source, settings: options.interaction, canvas: canvas, rotation: rotation, log: log)
    }

    /// The canvas point under a screen point.
    func canvasPoint(_ s: UnitPoint) -> CanvasPoint {
        let c = rotation.canvasPoint(fromScreen: s)
        return CanvasPoint(x: c.x * Double(canvas.width), y: c.y * Double(canvas.height))
    }

    /// The devices' descriptor, readable when events wait (the output's wait watches it), if there is one.
    public var fileDescriptor: Int32? { source.fileDescriptor }

    /// Reads what is waiting and lets time pass in the interaction; `t` is the player's clock, `splitBar` the
    /// effect's split bar as drawn (a fraction of the canvas width; nil when none is). Returns the commands input
    /// sends.
    public func frame(at t: Double, splitBar: Double? = nil) -> [PlayerCommand] {
        interaction.splitBar = splitBar
        for line in source.takeOpenFailures() { log.warn(line) }
        let seen = t - source.now()
        let offset = min(self.offset ?? seen, seen)
        self.offset = offset
        var requests: [InteractionRequest] = []
        for e in source.poll() {
            if let event = convert(e, offset: offset) { requests += interaction.handle(event) }
        }
        requests += interaction.step(at: t)
        return requests.compactMap(serve)
    }

    /// The composer's hook (see `Interaction.views`).
    func views(sequence: Int, current: Bool, geometry: LayerGeometry, flat: FlatView, sphere: SphereView) -> (FlatView, SphereView) {
        let v = interaction.views(sequence: sequence, current: current, geometry: geometry, flat: flat, sphere: sphere)
        return (v.flat, v.sphere)
    }

    private func convert(_ e: DeviceEvent, offset: Double) -> InputEvent? {
        let screen = rotation.screenSize(forCanvas: canvas)
        switch e {
        case .deviceAdded(let name, let kinds):
            log.info("input: device '\(name)' (\(kinds.isEmpty ? "no capabilities kiosk uses" : kinds.joined(separator: ", ")))")
            return nil
        case .touch(let phase, let slot, let p, let time):
            return .touch(phase, slot: slot, at: canvasPoint(p), time: time + offset)
        case .key(let code, let pressed, let time):
            return .key(code: code, pressed: pressed, time: time + offset)
        case .pointerMotion(let dx, let dy, let time):
            pointer = UnitPoint(x: min(max(pointer.x + dx / Double(max(1, screen.width)), 0), 1),
                                y: min(max(pointer.y + dy / Double(max(1, screen.height)), 0), 1))
            return .pointerMove(at: canvasPoint(pointer), time: time + offset)
        case .pointerAbsolute(let p, let time):
            pointer = p
            return .pointerMove(at: canvasPoint(p), time: time + offset)
        case .button(let code, let pressed, let time):
            // BTN_LEFT drags; other buttons (a remote's mouse mode, extra buttons) go through the key map.
            if code == 0x110 { return .pointerButton(pressed: pressed, at: canvasPoint(pointer), time: time + offset) }
            return .key(code: code, pressed: pressed, time: time + offset)
        case .wheel(let steps, let time):
            return .wheel(steps: steps, at: canvasPoint(pointer), time: time + offset)
        case .pinch(let scale, let ended, let time):
            return pinchStep(scale: scale, ended: ended, time: time + offset)
        case .swipe(let dx, let dy, let fingers, let ended, let time):
            guard fingers >= 3 else { return nil }
            // touchpad motion is in screen pixels; turn the direction with the display
            let a = rotation.canvasPoint(fromScreen: UnitPoint(x: 0, y: 0))
            let b = rotation.canvasPoint(fromScreen: UnitPoint(x: dx / Double(max(1, screen.width)), y: dy / Double(max(1, screen.height))))
            return .touchpadSwipe(dx: (b.x - a.x) * Double(canvas.width), dy: (b.y - a.y) * Double(canvas.height),
                                  ended: ended, time: time + offset)
        }
    }

    private var lastPinchScale = 1.0

    /// libinput's pinch scale is since the pinch began; the core wants each step's.
    private func pinchStep(scale: Double, ended: Bool, time: Double) -> InputEvent {
        let step = lastPinchScale > 0 && scale > 0 ? scale / lastPinchScale : 1
        lastPinchScale = ended ? 1 : scale
        return .touchpadPinch(scale: step, at: canvasPoint(pointer), ended: ended, time: time)
    }

    /// Logs notes and switches VTs here; hands commands back.
    private func serve(_ r: InteractionRequest) -> PlayerCommand? {
        switch r {
        case .command(let c): return c
        case .note(let line): log.info("input: \(line)")
        case .switchVT(let n):
            do {
                try VirtualTerminal.activate(n)
                log.info("input: switched to VT \(n)")
            } catch {
                log.warn("\(error)")
            }
        }
        return nil
    }
}
