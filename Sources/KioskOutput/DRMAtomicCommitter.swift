internal import CDRM
import Foundation

/// Atomic KMS: one commit sets connector, CRTC (mode blob, active) and the primary plane; later commits
/// only change the plane's framebuffer, non-blocking, with a page-flip event.
final class DRMAtomicCommitter: DRMCommitter {
    private let device: DRMDevice
    private let pipe: DRMPipe
    private let planeID: UInt32
    private var modeBlob: UInt32 = 0
    /// Property ids by name, per object.
    private let connectorProps: [String: UInt32]
    private let crtcProps: [String: UInt32]
    private let planeProps: [String: UInt32]

    /// Enables atomic on `device` and finds the CRTC's primary plane; throws where the driver says no.
    init(device: DRMDevice, pipe: DRMPipe) throws {
        let fd = device.fd
        if drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1) != 0 {
            throw DRMError(call: "drmSetClientCap(UNIVERSAL_PLANES)", path: device.path, reason: "not supported")
        }
        if drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) != 0 {
            throw DRMError(call: "drmSetClientCap(ATOMIC)", path: device.path, reason: "not supported")
        }
        guard let planes = drmModeGetPlaneResources(fd) else {
            throw DRMError.errno("drmModeGetPlaneResources", device.path, errno)
        }
        defer { drmModeFreePlaneResources(planes) }
        var primary: UInt32?
        for id in buffer(planes.pointee.planes, planes.pointee.count_planes) {
            guard let p = drmModeGetPlane(fd, id) else { continue }
            let fits = p.pointee.possible_crtcs & (1 << UInt32(pipe.crtcIndex)) != 0
            drmModeFreePlane(p)
            let type = device.property(object: id, type: UInt32(DRM_MODE_OBJECT_PLANE), name: "type")
            if fits, type?.value == UInt64(DRM_PLANE_TYPE_PRIMARY) {
                primary = id
                break
            }
        }
        guard let primary else {
            throw DRMError(call: "drmModeGetPlane", path: device.path, reason: "no primary plane for CRTC \(pipe.crtcID)")
        }
        func ids(_ object: UInt32, _ type: UInt32, _ names: [String]) throws -> [String: UInt32] {
            var out: [String: UInt32] = [:]
            for n in names {
                guard let p = device.property(object: object, type: type, name: n) else {
                    throw DRMError(call: "drmModeObjectGetProperties", path: device.path, reason: "object \(object) has no \(n) property")
                }
                out[n] = p.id
            }
            return out
        }
        connectorProps = try ids(pipe.connectorID, UInt32(DRM_MODE_OBJECT_CONNECTOR), ["CRTC_ID"])
        crtcProps = try ids(pipe.crtcID, UInt32(DRM_MODE_OBJECT_CRTC), ["MODE_ID", "ACTIVE"])
        planeProps = try ids(primary, UInt32(DRM_MODE_OBJECT_PLANE),
                             ["FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H",
                              "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H"])
        self.device = device
        self.pipe = pipe
        planeID = primary
    }

    var name: String { "atomic" }

    func modeset(framebuffer: UInt32) throws {
        if modeBlob == 0 {
            var mode = pipe.mode
            let rc = drmModeCreatePropertyBlob(device.fd, &mode, MemoryLayout<drmModeModeInfo>.size, &modeBlob)
            if rc != 0 { throw DRMError.errno("drmModeCreatePropertyBlob", device.path, rc) }
        }
        let w = UInt64(pipe.mode.hdisplay), h = UInt64(pipe.mode.vdisplay)
        try commit(flags: UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET), userData: nil, [
            (pipe.connectorID, connectorProps, "CRTC_ID", UInt64(pipe.crtcID)),
            (pipe.crtcID, crtcProps, "MODE_ID", UInt64(modeBlob)),
            (pipe.crtcID, crtcProps, "ACTIVE", 1),
            (planeID, planeProps, "FB_ID", UInt64(framebuffer)),
            (planeID, planeProps, "CRTC_ID", UInt64(pipe.crtcID)),
            (planeID, planeProps, "SRC_X", 0), (planeID, planeProps, "SRC_Y", 0),
            (planeID, planeProps, "SRC_W", w << 16), (planeID, planeProps, "SRC_H", h << 16),
            (planeID, planeProps, "CRTC_X", 0), (planeID, planeProps, "CRTC_Y", 0),
            (planeID, planeProps, "CRTC_W", w), (planeID, planeProps, "CRTC_H", h),
        ])
    }

    func flip(framebuffer: UInt32, userData: UnsafeMutableRawPointer) throws {
        try commit(flags: UInt32(DRM_MODE_PAGE_FLIP_EVENT) | UInt32(DRM_MODE_ATOMIC_NONBLOCK), userData: userData,
                   [(planeID, planeProps, "FB_ID", UInt64(framebuffer))])
    }

    func release() {
        if modeBlob != 0 {
            drmModeDestroyPropertyBlob(device.fd, modeBlob)
            modeBlob = 0
        }
    }

    /// Builds and commits one atomic request of (object, its property table, property name, value).
    private func commit(flags: UInt32, userData: UnsafeMutableRawPointer?,
                        _ items: [(UInt32, [String: UInt32], String, UInt64)]) throws {
        guard let req = drmModeAtomicAlloc() else {
            throw DRMError(call: "drmModeAtomicAlloc", path: device.path, reason: "out of memory")
        }
        defer { drmModeAtomicFree(req) }
        for (object, table, name, value) in items {
            guard let prop = table[name], drmModeAtomicAddProperty(req, object, prop, value) >= 0 else {
                throw DRMError(call: "drmModeAtomicAddProperty(\(name))", path: device.path, reason: "rejected")
            }
        }
        let rc = drmModeAtomicCommit(device.fd, req, flags, userData)
        if rc != 0 { throw DRMError.errno("drmModeAtomicCommit", device.path, rc) }
    }
}
