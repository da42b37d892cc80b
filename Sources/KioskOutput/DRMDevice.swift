internal import CDRM
import KioskCore
import Foundation
import KioskSeat

/// An open DRM card (`/dev/dri/cardN`): the file descriptor and what the card offers.
public final class DRMDevice {
    /// The device path.
    public let path: String
    /// The kernel driver name, e.g. `bochs-drm`.
    public let driver: String
    /// The open descriptor; -1 once closed.
    private(set) var fd: Int32
    /// What opened the card (directly, or logind), and closes it.
    private let opener: DeviceOpener
    /// The undo the stop watchdog runs if the process exits stuck while master: drop it.
    private var exitUndo: ExitRestore.Token?

    /// Opens `path` read-write through `opener`; explains EACCES (video group / logind seat) and ENOENT.
    public init(path: String, opener: DeviceOpener = DirectOpener(group: "video")) throws {
        let fd: Int32
        do {
            fd = try opener.open(path, flags: O_RDWR)
        } catch let e as DeviceAccessError {
            if e.code == ENOENT {
                throw DRMError(call: e.call, path: path, reason: "no such device (is a DRM driver loaded?)", code: e.code)
            }
            throw e
        }
        guard let version = drmGetVersion(fd) else {
            opener.close(fd, path: path)
            throw DRMError(call: "drmGetVersion", path: path, reason: "not a DRM device")
        }
        driver = version.pointee.name.map { String(cString: $0) } ?? ""
        drmFreeVersion(version)
        self.path = path
        self.fd = fd
        self.opener = opener
    }

    deinit { close() }

    /// Closes the descriptor (idempotent).
    public func close() {
        forgetExitUndo()
        if fd >= 0 {
            opener.close(fd, path: path)
            fd = -1
        }
    }

    /// Makes this descriptor the DRM master (needed to set modes); fails when another program drives the display.
    public func becomeMaster() throws {
        if drmIsMaster(fd) == 0, drmSetMaster(fd) != 0 {
            throw DRMError(call: "drmSetMaster", path: path, reason:
                "not DRM master: another program (a compositor, X, another kiosk) drives the display")
        }
        if exitUndo == nil {
            let fd = fd
            exitUndo = ExitRestore.shared.add("DRM master of \(path)") { _ = drmDropMaster(fd) }
        }
    }

    /// Removes the exit undo (master dropped or the descriptor closed the clean way).
    private func forgetExitUndo() {
        if let exitUndo { ExitRestore.shared.remove(exitUndo) }
        exitUndo = nil
    }

    /// Gives DRM master up (before closing, so the console or the next client can set modes at once).
    public func dropMaster() {
        forgetExitUndo()
        if fd >= 0, drmIsMaster(fd) != 0 { drmDropMaster(fd) }
    }

    /// Lists every `/dev/dri/cardN` in `directory` with its connectors; unreadable cards carry their error.
    public static func report(directory: String = "/dev/dri", opener: DeviceOpener = DirectOpener(group: "video")) -> DisplayReport {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let cards = names.filter { $0.hasPrefix("card") && Int($0.dropFirst(4)) != nil }
            .sorted { Int($0.dropFirst(4)) ?? 0 < Int($1.dropFirst(4)) ?? 0 }
            .map { name -> CardReport in
                let path = directory + "/" + name
                do {
                    let device = try DRMDevice(path: path, opener: opener)
                    defer { device.close() }
                    return try device.report()
                } catch {
                    return CardReport(path: path, driver: "", connectors: [], error: "\(error)")
                }
            }
        return DisplayReport(cards: cards)
    }

    /// This card's connectors, their status and modes.
    public func report() throws -> CardReport {
        let connectors = try withResources { res in
            try buffer(res.pointee.connectors, res.pointee.count_connectors).map { id in
                try withConnector(id) { ConnectorReport(c: $0) }
            }
        }
        return CardReport(path: path, driver: driver, connectors: connectors)
    }

    /// Calls `body` with the card's mode resources.
    func withResources<T>(_ body: (UnsafeMutablePointer<drmModeRes>) throws -> T) throws -> T {
        guard let res = drmModeGetResources(fd) else {
            throw DRMError(call: "drmModeGetResources", path: path, reason: "not a modesetting (KMS) device")
        }
        defer { drmModeFreeResources(res) }
        return try body(res)
    }

    /// Calls `body` with connector `id`.
    func withConnector<T>(_ id: UInt32, _ body: (UnsafeMutablePointer<drmModeConnector>) throws -> T) throws -> T {
        guard let c = drmModeGetConnector(fd, id) else {
            throw DRMError.errno("drmModeGetConnector(\(id))", path, errno)
        }
        defer { drmModeFreeConnector(c) }
        return try body(c)
    }

    /// Id and current value of the property `name` on a KMS object, nil if it has none.
    func property(object: UInt32, type: UInt32, name: String) -> (id: UInt32, value: UInt64)? {
        guard let props = drmModeObjectGetProperties(fd, object, type) else { return nil }
        defer { drmModeFreeObjectProperties(props) }
        let ids = buffer(props.pointee.props, props.pointee.count_props)
        let values = buffer(props.pointee.prop_values, props.pointee.count_props)
        for (i, pid) in ids.enumerated() {
            guard let p = drmModeGetProperty(fd, pid) else { continue }
            let pname = withUnsafeBytes(of: p.pointee.name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            drmModeFreeProperty(p)
            if pname == name { return (pid, values[i]) }
        }
        return nil
    }
}

/// The elements of a C array as a Swift array (empty for nil or a non-positive count).
func buffer<T, N: BinaryInteger>(_ p: UnsafeMutablePointer<T>?, _ count: N) -> [T] {
    guard let p, count > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: p, count: Int(count)))
}

extension ConnectorReport {
    /// Reads a libdrm connector into a report.
    init(c: UnsafeMutablePointer<drmModeConnector>) {
        let type = c.pointee.connector_type
        let typeName = drmModeGetConnectorTypeName(type).map { String(cString: $0) } ?? "Unknown\(type)"
        let status: ConnectorStatus
        switch c.pointee.connection {
        case DRM_MODE_CONNECTED: status = .connected
        case DRM_MODE_DISCONNECTED: status = .disconnected
        default: status = .unknown
        }
        self.init(id: c.pointee.connector_id, name: "\(typeName)-\(c.pointee.connector_type_id)", status: status,
                  modes: buffer(c.pointee.modes, c.pointee.count_modes).map(DisplayMode.init(info:)),
                  millimetres: c.pointee.mmWidth > 0 && c.pointee.mmHeight > 0
                      ? PhysicalSize(width: Double(c.pointee.mmWidth), height: Double(c.pointee.mmHeight)) : nil)
    }
}

extension DisplayMode {
    /// Reads a libdrm mode.
    init(info m: drmModeModeInfo) {
        var hz = Double(m.vrefresh)
        if m.htotal > 0, m.vtotal > 0 {
            hz = Double(m.clock) * 1000 / (Double(m.htotal) * Double(m.vtotal))
            if m.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 { hz *= 2 }
            if m.flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0 { hz /= 2 }
        }
        self.init(width: Int(m.hdisplay), height: Int(m.vdisplay), refreshHz: hz,
                  preferred: m.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0)
    }
}
