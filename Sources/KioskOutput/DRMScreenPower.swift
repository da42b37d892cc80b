internal import CDRM

/// Screen power (DPMS) of a DRM output, for schedules that blank the screen at night.
extension DRMOutput {
    /// Turns the screen on or off through the connector's DPMS property.
    public func setScreenPower(on: Bool) throws {
        let dpms = try dpmsProperty()
        let rc = drmModeConnectorSetProperty(device.fd, pipe.connectorID, dpms.id,
                                             UInt64(on ? DRM_MODE_DPMS_ON : DRM_MODE_DPMS_OFF))
        if rc != 0 { throw DRMError.errno("drmModeConnectorSetProperty(DPMS)", device.path, rc) }
        screenOn = on
    }

    /// Whether the connector's DPMS property reads "on".
    public func screenPowerIsOn() throws -> Bool {
        try dpmsProperty().value == UInt64(DRM_MODE_DPMS_ON)
    }

    func dpmsProperty() throws -> (id: UInt32, value: UInt64) {
        guard let p = device.property(object: pipe.connectorID, type: UInt32(DRM_MODE_OBJECT_CONNECTOR), name: "DPMS") else {
            throw DRMError(call: "drmModeObjectGetProperties", path: device.path,
                           reason: "connector \(selection.connector.name) has no DPMS property")
        }
        return p
    }
}
