internal import CDRM
internal import CGBM

/// A GBM device on a DRM card and a scanout surface the renderer draws into, with each buffer's DRM
/// framebuffer created once and cached in the buffer's user data.
final class GBMScanout {
    /// The `struct gbm_device *`.
    let device: OpaquePointer
    /// The `struct gbm_surface *`.
    private(set) var surface: OpaquePointer
    /// The surface's fourcc (XRGB8888).
    let format: UInt32
    private let drm: DRMDevice

    /// Creates the GBM device and a `width`x`height` XRGB8888 surface for scanout and rendering, without a
    /// modifier list (DRM_FORMAT_MOD_INVALID is never passed as a modifier).
    init(drm: DRMDevice, width: UInt32, height: UInt32) throws {
        guard let device = gbm_create_device(drm.fd) else {
            throw DRMError(call: "gbm_create_device", path: drm.path, reason: "GBM has no backend for this card")
        }
        let format = kiosk_gbm_format_xrgb8888()
        let usage = UInt32(GBM_BO_USE_SCANOUT.rawValue | GBM_BO_USE_RENDERING.rawValue)
        guard let surface = gbm_surface_create(device, width, height, format, usage) else {
            gbm_device_destroy(device)
            throw DRMError(call: "gbm_surface_create(\(width)x\(height) XRGB8888)", path: drm.path,
                           reason: "refused")
        }
        self.device = device
        self.surface = surface
        self.format = format
        self.drm = drm
    }

    /// Replaces the surface by one of `width`x`height` (a new mode); the EGL surface on the old one must be gone.
    func replaceSurface(width: UInt32, height: UInt32) throws {
        let usage = UInt32(GBM_BO_USE_SCANOUT.rawValue | GBM_BO_USE_RENDERING.rawValue)
        guard let made = gbm_surface_create(device, width, height, format, usage) else {
            throw DRMError(call: "gbm_surface_create(\(width)x\(height) XRGB8888)", path: drm.path, reason: "refused")
        }
        gbm_surface_destroy(surface)
        surface = made
    }

    /// Locks the buffer the last swap produced.
    func lockFront() throws -> OpaquePointer {
        guard let bo = gbm_surface_lock_front_buffer(surface) else {
            throw DRMError(call: "gbm_surface_lock_front_buffer", path: drm.path, reason: "no buffer (was the frame swapped?)")
        }
        return bo
    }

    /// Gives a buffer back to the surface.
    func release(_ bo: OpaquePointer) { gbm_surface_release_buffer(surface, bo) }

    /// The framebuffer id for `bo`, made on first use (AddFB2, else AddFB) and removed with the buffer.
    func framebuffer(for bo: OpaquePointer) throws -> UInt32 {
        if let tag = gbm_bo_get_user_data(bo) {
            return tag.assumingMemoryBound(to: FramebufferTag.self).pointee.fb
        }
        let w = gbm_bo_get_width(bo), h = gbm_bo_get_height(bo)
        let handle = gbm_bo_get_handle(bo).u32, stride = gbm_bo_get_stride(bo)
        var fb: UInt32 = 0
        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (stride, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var rc = withUnsafeMutablePointer(to: &handles) { hp in
            withUnsafeMutablePointer(to: &pitches) { pp in
                withUnsafeMutablePointer(to: &offsets) { op in
                    drmModeAddFB2(drm.fd, w, h, kiosk_drm_format_xrgb8888(),
                                  UnsafeRawPointer(hp).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(pp).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(op).assumingMemoryBound(to: UInt32.self), &fb, 0)
                }
            }
        }
        if rc != 0 { rc = drmModeAddFB(drm.fd, w, h, 24, 32, stride, handle, &fb) }
        if rc != 0 { throw DRMError.errno("drmModeAddFB", drm.path, rc) }
        let tag = UnsafeMutablePointer<FramebufferTag>.allocate(capacity: 1)
        tag.initialize(to: FramebufferTag(fd: drm.fd, fb: fb))
        gbm_bo_set_user_data(bo, tag) { _, data in
            guard let t = data?.assumingMemoryBound(to: FramebufferTag.self) else { return }
            drmModeRmFB(t.pointee.fd, t.pointee.fb)
            t.deallocate()
        }
        return fb
    }

    /// Destroys surface and device (the EGL surface and display on them must be gone).
    func destroy() {
        gbm_surface_destroy(surface)
        gbm_device_destroy(device)
    }
}

/// What a buffer's user data holds: the card's descriptor and the buffer's framebuffer id.
struct FramebufferTag {
    let fd: Int32
    let fb: UInt32
}
