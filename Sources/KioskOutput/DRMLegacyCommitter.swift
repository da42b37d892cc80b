internal import CDRM

/// Legacy KMS: `drmModeSetCrtc` for the first frame, `drmModePageFlip` after.
final class DRMLegacyCommitter: DRMCommitter {
    private let device: DRMDevice
    private let pipe: DRMPipe

    /// A committer for `pipe` on `device`.
    init(device: DRMDevice, pipe: DRMPipe) {
        self.device = device
        self.pipe = pipe
    }

    var name: String { "legacy" }

    func modeset(framebuffer: UInt32) throws {
        var connector = pipe.connectorID
        var mode = pipe.mode
        let rc = drmModeSetCrtc(device.fd, pipe.crtcID, framebuffer, 0, 0, &connector, 1, &mode)
        if rc != 0 { throw DRMError.errno("drmModeSetCrtc", device.path, rc) }
    }

    func flip(framebuffer: UInt32, userData: UnsafeMutableRawPointer) throws {
        let rc = drmModePageFlip(device.fd, pipe.crtcID, framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), userData)
        if rc != 0 { throw DRMError.errno("drmModePageFlip", device.path, rc) }
    }

    func release() {}
}
