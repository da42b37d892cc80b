import Foundation
import KioskCore
import KioskPlayer

/// `kiosk play`'s state options: `--state-dir DIR`, `--no-state`, or the standard folder.
enum StateChoice {
    /// The keeper the options ask for: nil with `--no-state`, with `--untimed` (a measurement, not a kiosk: it
    /// neither continues nor saves), or when the folder cannot be used (one warn line; the player runs without
    /// saving).
    static func keeper(_ o: ParsedOptions, untimed: Bool, log: Log) throws -> StateKeeper? {
        let named = o.string("state-dir")
        if o.has("no-state") {
            if named != nil { throw UsageError("--state-dir and --no-state contradict each other") }
            return nil
        }
        if named?.isEmpty == true { throw UsageError("--state-dir: needs a folder") }
        if untimed {
            log.debug("state: not kept with --untimed")
            return nil
        }
        return StateKeeper.open(directory: named, environment: ProcessInfo.processInfo.environment, log: log)
    }
}
