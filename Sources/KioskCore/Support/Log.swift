import Foundation

/// How much the player says on standard error.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    /// Failures only.
    case error = 0
    /// Failures and skipped items.
    case warn
    /// Plus milestones (output chosen, first frame).
    case info
    /// Everything.
    case debug

    /// The flag spelling.
    public var name: String { ["error", "warn", "info", "debug"][rawValue] }

    /// Parses a flag value.
    public init?(name: String) {
        guard let l = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = l
    }

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }

    /// The syslog priority journald files a line of this level under (sd-daemon.h's `SD_ERR`, `SD_WARNING`,
    /// `SD_INFO`, `SD_DEBUG`), so `journalctl -p warning` shows errors and warnings.
    public var syslogPriority: Int { [3, 4, 6, 7][rawValue] }
}

/// One-line log messages to standard error, `kiosk: level: message`. Thread-safe.
public final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var _level: LogLevel
    private var sink: (String) -> Void
    private var taps: [@Sendable (LogLevel, String) -> Void] = []
    private var _syslogPrefixes = false
    /// A prefixed log's parent, which writes its lines (`prefixed`), and what goes before each message.
    private let parent: (log: Log, prefix: String)?

    /// The process-wide log the CLI configures. Parts take a `Log` to write to; tests may pass their own.
    public static let shared = Log(level: .warn)

    /// Creates a log that writes lines to `sink` (standard error by default).
    public init(level: LogLevel, sink: (@Sendable (String) -> Void)? = nil) {
        _level = level
        self.sink = sink ?? { line in Log.writeStandardError(line + "\n") }
        parent = nil
    }

    private init(parent: Log, prefix: String) {
        _level = parent.level
        sink = { _ in }
        self.parent = (parent, prefix)
    }

    /// A log whose every message starts with `prefix` (`screen lobby: `), written by this one: its threshold,
    /// sink, syslog prefixes and taps are this log's.
    public func prefixed(_ prefix: String) -> Log { Log(parent: self, prefix: prefix) }

    /// The current threshold.
    public var level: LogLevel {
        get {
            if let parent { return parent.log.level }
            lock.lock(); defer { lock.unlock() }; return _level
        }
        set { lock.lock(); _level = newValue; lock.unlock() }
    }

    /// Whether each line starts with its syslog priority, `<4>kiosk: warn: …` (sd-daemon(3)'s prefixes), which
    /// journald reads as the line's priority and strips. On when standard error is the journal; the CLI decides.
    public var useSyslogPrefixes: Bool {
        get { lock.lock(); defer { lock.unlock() }; return _syslogPrefixes }
        set { lock.lock(); _syslogPrefixes = newValue; lock.unlock() }
    }

    /// `<N>` for `level` when `useSyslogPrefixes` is on, else nothing: for a line written to standard error
    /// outside `write`.
    public func syslogPrefix(_ level: LogLevel) -> String {
        lock.lock(); defer { lock.unlock() }
        return prefix(level)
    }

    private func prefix(_ level: LogLevel) -> String { _syslogPrefixes ? "<\(level.syslogPriority)>" : "" }

    /// Replaces where lines go (for tests).
    public func redirect(_ to: @escaping @Sendable (String) -> Void) {
        lock.lock(); sink = to; lock.unlock()
    }

    /// Also hands every line that passes the threshold to `tap` (its level and the escaped message), after the
    /// sink; a tap must not log itself. For remote clients that asked for log messages.
    public func tap(_ tap: @escaping @Sendable (LogLevel, String) -> Void) {
        lock.lock(); taps.append(tap); lock.unlock()
    }

    /// Writes `message` if `level` passes the threshold.
    public func write(_ level: LogLevel, _ message: @autoclosure () -> String) {
        if let parent {
            parent.log.write(level, parent.prefix + message())
            return
        }
        lock.lock(); defer { lock.unlock() }
        guard level <= _level else { return }
        let text = Self.escaped(message())
        sink(prefix(level) + "kiosk: \(level.name): \(text)")
        for t in taps { t(level, text) }
    }

    /// `text` on standard error; a failed write (a closed pipe: SIGPIPE is ignored) is dropped, never fatal
    /// (Foundation's `FileHandle.write(_:)` would stop the process there).
    public static func writeStandardError(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }  // EPIPE, EBADF…: the line is dropped
            bytes = bytes.dropFirst(n)
        }
    }

    /// `text` with every control character escaped (`\n`, `\r`, `\t`, `\x1b`, `\u{2028}`…), so one message is
    /// one line, and a file name cannot forge a log line or send terminal escapes; a name's bytes that are not
    /// UTF-8 (`FileName`) show as `\xff`.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) || FileName.rawByte($0) != nil }) else { return text }
        var out = ""
        for u in text.unicodeScalars {
            if let raw = FileName.rawByte(u) { out += "\\x" + String(raw, radix: 16); continue }  // a byte of a name, not UTF-8
            guard isControl(u) else { out.unicodeScalars.append(u); continue }
            switch u {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                let hex = String(u.value, radix: 16)
                out += u.value <= 0xff ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex : "\\u{\(hex)}"
            }
        }
        return out
    }

    /// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
    private static func isControl(_ u: Unicode.Scalar) -> Bool {
        u.value < 0x20 || (0x7f...0x9f).contains(u.value) || u.value == 0x2028 || u.value == 0x2029
    }

    /// Logs an error.
    public func error(_ m: @autoclosure () -> String) { write(.error, m()) }
    /// Logs a warning.
    public func warn(_ m: @autoclosure () -> String) { write(.warn, m()) }
    /// Logs a milestone.
    public func info(_ m: @autoclosure () -> String) { write(.info, m()) }
    /// Logs detail.
    public func debug(_ m: @autoclosure () -> String) { write(.debug, m()) }
}
