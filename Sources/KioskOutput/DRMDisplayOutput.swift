import Foundation
import KioskCore
import KioskRender
import KioskSeat

/// The DRM/KMS display as the player's output: a `DRMOutput` (GBM scanout, modeset, page flips) with the
/// renderer's GL context on its GBM device and a window surface on its GBM surface. One frame per vblank:
/// `present()` swaps and waits for the flip. The canvas is the mode's size, transposed for 90° and 270°; the
/// renderer's final pass turns it onto the screen. Keeps going through lost master and disconnects
/// (`DisplayLink`), and takes up a new mode (a new preferred mode after a hotplug, when no `--drm-mode` was
/// asked for) with new GBM and EGL surfaces: `size` then changes. Use on the render thread only.
public final class DRMDisplayOutput: Output {
    /// The GL context on the card's GBM device (it keeps the `DRMOutput` alive until EGL is done with it).
    public let context: GLContext
    /// How the canvas is turned onto the screen.
    public let rotation: Rotation
    /// The canvas size the slideshow composes at: the mode's size, transposed for 90° and 270°.
    public private(set) var size: PixelSize
    private let drm: DRMOutput
    private let options: DRMOutputOptions
    private var screen: DefaultTarget
    /// A mode change that failed half-way: the next `present()` throws it.
    private var failure: Error?
    /// The connector's fingerprint at the last poll (a change triggers a full probe).
    private var fingerprint = ""
    private let log: Log
    private var link: DisplayLink
    /// Raised by `wakeup()` from any thread; ends the current or next wait.
    public let wakeupSignal = WakeupSignal()
    private var watched: [Int32] = []
    /// The outputs on the card's other connectors whose connector polls and master retries this one's waits run
    /// (the frame loop waits on one output only), and to which it passes hotplug events.
    private var companions: [DRMDisplayOutput] = []
    /// The clock this output feeds with each flip's time: the player's clock reads the next vblank from it.
    public let presentationClock: PresentationClock

    /// Opens the display chosen by `options` (from `report`, read now if nil) and sets up EGL on it; `opener`
    /// opens the card. Nothing is shown until the first `present()`.
    /// Each flip it shows feeds `clock` (its own when none is given).
    public convenience init(options: DRMOutputOptions, rotation: Rotation, report: DisplayReport? = nil,
                            opener: DeviceOpener = DirectOpener(group: "video"), clock: PresentationClock = PresentationClock(),
                            log: Log = .shared) throws {
        let drm = try DRMOutput(options: options, report: report, opener: opener, log: log)
        try self.init(drm: drm, options: options, rotation: rotation, clock: clock, log: log)
    }

    /// Sets up EGL on `drm` (an output opened on its card, e.g. one of several, `open(screens:report:opener:log:)`);
    /// `options` choose the mode it takes up after a hotplug. Each flip it shows feeds `clock`.
    public init(drm: DRMOutput, options: DRMOutputOptions, rotation: Rotation, clock: PresentationClock = PresentationClock(),
                log: Log = .shared) throws {
        presentationClock = clock
        let context = try GLContext(gbmDevice: drm.gbmDeviceHandle, owner: drm)
        try context.makeWindowSurface(gbmSurface: drm.gbmSurfaceHandle, format: drm.gbmFormat)
        drm.attach(swapBuffers: { [weak context] in try context?.swapBuffers() })
        let screenSize = drm.scanoutSize
        self.drm = drm
        self.context = context
        self.rotation = rotation
        self.options = options
        screen = DefaultTarget(size: screenSize)
        size = rotation.canvasSize(forScreen: screenSize)
        self.log = log
        link = DisplayLink(now: MonotonicClock.seconds())
        fingerprint = drm.connectorFingerprint()
    }

    deinit { drm.close() }

    /// Its connectors' state and EDID, for the health monitor.
    public var displayProbe: DRMDisplayProbe? { drm.displayProbe }
    /// Its flips' late and dropped frames over the last hour.
    public var frameTiming: FrameTiming? { drm.frameTiming }

    /// The card, connector and mode in use.
    public var selection: DisplaySelection { drm.selection }
    /// Every connector it shows on (a span's or mirror's all), the lead's first.
    public var parts: [DisplaySelection] { drm.partSelections }

    /// A span's panels: each connector's part of the canvas, in fractions of it (empty for one display or a mirror).
    public var panels: [String: UnitRect] {
        let canvas = drm.scanoutSize
        guard drm.partSelections.count > 1, canvas.width > drm.mode.width, canvas.width > 0, canvas.height > 0 else { return [:] }
        var out: [String: UnitRect] = [:]
        for (part, x) in zip(drm.partSelections, drm.columns) {
            out[part.connector.name] = UnitRect(x: Double(x) / Double(canvas.width), y: 0,
                                                width: Double(part.mode.width) / Double(canvas.width),
                                                height: Double(part.mode.height) / Double(canvas.height))
        }
        return out
    }

    /// `drm /dev/dri/card0 Virtual-1 640x480@60 atomic`, with the rotation when there is one; a span's or
    /// mirror's connectors joined (`Virtual-1+Virtual-2 640x480@60 atomic span 1280x480`, `DP-1,DP-2 … mirror`).
    public var name: String {
        let parts = drm.partSelections.map(\.connector.name)
        let spans = drm.partSelections.count > 1 && drm.scanoutSize.width > drm.mode.width
        let kind = parts.count < 2 ? "" : spans ? " span \(drm.scanoutSize)" : " mirror"
        return "drm \(selection.path) \(parts.joined(separator: spans ? "+" : ",")) \(drm.mode.name) \(drm.commitName)\(kind)"
            + (rotation == .none ? "" : " rotate \(rotation.rawValue)")
    }

    /// The window surface, the mode's size.
    public var target: RenderTarget { screen }
    /// Only changed frames need drawing.
    public var needsEveryFrame: Bool { false }
    /// False while master is lost or the display disconnected.
    public var isAvailable: Bool { link.isShowing }
    /// Bumps when the display comes back (the mode is set again with the next frame).
    public var generation: Int { link.generation }
    /// The mode being shown.
    public var mode: DisplayMode { drm.mode }
    /// Seconds between two vblanks.
    public var refreshInterval: Double? { drm.refreshInterval }

    /// Swaps and flips the drawn frame, waiting at most 100 ms for the flip: `.shown(at:)` the flip time
    /// (CLOCK_MONOTONIC seconds), `.pending` when the flip has not completed, `.unavailable` when the display
    /// is lost.
    public func present() throws -> PresentResult {
        if let failure { throw failure }
        guard link.isShowing else { return .unavailable }
        do {
            guard let shown = try drm.presentFrame() else { return .pending }
            presentationClock.flipped(at: shown, interval: drm.refreshInterval)
            return .shown(at: shown)
        } catch let e as DRMError where e.isLostMaster {
            if link.masterLost(at: MonotonicClock.seconds()) {
                log.warn("DRM master lost (\(e)): not drawing; retrying every \(link.masterRetry) s")
            }
            return .unavailable
        } catch {
            // A failed flip may be a display that went away: look before giving up.
            pollConnector(probe: true)
            if link.state == .disconnected { return .unavailable }
            throw error
        }
    }

    /// Waits also end when `descriptor` is readable.
    public func watch(_ descriptor: Int32) { watched.append(descriptor) }

    /// Waits until `deadline` (nil: about a vblank; up to 100 ms while the display is lost), a wakeup or a watched
    /// descriptor, then does what is due: a connector poll (every second) or a try to take master back (every
    /// half second), here and on the companions (`tendsAlso(_:)`).
    public func wait(until deadline: Double?, on clock: Clock) {
        let longest = link.isShowing ? min(drm.refreshInterval, 0.05) : 0.1
        wakeupSignal.wait(timeout: min(longest, deadline.map { max(0, $0 - clock.now) } ?? longest), also: watched)
        tend()
        for other in companions { other.tend() }
    }

    /// Makes this output's waits also poll `others`' connectors and retry their master, and pass them hotplug
    /// events: several screens in one frame loop wait on the first one's output.
    public func tendsAlso(_ others: [DRMDisplayOutput]) { companions = others.filter { $0 !== self } }

    /// Does what is due without waiting: a connector poll or a try to take master back.
    private func tend() {
        let showing = link.isShowing
        switch link.due(at: MonotonicClock.seconds()) {
        case .none: break
        case .pollConnector: pollConnector(probe: !showing)
        case .retryMaster:
            let regained = drm.regainMaster()
            if link.masterRetried(regained: regained, at: MonotonicClock.seconds()) {
                drm.requestModeset()
                log.info("DRM master is back: setting \(drm.mode.name) again")
            }
        }
    }

    /// A udev hotplug event: probe the connector now (a disconnect, a reconnect or a new mode list), and the
    /// companions'.
    public func displayChanged() {
        log.info("display hotplug event: probing \(drm.selection.connector.name)")
        fingerprint = ""
        pollConnector(probe: true)
        for other in companions { other.displayChanged() }
    }

    /// Reads the connector and moves the link: a disconnect stops drawing, a reconnect or a new preferred mode
    /// sets the mode again. While showing, only a change of the cheap fingerprint leads to a full probe (a
    /// probe can read the EDID over DDC and stall a frame).
    private func pollConnector(probe: Bool) {
        let now = MonotonicClock.seconds()
        let seen = drm.connectorFingerprint()
        if !probe && seen == fingerprint {
            _ = link.connector(connected: true, at: now)   // unchanged: just restart the poll interval
            return
        }
        fingerprint = seen
        let connector: ConnectorReport
        do {
            connector = try drm.readConnector(probe: true)
        } catch {
            log.warn("\(error)")
            _ = link.connector(connected: link.isShowing, at: now)
            return
        }
        let connected = connector.status != .disconnected && !connector.modes.isEmpty
        switch link.connector(connected: connected, at: now) {
        case .disconnected?:
            log.warn("display on \(connector.name) disconnected: idle until it comes back")
        case .showing?:
            drm.requestModeset()
            let offered = connector.modes.contains { $0.width == drm.mode.width && $0.height == drm.mode.height }
            log.info("display on \(connector.name) is back: setting \(drm.mode.name) again"
                     + (offered ? "" : " (no longer offered; modes: \(connector.modes.map(\.name).joined(separator: ", ")))"))
        default:
            if link.isShowing { takeUpNewMode(connector) }
        }
    }

    /// Sets the mode the options now choose on `connector` when it is not the one shown (a new preferred mode,
    /// or the asked-for mode back), with GBM and EGL surfaces of its size.
    private func takeUpNewMode(_ connector: ConnectorReport) {
        guard drm.partSelections.count == 1 else { return }  // a span's or mirror's modes are chosen at start
        let card = CardReport(path: selection.path, driver: "", connectors: [connector])
        var wanted = options
        wanted.devicePath = selection.path
        wanted.connectorName = connector.name
        guard let next = try? DisplayReport(cards: [card]).select(wanted), next.mode != drm.mode else { return }
        let before = drm.mode.name
        do {
            try drm.changeMode(to: next, dropSurface: { context.dropWindowSurface() })
            try context.makeWindowSurface(gbmSurface: drm.gbmSurfaceHandle, format: drm.gbmFormat)
        } catch {
            failure = error
            return
        }
        let screenSize = PixelSize(width: next.mode.width, height: next.mode.height)
        screen = DefaultTarget(size: screenSize)
        size = rotation.canvasSize(forScreen: screenSize)
        link.redraw()
        log.info("display mode is now \(next.mode.name) (was \(before)), canvas \(size)")
    }

    /// Turns the screen on or off (DPMS); frames presented while off are not shown.
    public func setScreenPower(on: Bool) throws { try drm.setScreenPower(on: on) }

    /// Whether the screen is on (DPMS).
    public func screenPowerIsOn() throws -> Bool { try drm.screenPowerIsOn() }

    /// Restores the CRTC and mode found at start and gives DRM master up. Idempotent.
    public func close() { drm.close() }
}
