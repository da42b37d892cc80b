import Foundation

/// How long ago this process started, from /proc (the kernel's record of the start, in clock ticks since boot,
/// against /proc/uptime). Not a clock to read time from: that is `MonotonicClock`. It counts the time before
/// `main` too, which no clock started in the process can.
enum ProcessAge {
    /// Milliseconds since the process started, or -1 if /proc can't tell.
    static func millisecondsSinceStart() -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let uptime = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return -1 }
        // fields after the command name: state is field 3; starttime is field 22
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]),
              let up = uptime.split(separator: " ").first.flatMap({ Double($0) }) else { return -1 }
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        return Int(saturating: (up - ticks / max(hz, 1)) * 1000)
    }
}
