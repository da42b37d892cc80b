/// The GLContext on a GBM device, for the DRM/KMS output: a window surface on a GBM surface, and buffer swaps.
internal import CEGL

extension GLContext {
    /// A context on a GBM device (`struct gbm_device *`), current on the calling thread with no surface until
    /// `makeWindowSurface` is called. The context is configless so any surface format can be chosen later.
    /// `owner` (the DRM output holding the GBM device) is kept alive until the EGL display is terminated.
    public convenience init(gbmDevice: UnsafeMutableRawPointer, owner: AnyObject? = nil) throws {
        let display = try GLContext.openDisplay(platform: EGLenum(EGL_PLATFORM_GBM_KHR), native: gbmDevice)
        do {
            let extensions = eglQueryString(display, EGL_EXTENSIONS).map { String(cString: $0) } ?? ""
            let configless = extensions.split(separator: " ").contains("EGL_KHR_no_config_context")
            let config = configless ? nil
                : try GLContext.chooseConfig(display: display, surfaceType: EGL_WINDOW_BIT, nativeFormat: nil)
            let context = try GLContext.createContext(display: display, config: config)
            self.init(display: display, context: context, config: config)
            nativeOwner = owner
        } catch {
            EGLDisplayReferences.release(display)
            throw error
        }
        try makeCurrent()
    }

    /// Creates the window surface on a GBM surface (`struct gbm_surface *`) whose buffers have the fourcc `format`
    /// (e.g. XRGB8888), and makes it current. One at a time (`dropWindowSurface` first).
    public func makeWindowSurface(gbmSurface: UnsafeMutableRawPointer, format: UInt32) throws {
        guard surface == nil else {
            throw RenderError(call: "makeWindowSurface", reason: "the context already has a window surface")
        }
        let config = try GLContext.chooseConfig(display: display, surfaceType: EGL_WINDOW_BIT, nativeFormat: format)
        guard let made = eglCreatePlatformWindowSurface(display, config, gbmSurface, nil) else {
            throw GLContext.eglError("eglCreatePlatformWindowSurface")
        }
        surface = made
        self.config = config
        try makeCurrent()
    }

    /// Destroys the window surface (before its GBM surface goes, e.g. for a new mode's size) and keeps the
    /// context current without one; `makeWindowSurface` makes the next.
    public func dropWindowSurface() {
        guard let old = surface else { return }
        eglMakeCurrent(display, nil, nil, context)
        eglDestroySurface(display, old)
        surface = nil
    }

    /// Presents the window surface's back buffer (the DRM output then locks the GBM front buffer).
    public func swapBuffers() throws {
        guard let surface else {
            throw RenderError(call: "eglSwapBuffers", reason: "the context has no window surface")
        }
        guard eglSwapBuffers(display, surface) == EGL_TRUE else { throw GLContext.eglError("eglSwapBuffers") }
    }
}
