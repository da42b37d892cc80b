import Foundation

/// Whether standard error is connected to the journal. systemd sets `JOURNAL_STREAM=DEVICE:INODE` (decimal) for a
/// service whose output goes to journald; the variable is inherited by children whose output goes elsewhere, so
/// it counts only when it names the very file standard error is (systemd.exec(5), "JOURNAL_STREAM").
public enum JournalStream {
    /// True when `JOURNAL_STREAM` in `environment` names the file behind standard error (fstat(2)).
    public static func isStandardError(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let value = environment["JOURNAL_STREAM"] else { return false }
        var st = stat()
        guard fstat(STDERR_FILENO, &st) == 0 else { return false }
        return names(value, device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    /// Whether a `JOURNAL_STREAM` value is exactly `device:inode`.
    public static func names(_ value: String, device: UInt64, inode: UInt64) -> Bool {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let d = UInt64(parts[0]), let i = UInt64(parts[1]) else { return false }
        return d == device && i == inode
    }
}
