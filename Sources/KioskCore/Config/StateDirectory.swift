/// Where `kiosk play` keeps its state when `--state-dir` names no folder: `$STATE_DIRECTORY` (systemd's
/// `StateDirectory=`; the first of several colon-separated folders), else `/var/lib/kiosk` when this user can
/// write it (or create it), else `$XDG_STATE_HOME/kiosk` (XDG's default `~/.local/state/kiosk`).
public enum StateDirectory {
    /// The state file's name in the folder.
    public static let fileName = "state.json"
    /// The system-wide folder.
    public static let system = "/var/lib/kiosk"

    /// The folder for this environment; `canWrite(system)` says whether the system folder is usable. Nil when
    /// nothing names a folder (no `STATE_DIRECTORY`, the system folder not writable, no `HOME`).
    public static func standard(environment: [String: String], canWrite: (String) -> Bool) -> String? {
        if let given = environment["STATE_DIRECTORY"],
           let first = given.split(separator: ":", omittingEmptySubsequences: true).first {
            return String(first)
        }
        if canWrite(system) { return system }
        // XDG: a relative XDG_STATE_HOME is invalid and ignored.
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return joined(xdg, "kiosk") }
        if let home = environment["HOME"], home.hasPrefix("/") { return joined(home, ".local/state/kiosk") }
        return nil
    }

    /// `folder/name` without a doubled slash.
    public static func joined(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
