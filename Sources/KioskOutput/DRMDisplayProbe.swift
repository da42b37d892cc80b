internal import CDRM
import Foundation
import KioskCore

/// What the health monitor reads of an output's displays, from its own thread: each connector's state and the EDID
/// blob the kernel holds for it (the connector's `EDID` property), read without probing the connector (no DDC
/// transfer, so it never stalls). The output names its connectors here when they change. Thread-safe.
public final class DRMDisplayProbe: @unchecked Sendable {
    /// One connector as read now.
    public struct Reading: Sendable, Equatable {
        /// The connector's name (`HDMI-A-1`).
        public var name: String
        /// `connected`, `disconnected` or `unknown`.
        public var state: String
        /// The EDID blob's bytes; nil when the connector has none (no display, or a driver without one).
        public var edid: [UInt8]?
    }

    private let device: DRMDevice
    private let lock = NSLock()
    private var connectors: [(id: UInt32, name: String)] = []

    init(device: DRMDevice) {
        self.device = device
    }

    /// The connectors the output drives from now on.
    func drive(_ connectors: [(id: UInt32, name: String)]) {
        lock.lock()
        self.connectors = connectors
        lock.unlock()
    }

    /// Each driven connector's state and EDID now.
    public func read() -> [Reading] {
        lock.lock()
        let list = connectors
        lock.unlock()
        return list.map { c in
            var state = "unknown"
            if let info = drmModeGetConnectorCurrent(device.fd, c.id) {
                switch info.pointee.connection {
                case DRM_MODE_CONNECTED: state = "connected"
                case DRM_MODE_DISCONNECTED: state = "disconnected"
                default: state = "unknown"
                }
                drmModeFreeConnector(info)
            }
            return Reading(name: c.name, state: state, edid: edid(connector: c.id))
        }
    }

    /// The connector's EDID blob (its `EDID` property holds the blob's id; 0: none).
    private func edid(connector: UInt32) -> [UInt8]? {
        guard let property = device.property(object: connector, type: UInt32(DRM_MODE_OBJECT_CONNECTOR), name: "EDID"),
              property.value != 0, property.value <= UInt64(UInt32.max),
              let blob = drmModeGetPropertyBlob(device.fd, UInt32(property.value)) else { return nil }
        defer { drmModeFreePropertyBlob(blob) }
        guard let data = blob.pointee.data, blob.pointee.length > 0 else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(blob.pointee.length)))
    }
}
