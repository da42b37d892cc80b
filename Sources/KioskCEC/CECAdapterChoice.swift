import KioskCore

/// Which CEC adapter kiosk uses (`--cec auto|off|/dev/cecN`).
public enum CECAdapterChoice {
    /// The adapter `option` names: `off` none; a path that one; `auto` (the default) the adapter the kernel ties
    /// to the DRM connector in use (`connector`: card number and connector id), else the only one there is that is
    /// not a display's own (physical address 0.0.0.0; with several, the first). What
    /// is missing or cannot be opened is one info line in `log`, and nil: kiosk goes on with DPMS alone.
    public static func open(_ option: String, connector: (card: UInt32, connector: UInt32)?, dev: String = "/dev",
                            log: Log) -> CECAdapter? {
        switch option {
        case "off":
            return nil
        case "auto":
            let paths = CECAdapter.list(in: dev)
            guard !paths.isEmpty else {
                log.info("cec: no HDMI-CEC adapter (\(dev)/cec*): the screen's power is DPMS alone")
                return nil
            }
            var adapters: [CECAdapter] = []
            for p in paths {
                do { adapters.append(try CECAdapter(path: p)) } catch { log.info("cec: \(error)") }
            }
            if let connector, let tied = adapters.first(where: { $0.connector.map { $0 == connector } ?? false }) {
                return tied
            }
            adapters = adapters.filter { !$0.isSink }  // 0.0.0.0 is a TV's own address: no player is there
            if adapters.count > 1 {
                log.info("cec: \(adapters.count) adapters and none tied to the display in use: using \(adapters[0].path) (--cec /dev/cecN picks one)")
            }
            if adapters.isEmpty { log.info("cec: no usable HDMI-CEC adapter: the screen's power is DPMS alone") }
            return adapters.first
        default:
            do {
                return try CECAdapter(path: option)
            } catch {
                log.info("cec: \(error); the screen's power is DPMS alone")
                return nil
            }
        }
    }
}
