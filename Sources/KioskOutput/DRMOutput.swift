import CDRM
import KioskCore

/// The DRM/KMS output: a GBM scanout surface on the chosen connector and mode, shown by page flips.
///
/// Wiring: create it, make the renderer's EGL context on `gbmDeviceHandle` and its window surface on
/// `gbmSurfaceHandle` (format `gbmFormat`), `attach(swapBuffers:)`, then per frame draw and call
/// `presentFrame()`. Tear down the EGL surface and display before `close()`.
public final class DRMOutput {
    /// The card, connector and mode in use.
    public let selection: DisplaySelection
    /// `atomic` or `legacy`.
    public let commitName: String
    let device: DRMDevice
    let pipe: DRMPipe
    private let committer: DRMCommitter
    private let scanout: GBMScanout
    private let waiter = DRMFlipWaiter()
    private let log: Log
    private var swapBuffers: (() throws -> Void)?
    private var onScreen: OpaquePointer?
    private var modeSet = false
    private var closed = false
    var screenOn = true

    /// Opens the card, chooses connector, mode and CRTC for `options` (from `report`, read now if nil),
    /// and creates the GBM surface. Nothing is shown until the first `presentFrame()`.
    public init(options: DRMOutputOptions = DRMOutputOptions(), report: DisplayReport? = nil,
                log: Log = .shared) throws {
        let selection = try (report ?? DRMDevice.report()).select(options)
        let device = try DRMDevice(path: selection.path)
        try device.becomeMaster()
        let pipe = try DRMPipe(device: device, selection: selection)
        var committer: DRMCommitter = DRMLegacyCommitter(device: device, pipe: pipe)
        if options.commit != .legacy {
            do {
                committer = try DRMAtomicCommitter(device: device, pipe: pipe)
            } catch {
                if options.commit == .atomic { throw error }
                log.info("DRM atomic commits unavailable (\(error)); using legacy")
            }
        }
        let mode = selection.mode
        scanout = try GBMScanout(drm: device, width: UInt32(mode.width), height: UInt32(mode.height))
        self.selection = selection
        self.device = device
        self.pipe = pipe
        self.committer = committer
        self.log = log
        commitName = committer.name
        log.info("DRM output \(selection.path) \(selection.connector.name) \(mode.name), \(committer.name) commits")
    }

    deinit { close() }

    /// The mode being shown.
    public var mode: DisplayMode { selection.mode }

    /// Seconds between two vblanks of the mode: the next frame shows about this long after the last flip.
    public var refreshInterval: Double { mode.refreshHz > 0 ? 1 / mode.refreshHz : 1.0 / 60 }

    /// Probes the connector again (status and modes), for a hotplug poll where no udev monitor is available.
    public func readConnector() throws -> ConnectorReport {
        try device.withConnector(pipe.connectorID) { ConnectorReport(c: $0) }
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

    /// Swaps the frame the caller drew, shows it (modeset on the first frame, then a page flip waited
    /// for up to one second) and returns when it was shown, in CLOCK_MONOTONIC seconds.
    public func presentFrame() throws -> Double {
        guard !closed else { throw DRMError(call: "presentFrame", path: device.path, reason: "output closed") }
        guard let swapBuffers else {
            throw DRMError(call: "presentFrame", path: device.path, reason: "no renderer attached")
        }
        try swapBuffers()
        let bo = try scanout.lockFront()
        let shown: Double
        do {
            let fb = try scanout.framebuffer(for: bo)
            if !screenOn {
                scanout.release(bo)   // screen off: keep the surface cycling, show nothing
                return monotonicSeconds()
            }
            if !modeSet {
                try committer.modeset(framebuffer: fb)
                modeSet = true
                shown = monotonicSeconds()
            } else {
                try committer.flip(framebuffer: fb, userData: waiter.arm())
                shown = try waiter.wait(device: device, timeoutMs: 1000)
            }
        } catch {
            scanout.release(bo)
            throw error
        }
        if let old = onScreen { scanout.release(old) }
        onScreen = bo
        return shown
    }

    /// Restores the CRTC as found, frees buffers, GBM and the device. Idempotent; errors are logged.
    public func close() {
        guard !closed else { return }
        closed = true
        if modeSet {
            do { try pipe.restore(device: device) } catch { log.warn("\(error)") }
        }
        if let old = onScreen { scanout.release(old) }
        onScreen = nil
        committer.release()
        scanout.destroy()
        device.close()
    }
}
