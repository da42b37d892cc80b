internal import CDRM
import Foundation
import KioskCore
import KioskSeat

/// The DRM/KMS output: a GBM scanout surface on the chosen connector and mode, shown by page flips.
///
/// Wiring: create it, make the renderer's EGL context on `gbmDeviceHandle` and its window surface on
/// `gbmSurfaceHandle` (format `gbmFormat`), `attach(swapBuffers:)`, then per frame draw and call
/// `presentFrame()`. `close()` gives the display back; the GBM device must outlive the EGL display on it,
/// so keep the output alive until the GL context is gone (`GLContext(gbmDevice:owner:)` does that).
public final class DRMOutput {
    /// The card, connector and mode in use.
    public private(set) var selection: DisplaySelection
    /// `atomic` or `legacy`.
    public let commitName: String
    /// The card, shared with the outputs on its other connectors.
    let card: DRMCard
    /// Every CRTC it drives and its column; the first is the lead's.
    private(set) var heads: [DRMHead]
    /// The displays' state and EDID, for the health monitor's thread.
    public let displayProbe: DRMDisplayProbe
    /// Frames shown late and dropped over the last hour, counted at each flip.
    public let frameTiming = FrameTiming()
    /// Each head's first column in the framebuffer, in `partSelections`' order.
    var columns: [Int] { heads.map { Int($0.x) } }
    /// The lead connector's pipe (polled for hotplug).
    var pipe: DRMPipe { heads[0].pipe }
    /// The GBM surface's size: the canvas every head scans out from.
    public private(set) var scanoutSize: PixelSize
    /// Every part's card, connector and mode, the lead's first.
    public private(set) var partSelections: [DisplaySelection] {
        didSet { displayProbe.drive(partSelections.map { ($0.connector.id, $0.connector.name) }) }
    }
    private var committer: DRMCommitter
    private let scanout: GBMScanout
    private let commitMode: CommitMode
    private let waiter = DRMFlipWaiter()
    private let log: Log
    private var swapBuffers: (() throws -> Void)?
    private var onScreen: OpaquePointer?
    private var pending: (bo: OpaquePointer, since: Double)?
    private var modeSet = false
    private var closed = false
    var screenOn = true

    /// Opens the card, chooses connector, mode and CRTC for `options` (from `report`, read now if nil),
    /// and creates the GBM surface; `opener` opens the card. Nothing is shown until the first `presentFrame()`.
    public convenience init(options: DRMOutputOptions = DRMOutputOptions(), report: DisplayReport? = nil,
                            opener: DeviceOpener = DirectOpener(group: "video"), log: Log = .shared) throws {
        let selection = try (report ?? DRMDevice.report(opener: opener)).select(options)
        let card = try DRMCard(path: selection.path, opener: opener, log: log)
        try self.init(selection: selection, card: card, crtc: nil, commit: options.commit, log: log)
    }

    /// Drives `selection`'s connector on `card` (which must be its card) from `crtc` (nil: the connector's first
    /// candidate; give each output of a card its own, `DRMCard.crtcs(for:)`), committing as `commit` says, and
    /// creates the GBM surface. Joins the card (the first output makes it master). Nothing is shown until the
    /// first `presentFrame()`.
    public convenience init(selection: DisplaySelection, card: DRMCard, crtc: UInt32?, commit: CommitMode, log: Log = .shared) throws {
        try self.init(parts: [DRMOutputPart(selection: selection, crtc: crtc, x: 0)], canvas: nil, card: card, commit: commit, log: log)
    }

    /// Drives several connectors of `card` from one GBM surface of `canvas` (nil: the first part's mode size): each
    /// part's CRTC scans out its mode's size from column `x` (a span's panels side by side; a mirror's all at 0).
    /// The first part leads: its connector is polled for hotplug and its mode is `mode`. Joins the card.
    public init(parts: [DRMOutputPart], canvas: PixelSize?, card: DRMCard, commit: CommitMode, log: Log = .shared) throws {
        guard let lead = parts.first else {
            throw DRMError(call: "DRMOutput", path: card.path, reason: "no connector to drive")
        }
        try card.join()
        let device = card.device
        let heads: [DRMHead], committer: DRMCommitter
        do {
            heads = try parts.map { DRMHead(pipe: try DRMPipe(device: device, selection: $0.selection, crtc: $0.crtc),
                                            x: UInt32(clamping: $0.x)) }
            committer = try Self.committer(commit, device: device, heads: heads, log: log)
            let size = canvas ?? PixelSize(width: lead.selection.mode.width, height: lead.selection.mode.height)
            try Self.checkFits(size, device: device, names: parts.map(\.selection.connector.name))
            scanout = try GBMScanout(drm: device, width: UInt32(clamping: size.width), height: UInt32(clamping: size.height))
        } catch {
            card.leave()
            throw error
        }
        displayProbe = DRMDisplayProbe(device: device)
        displayProbe.drive(parts.map { ($0.selection.connector.id, $0.selection.connector.name) })
        self.heads = heads
        scanoutSize = canvas ?? PixelSize(width: lead.selection.mode.width, height: lead.selection.mode.height)
        self.committer = committer
        self.selection = lead.selection
        self.partSelections = parts.map(\.selection)
        self.card = card
        card.keep(waiter)
        self.log = log
        commitMode = commit
        commitName = committer.name
        let crtcs = heads.map { String($0.pipe.crtcID) }.joined(separator: "+")
        log.info("DRM output \(lead.selection.path) \(parts.map(\.selection.connector.name).joined(separator: "+")) "
                 + "\(lead.selection.mode.name) on CRTC \(crtcs), \(committer.name) commits")
        if !committer.locksHeads {
            log.warn("DRM output \(parts.map(\.selection.connector.name).joined(separator: "+")): legacy commits flip each CRTC "
                     + "on its own, so its displays may show different frames for a vblank (atomic commits lock them)")
        }
    }

    /// Throws one line when the card cannot scan out a framebuffer of `size` (a span wider than its limit).
    private static func checkFits(_ size: PixelSize, device: DRMDevice, names: [String]) throws {
        let (maxW, maxH) = try device.withResources { (Int($0.pointee.max_width), Int($0.pointee.max_height)) }
        if maxW > 0, maxH > 0, size.width > maxW || size.height > maxH {
            throw DRMError(call: "gbm_surface_create", path: device.path,
                           reason: "\(names.joined(separator: "+")) needs a \(size) framebuffer; the card's largest is \(maxW)x\(maxH)")
        }
    }

    /// The open card.
    var device: DRMDevice { card.device }

    /// Atomic where the driver takes it (unless `mode` says legacy), else legacy.
    private static func committer(_ mode: CommitMode, device: DRMDevice, heads: [DRMHead], log: Log) throws -> DRMCommitter {
        if mode != .legacy {
            do {
                return try DRMAtomicCommitter(device: device, heads: heads)
            } catch {
                if mode == .atomic { throw error }
                log.info("DRM atomic commits unavailable (\(error)); using legacy")
            }
        }
        return DRMLegacyCommitter(device: device, heads: heads)
    }

    /// Switches to `newSelection` (same card and connector, another mode, e.g. a new preferred mode after a
    /// hotplug): forgets the buffers, lets the caller drop its EGL window surface (`dropSurface`), makes a GBM
    /// surface of the new size and sets the mode with the next frame. The CRTC state restored on close stays
    /// the one found at start. Make the new EGL window surface on `gbmSurfaceHandle` after.
    public func changeMode(to newSelection: DisplaySelection, dropSurface: () -> Void) throws {
        guard heads.count == 1 else {
            throw DRMError(call: "changeMode", path: device.path, reason: "a span's or mirror's modes are chosen at start")
        }
        requestModeset()
        if let old = onScreen { scanout.release(old) }
        onScreen = nil
        dropSurface()
        var newPipe = try DRMPipe(device: device, selection: newSelection, crtc: pipe.crtcID)
        newPipe.saved = pipe.saved
        committer.release()
        committer = try Self.committer(commitMode, device: device, heads: [DRMHead(pipe: newPipe, x: 0)], log: log)
        let mode = newSelection.mode
        try scanout.replaceSurface(width: UInt32(mode.width), height: UInt32(mode.height))
        heads = [DRMHead(pipe: newPipe, x: 0)]
        selection = newSelection
        partSelections = [newSelection]
        scanoutSize = PixelSize(width: mode.width, height: mode.height)
    }

    deinit {
        close()
        free()
    }

    /// The mode being shown.
    public var mode: DisplayMode { selection.mode }

    /// Seconds between two vblanks of the mode: the next frame shows about this long after the last flip.
    public var refreshInterval: Double { mode.refreshHz > 0 ? 1 / mode.refreshHz : 1.0 / 60 }

    /// Probes the connector again (status and modes), for a hotplug poll where no udev monitor is available.
    /// With `probe` false it reads the kernel's last known state (`drmModeGetConnectorCurrent`), which does not
    /// stall on an EDID read, for polls while frames are shown.
    public func readConnector(probe: Bool = true) throws -> ConnectorReport {
        if probe { return try device.withConnector(pipe.connectorID) { ConnectorReport(c: $0) } }
        guard let c = drmModeGetConnectorCurrent(device.fd, pipe.connectorID) else {
            throw DRMError.errno("drmModeGetConnectorCurrent(\(pipe.connectorID))", device.path, errno)
        }
        defer { drmModeFreeConnector(c) }
        return ConnectorReport(c: c)
    }

    /// A cheap fingerprint of the connector, read without probing it: its status and the id of its EDID blob
    /// (a new EDID, e.g. another display or a new preferred size, gets a new blob). When it changes, probe.
    public func connectorFingerprint() -> String {
        var status = "?"
        if let c = drmModeGetConnectorCurrent(device.fd, pipe.connectorID) {
            status = String(c.pointee.connection.rawValue)
            drmModeFreeConnector(c)
        }
        let edid = device.property(object: pipe.connectorID, type: UInt32(DRM_MODE_OBJECT_CONNECTOR), name: "EDID")
        return "\(status) \(edid?.value ?? 0)"
    }

    /// The `struct gbm_device *` for the renderer's EGL display (EGL_PLATFORM_GBM_KHR).
    public var gbmDeviceHandle: UnsafeMutableRawPointer { UnsafeMutableRawPointer(scanout.device) }

    /// The `struct gbm_surface *` for the renderer's EGL window surface.
    public var gbmSurfaceHandle: UnsafeMutableRawPointer { UnsafeMutableRawPointer(scanout.surface) }

    /// The surface's DRM fourcc (XRGB8888), the EGL config's native visual id.
    public var gbmFormat: UInt32 { scanout.format }

    /// Sets how the renderer finishes a frame (`eglSwapBuffers` on the window surface).
    public func attach(swapBuffers: @escaping () throws -> Void) {
        self.swapBuffers = swapBuffers
    }

    /// Longest a single wait for a page-flip event blocks, so callers can check for a stop between waits.
    public static let flipWaitSliceMs: Int32 = 100
    /// A flip whose event has not come after this many seconds is an error.
    public static let flipTimeout = 1.0

    /// Swaps the frame the caller drew and shows it: a modeset on the first frame (and after
    /// `requestModeset()`), a page flip after. Waits at most `flipWaitSliceMs` for the flip event and returns
    /// when it was shown, in CLOCK_MONOTONIC seconds; nil when the event has not come yet (the flip stays
    /// pending and the next call waits for it first, dropping its frame if it is still pending). Throws a
    /// `DRMError` whose `isLostMaster` is true when another client took the display.
    public func presentFrame() throws -> Double? {
        guard !closed else { throw DRMError(call: "presentFrame", path: device.path, reason: "output closed") }
        guard let swapBuffers else {
            throw DRMError(call: "presentFrame", path: device.path, reason: "no renderer attached")
        }
        if pending != nil {
            guard try finishPendingFlip() != nil else {   // still pending: drop this frame
                frameTiming.droppedFrame(at: MonotonicClock.seconds())
                return nil
            }
        }
        try swapBuffers()
        let bo = try scanout.lockFront()
        do {
            let fb = try scanout.framebuffer(for: bo)
            if !screenOn {
                scanout.release(bo)   // screen off: keep the surface cycling, show nothing
                return MonotonicClock.seconds()
            }
            if !modeSet {
                try committer.modeset(framebuffer: fb)
                modeSet = true
                show(bo)
                return MonotonicClock.seconds()
            }
            try committer.flip(framebuffer: fb, userData: waiter.arm(events: heads.count))
        } catch {
            scanout.release(bo)
            throw error
        }
        pending = (bo, MonotonicClock.seconds())
        return try finishPendingFlip()
    }

    /// Waits one slice for the pending flip; on its event the flipped buffer becomes the one on screen.
    private func finishPendingFlip() throws -> Double? {
        guard let (bo, since) = pending else { return nil }
        guard let shown = try waiter.wait(device: device, timeoutMs: Self.flipWaitSliceMs) else {
            if MonotonicClock.seconds() - since > Self.flipTimeout {
                throw DRMError(call: "page flip", path: device.path,
                               reason: "no page-flip event within \(Int(saturating: Self.flipTimeout * 1000, rounding: .towardZero)) ms")
            }
            return nil
        }
        pending = nil
        frameTiming.flipped(committed: since, shown: shown, interval: refreshInterval)
        show(bo)
        return shown
    }

    /// Makes `bo` the buffer on screen and gives the previous one back to the surface.
    private func show(_ bo: OpaquePointer) {
        if let old = onScreen { scanout.release(old) }
        onScreen = bo
    }

    /// Makes the next frame set the mode again (after master came back, or a display was reconnected).
    /// A flip still pending is forgotten: its event, if it comes, is ignored.
    public func requestModeset() {
        modeSet = false
        if let (bo, _) = pending {
            scanout.release(bo)
            pending = nil
            waiter.disarm()   // a late event writes into the slot, nobody waits for it
        }
    }

    /// Tries to become DRM master again (after a VT switch or another client let go); true on success.
    public func regainMaster() -> Bool { card.regainMaster() }

    /// Restores the CRTC as found and leaves the card: the last output on it drops DRM master, so the console (or
    /// the next client) gets the display back. Idempotent; errors are logged. Buffers and GBM are freed when the
    /// output is released (after the EGL display on its GBM device is gone), the descriptor with the card's last
    /// output.
    public func close() {
        guard !closed else { return }
        closed = true
        if modeSet {
            for head in heads {
                do { try head.pipe.restore(device: device) } catch { log.warn("\(error)") }
            }
        }
        committer.release()
        card.leave()
    }

    private func free() {
        if let (bo, _) = pending { scanout.release(bo) }
        pending = nil
        if let old = onScreen { scanout.release(old) }
        onScreen = nil
        scanout.destroy()
    }
}

/// One connector an output drives: its selection (card, connector, mode), its CRTC (nil: its first candidate) and
/// the framebuffer column its scanout starts at.
public struct DRMOutputPart: Sendable {
    /// Card, connector and mode.
    public var selection: DisplaySelection
    /// The CRTC (nil: the connector's first candidate).
    public var crtc: UInt32?
    /// The framebuffer column its scanout starts at.
    public var x: Int

    /// A part on `selection`'s connector from `crtc`, scanning out from column `x`.
    public init(selection: DisplaySelection, crtc: UInt32?, x: Int) {
        self.selection = selection
        self.crtc = crtc
        self.x = x
    }
}
