internal import CDRM
import Foundation

/// The KMS objects one output drives: connector, CRTC (chosen through the encoders' possible CRTCs), mode,
/// and the CRTC state found at start, restored on close.
struct DRMPipe {
    /// The connector id.
    let connectorID: UInt32
    /// The CRTC id.
    let crtcID: UInt32
    /// The CRTC's index in the card's CRTC list (for planes' `possible_crtcs`).
    let crtcIndex: Int
    /// The mode to set.
    let mode: drmModeModeInfo
    /// The CRTC as it was: framebuffer, position, mode (nil mode when it was off).
    var saved: (fb: UInt32, x: UInt32, y: UInt32, mode: drmModeModeInfo?)

    /// Drives the selection's connector from `crtc` (nil: its first candidate, see `crtcCandidates`) and saves
    /// that CRTC's state.
    init(device: DRMDevice, selection: DisplaySelection, crtc wanted: UInt32? = nil) throws {
        let path = device.path
        let fd = device.fd
        let candidates = try Self.crtcCandidates(device: device, connector: selection.connector)
        let (crtcs, mode) = try device.withResources { res in
            let crtcs = buffer(res.pointee.crtcs, res.pointee.count_crtcs)
            return try device.withConnector(selection.connector.id) { c in
                let modes = buffer(c.pointee.modes, c.pointee.count_modes)
                guard selection.modeIndex < modes.count else {
                    throw DRMError(call: "drmModeGetConnector", path: path,
                                   reason: "connector \(selection.connector.name) changed its modes")
                }
                return (crtcs, modes[selection.modeIndex])
            }
        }
        let chosen = wanted.flatMap { candidates.contains($0) ? $0 : nil } ?? candidates.first
        guard let crtcID = chosen, let crtcIndex = crtcs.firstIndex(of: crtcID) else {
            throw DRMError(call: "drmModeGetEncoder", path: path,
                           reason: "no CRTC can drive connector \(selection.connector.name)"
                               + (wanted.map { " (CRTC \($0) is not one of \(candidates))" } ?? ""))
        }
        guard let current = drmModeGetCrtc(fd, crtcID) else { throw DRMError.errno("drmModeGetCrtc", path, errno) }
        saved = (current.pointee.buffer_id, current.pointee.x, current.pointee.y,
                 current.pointee.mode_valid != 0 ? current.pointee.mode : nil)
        drmModeFreeCrtc(current)
        connectorID = selection.connector.id
        self.crtcID = crtcID
        self.crtcIndex = crtcIndex
        self.mode = mode
    }

    /// The CRTCs that can drive `connector`, best first: the one its encoder drives now, then every CRTC one of
    /// its encoders can use, in the card's order (no repeats).
    static func crtcCandidates(device: DRMDevice, connector: ConnectorReport) throws -> [UInt32] {
        let fd = device.fd
        return try device.withResources { res in
            let crtcs = buffer(res.pointee.crtcs, res.pointee.count_crtcs)
            return try device.withConnector(connector.id) { c in
                var candidates: [UInt32] = []
                if c.pointee.encoder_id != 0, let e = drmModeGetEncoder(fd, c.pointee.encoder_id) {
                    if e.pointee.crtc_id != 0, crtcs.contains(e.pointee.crtc_id) { candidates.append(e.pointee.crtc_id) }
                    drmModeFreeEncoder(e)
                }
                for encoderID in buffer(c.pointee.encoders, c.pointee.count_encoders) {
                    guard let e = drmModeGetEncoder(fd, encoderID) else { continue }
                    for (i, crtc) in crtcs.enumerated()
                    where e.pointee.possible_crtcs & (1 << UInt32(i)) != 0 && !candidates.contains(crtc) {
                        candidates.append(crtc)
                    }
                    drmModeFreeEncoder(e)
                }
                return candidates
            }
        }
    }

    /// Puts the saved CRTC state back (or turns the CRTC off when it was off).
    func restore(device: DRMDevice) throws {
        var connector = connectorID
        let rc: Int32
        if var mode = saved.mode, saved.fb != 0 {
            rc = drmModeSetCrtc(device.fd, crtcID, saved.fb, saved.x, saved.y, &connector, 1, &mode)
        } else {
            rc = drmModeSetCrtc(device.fd, crtcID, 0, 0, 0, nil, 0, nil)
        }
        if rc != 0 { throw DRMError.errno("drmModeSetCrtc (restore)", device.path, rc) }
    }
}
