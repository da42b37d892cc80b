import CEGL

/// A minimal EGL-on-GBM GLES context for the DRM output's end-to-end test, until the renderer's `GLContext`
/// gains the same entry points (`init(gbmDevice:)`, `makeWindowSurface(gbmSurface:format:)`, `swapBuffers()`);
/// the integrator folds it into `GLContext`.
public final class GBMEGLBridge {
    private var display: EGLDisplay?
    private var context: EGLContext?
    private var surface: EGLSurface?

    /// Opens an EGL display on the GBM device (`struct gbm_device *`) and a GLES 3 context on it.
    public init(gbmDevice: UnsafeMutableRawPointer) throws {
        guard let display = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_GBM_KHR), gbmDevice, nil) else {
            throw GBMEGLError.egl("eglGetPlatformDisplay(GBM)")
        }
        guard eglInitialize(display, nil, nil) == EGL_TRUE else { throw GBMEGLError.egl("eglInitialize") }
        self.display = display
        guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGL_TRUE else { throw GBMEGLError.egl("eglBindAPI") }
    }

    deinit { close() }

    /// Makes a window surface on the GBM surface (`struct gbm_surface *`) with a config whose native visual
    /// is `format`, creates the context and makes both current.
    public func makeWindowSurface(gbmSurface: UnsafeMutableRawPointer, format: UInt32) throws {
        guard let display else { throw GBMEGLError(call: "makeWindowSurface", reason: "closed") }
        let attributes: [EGLint] = [EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                    EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 0,
                                    EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_NONE]
        var count: EGLint = 0
        guard eglChooseConfig(display, attributes, nil, 0, &count) == EGL_TRUE, count > 0 else {
            throw GBMEGLError.egl("eglChooseConfig")
        }
        var configs = [EGLConfig?](repeating: nil, count: Int(count))
        guard eglChooseConfig(display, attributes, &configs, count, &count) == EGL_TRUE else {
            throw GBMEGLError.egl("eglChooseConfig")
        }
        let config = configs.prefix(Int(count)).first { c in
            var visual: EGLint = 0
            return eglGetConfigAttrib(display, c, EGL_NATIVE_VISUAL_ID, &visual) == EGL_TRUE && UInt32(bitPattern: visual) == format
        }
        guard let config = config ?? nil else {
            throw GBMEGLError(call: "eglChooseConfig", reason: "no config with native visual 0x\(String(format, radix: 16))")
        }
        let contextAttributes: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE]
        guard let context = eglCreateContext(display, config, nil, contextAttributes) else {
            throw GBMEGLError.egl("eglCreateContext")
        }
        self.context = context
        guard let surface = eglCreatePlatformWindowSurface(display, config, gbmSurface, nil) else {
            throw GBMEGLError.egl("eglCreatePlatformWindowSurface")
        }
        self.surface = surface
        guard eglMakeCurrent(display, surface, surface, context) == EGL_TRUE else { throw GBMEGLError.egl("eglMakeCurrent") }
    }

    /// Fills the window surface with one colour (components 0...1).
    public func clear(red: Float, green: Float, blue: Float) {
        glClearColor(red, green, blue, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
    }

    /// `GL_RENDERER`, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    public var renderer: String { glGetString(GLenum(GL_RENDERER)).map { String(cString: $0) } ?? "" }

    /// Posts the drawn frame to the GBM surface.
    public func swapBuffers() throws {
        guard let display, let surface, eglSwapBuffers(display, surface) == EGL_TRUE else {
            throw GBMEGLError.egl("eglSwapBuffers")
        }
    }

    /// Releases surface, context and display (before the GBM surface and device go). Idempotent.
    public func close() {
        guard let display else { return }
        eglMakeCurrent(display, nil, nil, nil)
        if let surface { eglDestroySurface(display, surface) }
        if let context { eglDestroyContext(display, context) }
        eglTerminate(display)
        surface = nil
        context = nil
        self.display = nil
    }
}

/// A failed EGL call of `GBMEGLBridge`, with the EGL error code.
public struct GBMEGLError: Error, CustomStringConvertible {
    /// The call.
    public let call: String
    /// Why.
    public let reason: String

    /// An error for `call` carrying `eglGetError()`.
    static func egl(_ call: String) -> GBMEGLError {
        GBMEGLError(call: call, reason: "EGL error 0x\(String(eglGetError(), radix: 16))")
    }

    /// `call (EGL on GBM): reason`.
    public var description: String { "\(call) (EGL on GBM): \(reason)" }
}
