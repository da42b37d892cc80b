/// The EGL display + OpenGL ES 3 context the renderer draws with (headless on Mesa's surfaceless platform, or on a
/// GBM device for the DRM output). Made current on the creating thread, which is the render thread from then on.
internal import CEGL
import Foundation
import KioskCore

/// An EGL display with one OpenGL ES 3 context, current on the render thread.
///
/// Several may share one EGL display (EGL hands out the same display for the same platform and GBM device: two
/// players in one process, a screen per output): the display is counted (`EGLDisplayReferences`) and terminated
/// only when the last context on it goes. Every GL object (texture, program, target) keeps its context alive.
public final class GLContext {
    /// The EGL display.
    let display: EGLDisplay
    /// The context.
    let context: EGLContext
    /// The config used for window surfaces (nil for a configless context).
    var config: EGLConfig?
    /// The window surface, once made (nil: surfaceless).
    var surface: EGLSurface?
    /// What owns the native display (the DRM output's GBM device): released only after the EGL display is
    /// terminated in `deinit`, since EGL still uses it until then.
    var nativeOwner: AnyObject?

    /// A headless context on Mesa's surfaceless platform, current on the calling thread with no surface.
    public static func headless() throws -> GLContext {
        let display = try GLContext.openDisplay(platform: EGLenum(EGL_PLATFORM_SURFACELESS_MESA), native: nil)
        do {
            let config = try GLContext.chooseConfig(display: display, surfaceType: 0, nativeFormat: nil)
            let context = try GLContext.createContext(display: display, config: config)
            let gl = GLContext(display: display, context: context, config: config)
            try gl.makeCurrent()
            return gl
        } catch {
            EGLDisplayReferences.release(display)
            throw error
        }
    }

    /// Wraps a created display and context.
    init(display: EGLDisplay, context: EGLContext, config: EGLConfig?) {
        self.display = display
        self.context = context
        self.config = config
    }

    deinit {
        eglMakeCurrent(display, nil, nil, nil)
        if let surface { eglDestroySurface(display, surface) }
        eglDestroyContext(display, context)
        EGLDisplayReferences.release(display)
        eglReleaseThread()
    }

    /// Makes this context current on the calling thread (with its window surface, if any).
    public func makeCurrent() throws {
        guard eglMakeCurrent(display, surface, surface, context) == EGL_TRUE else {
            throw GLContext.eglError("eglMakeCurrent")
        }
    }

    /// Makes this context current unless it is already (a player with several screens, each with its own
    /// context, before a screen's turn).
    public func makeCurrentIfNeeded() throws {
        if eglGetCurrentContext() != context { try makeCurrent() }
    }

    /// Makes this context current if another one is (GL objects call this before deleting their names).
    func ensureCurrent() {
        if eglGetCurrentContext() != context { _ = try? makeCurrent() }
    }

    /// The GL vendor, e.g. `Mesa`.
    public var vendor: String { glString(GL_VENDOR) }
    /// The GL renderer, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`.
    public var renderer: String { glString(GL_RENDERER) }
    /// The GL version, e.g. `OpenGL ES 3.2 Mesa 22.3.6`.
    public var version: String { glString(GL_VERSION) }

    /// A `glGetString` value ("" when unavailable).
    private func glString(_ name: Int32) -> String {
        guard let p = glGetString(GLenum(name)) else { return "" }
        return String(cString: p)
    }

    /// Waits until every GL command issued so far has finished.
    public func finish() { glFinish() }

    /// Whether `name` is a live texture name in this context (for leak checks).
    func isTexture(_ name: UInt32) -> Bool { glIsTexture(name) == GLboolean(GL_TRUE) }

    /// The first GL error since the last check, as a RenderError naming `call`; nil when there is none.
    func glErrorCheck(_ call: String) -> RenderError? {
        let code = glGetError()
        if code == GLenum(GL_NO_ERROR) { return nil }
        while glGetError() != GLenum(GL_NO_ERROR) {}
        return RenderError(call: call, reason: "GL error 0x\(String(code, radix: 16))")
    }

    // MARK: - EGL set-up steps shared by the platforms

    /// The current EGL error as a RenderError naming `call`.
    static func eglError(_ call: String) -> RenderError {
        RenderError(call: call, reason: "EGL error 0x\(String(UInt32(bitPattern: eglGetError()), radix: 16))")
    }

    /// Gets and initialises a platform display, bound to the OpenGL ES API.
    static func openDisplay(platform: EGLenum, native: UnsafeMutableRawPointer?) throws -> EGLDisplay {
        guard let display = eglGetPlatformDisplay(platform, native, nil) else {
            throw eglError("eglGetPlatformDisplay(0x\(String(platform, radix: 16)))")
        }
        var major: EGLint = 0, minor: EGLint = 0
        guard eglInitialize(display, &major, &minor) == EGL_TRUE else { throw eglError("eglInitialize") }
        EGLDisplayReferences.retain(display)
        guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGL_TRUE else {
            EGLDisplayReferences.release(display)
            throw eglError("eglBindAPI(EGL_OPENGL_ES_API)")
        }
        return display
    }

    /// A config that renders OpenGL ES 3 with RGB 8 bits, with `surfaceType` bits, and, when `nativeFormat` is given,
    /// whose EGL_NATIVE_VISUAL_ID equals it (a GBM/DRM fourcc).
    static func chooseConfig(display: EGLDisplay, surfaceType: EGLint, nativeFormat: UInt32?) throws -> EGLConfig {
        let attributes: [EGLint] = [
            EGL_SURFACE_TYPE, surfaceType,
            EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
            EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
            EGL_NONE,
        ]
        var count: EGLint = 0
        guard eglChooseConfig(display, attributes, nil, 0, &count) == EGL_TRUE else {
            throw eglError("eglChooseConfig")
        }
        var configs = [EGLConfig?](repeating: nil, count: Int(max(count, 1)))
        guard eglChooseConfig(display, attributes, &configs, count, &count) == EGL_TRUE else {
            throw eglError("eglChooseConfig")
        }
        for case let config? in configs.prefix(Int(count)) {
            guard let format = nativeFormat else { return config }
            var id: EGLint = 0
            if eglGetConfigAttrib(display, config, EGL_NATIVE_VISUAL_ID, &id) == EGL_TRUE,
               UInt32(bitPattern: id) == format {
                return config
            }
        }
        let wanted = nativeFormat.map { " with native visual 0x\(String($0, radix: 16))" } ?? ""
        throw RenderError(call: "eglChooseConfig", reason: "no OpenGL ES 3 RGB888 config\(wanted) among \(count)")
    }

    /// Creates an OpenGL ES 3 context (configless when `config` is nil).
    static func createContext(display: EGLDisplay, config: EGLConfig?) throws -> EGLContext {
        let attributes: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE]
        guard let context = eglCreateContext(display, config, nil, attributes) else {
            throw eglError("eglCreateContext(OpenGL ES 3.0)")
        }
        return context
    }
}

/// How many contexts use each initialised EGL display. `eglTerminate` ends a display for every context on it (EGL
/// counts no references unless EGL_KHR_display_reference is asked for), so it is terminated only when the last
/// `GLContext` on it goes. Thread-safe: contexts live on their own render threads.
enum EGLDisplayReferences {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var counts: [UInt: Int] = [:]

    /// One more context uses `display` (initialised).
    static func retain(_ display: EGLDisplay) {
        lock.lock()
        counts[UInt(bitPattern: display), default: 0] += 1
        lock.unlock()
    }

    /// A context on `display` is gone: the last one terminates it.
    static func release(_ display: EGLDisplay) {
        lock.lock()
        defer { lock.unlock() }
        let key = UInt(bitPattern: display)
        let left = (counts[key] ?? 1) - 1
        counts[key] = left > 0 ? left : nil
        if left <= 0 { eglTerminate(display) }
    }

    /// How many contexts use `display` (0: not initialised by kiosk).
    static func count(_ display: EGLDisplay) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[UInt(bitPattern: display)] ?? 0
    }
}
