internal import CDRM
import Foundation

/// Atomic KMS: one commit sets every head's connector, CRTC (mode blob, active) and primary plane (its source
/// window on the framebuffer at the head's `x`); later commits only change the planes' framebuffer, all heads in
/// one non-blocking commit with a page-flip event per CRTC, so the panels of a span show the same frame.
final class DRMAtomicCommitter: DRMCommitter {
    /// One head's objects: its pipe and source column, its primary plane, and property ids by name per object.
    private struct Head {
        let head: DRMHead
        let planeID: UInt32
        let connectorProps: [String: UInt32]
        let crtcProps: [String: UInt32]
        let planeProps: [String: UInt32]
        var modeBlob: UInt32 = 0
    }

    private let device: DRMDevice
    private var heads: [Head]

    /// Enables atomic on `device` and finds each head's primary plane; throws where the driver says no.
    init(device: DRMDevice, heads: [DRMHead]) throws {
        let fd = device.fd
        if drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1) != 0 {
            throw DRMError(call: "drmSetClientCap(UNIVERSAL_PLANES)", path: device.path, reason: "not supported")
        }
        if drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) != 0 {
            throw DRMError(call: "drmSetClientCap(ATOMIC)", path: device.path, reason: "not supported")
        }
        var taken: [UInt32] = []
        var made: [Head] = []
        for head in heads {
            let pipe = head.pipe
            let primary = try Self.primaryPlane(device: device, crtcIndex: pipe.crtcIndex, crtcID: pipe.crtcID, except: taken)
            taken.append(primary)
            made.append(Head(
                head: head, planeID: primary,
                connectorProps: try Self.ids(device, pipe.connectorID, UInt32(DRM_MODE_OBJECT_CONNECTOR), ["CRTC_ID"]),
                crtcProps: try Self.ids(device, pipe.crtcID, UInt32(DRM_MODE_OBJECT_CRTC), ["MODE_ID", "ACTIVE"]),
                planeProps: try Self.ids(device, primary, UInt32(DRM_MODE_OBJECT_PLANE),
                                         ["FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H",
                                          "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H"])))
        }
        self.device = device
        self.heads = made
    }

    /// The primary plane that can show on the CRTC at `crtcIndex`, not one of `except` (another head's).
    private static func primaryPlane(device: DRMDevice, crtcIndex: Int, crtcID: UInt32, except: [UInt32]) throws -> UInt32 {
        let fd = device.fd
        guard let planes = drmModeGetPlaneResources(fd) else {
            throw DRMError.errno("drmModeGetPlaneResources", device.path, errno)
        }
        defer { drmModeFreePlaneResources(planes) }
        for id in buffer(planes.pointee.planes, planes.pointee.count_planes) where !except.contains(id) {
            guard let p = drmModeGetPlane(fd, id) else { continue }
            let fits = p.pointee.possible_crtcs & (1 << UInt32(crtcIndex)) != 0
            drmModeFreePlane(p)
            let type = device.property(object: id, type: UInt32(DRM_MODE_OBJECT_PLANE), name: "type")
            if fits, type?.value == UInt64(DRM_PLANE_TYPE_PRIMARY) { return id }
        }
        throw DRMError(call: "drmModeGetPlane", path: device.path, reason: "no primary plane for CRTC \(crtcID)")
    }

    /// The ids of `names` among `object`'s properties; throws naming the first one missing.
    private static func ids(_ device: DRMDevice, _ object: UInt32, _ type: UInt32, _ names: [String]) throws -> [String: UInt32] {
        var out: [String: UInt32] = [:]
        for n in names {
            guard let p = device.property(object: object, type: type, name: n) else {
                throw DRMError(call: "drmModeObjectGetProperties", path: device.path, reason: "object \(object) has no \(n) property")
            }
            out[n] = p.id
        }
        return out
    }

    var name: String { "atomic" }

    var locksHeads: Bool { true }

    func modeset(framebuffer: UInt32) throws {
        var items: [(UInt32, [String: UInt32], String, UInt64)] = []
        for i in heads.indices {
            if heads[i].modeBlob == 0 {
                var mode = heads[i].head.pipe.mode
                var blob: UInt32 = 0
                let rc = drmModeCreatePropertyBlob(device.fd, &mode, MemoryLayout<drmModeModeInfo>.size, &blob)
                if rc != 0 { throw DRMError.errno("drmModeCreatePropertyBlob", device.path, rc) }
                heads[i].modeBlob = blob
            }
            let h = heads[i], pipe = h.head.pipe
            let w = UInt64(pipe.mode.hdisplay), ht = UInt64(pipe.mode.vdisplay)
            items += [
                (pipe.connectorID, h.connectorProps, "CRTC_ID", UInt64(pipe.crtcID)),
                (pipe.crtcID, h.crtcProps, "MODE_ID", UInt64(h.modeBlob)),
                (pipe.crtcID, h.crtcProps, "ACTIVE", 1),
                (h.planeID, h.planeProps, "FB_ID", UInt64(framebuffer)),
                (h.planeID, h.planeProps, "CRTC_ID", UInt64(pipe.crtcID)),
                (h.planeID, h.planeProps, "SRC_X", UInt64(h.head.x) << 16), (h.planeID, h.planeProps, "SRC_Y", 0),
                (h.planeID, h.planeProps, "SRC_W", w << 16), (h.planeID, h.planeProps, "SRC_H", ht << 16),
                (h.planeID, h.planeProps, "CRTC_X", 0), (h.planeID, h.planeProps, "CRTC_Y", 0),
                (h.planeID, h.planeProps, "CRTC_W", w), (h.planeID, h.planeProps, "CRTC_H", ht),
            ]
        }
        try commit(flags: UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET), userData: nil, items)
    }

    func flip(framebuffer: UInt32, userData: UnsafeMutableRawPointer) throws {
        try commit(flags: UInt32(DRM_MODE_PAGE_FLIP_EVENT) | UInt32(DRM_MODE_ATOMIC_NONBLOCK), userData: userData,
                   heads.map { ($0.planeID, $0.planeProps, "FB_ID", UInt64(framebuffer)) })
    }

    func release() {
        for i in heads.indices where heads[i].modeBlob != 0 {
            drmModeDestroyPropertyBlob(device.fd, heads[i].modeBlob)
            heads[i].modeBlob = 0
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
