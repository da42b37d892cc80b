internal import CDRM

/// Legacy KMS: `drmModeSetCrtc` for the first frame, `drmModePageFlip` after, one call per head (so the heads of a
/// span or mirror flip each at its own vblank, not locked).
final class DRMLegacyCommitter: DRMCommitter {
    private let device: DRMDevice
    private let heads: [DRMHead]

    /// A committer for `heads` on `device`.
    init(device: DRMDevice, heads: [DRMHead]) {
        self.device = device
        self.heads = heads
    }

    var name: String { "legacy" }
    var locksHeads: Bool { heads.count < 2 }

    func modeset(framebuffer: UInt32) throws {
        for head in heads {
            var connector = head.pipe.connectorID
            var mode = head.pipe.mode
            let rc = drmModeSetCrtc(device.fd, head.pipe.crtcID, framebuffer, head.x, 0, &connector, 1, &mode)
            if rc != 0 { throw DRMError.errno("drmModeSetCrtc", device.path, rc) }
        }
    }

    func flip(framebuffer: UInt32, userData: UnsafeMutableRawPointer) throws {
        for head in heads {
            let rc = drmModePageFlip(device.fd, head.pipe.crtcID, framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), userData)
            if rc != 0 { throw DRMError.errno("drmModePageFlip", device.path, rc) }
        }
    }

    func release() {}
}
