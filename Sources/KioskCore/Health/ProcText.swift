import Foundation

/// The few figures the health readings take from `/proc` and the Raspberry Pi firmware's sysfs files, parsed from
/// their text (the files are read outside the core).
public enum ProcText {
    /// CPU time from `/proc/stat`'s first line (`cpu  user nice system idle iowait irq softirq steal …`): all of
    /// it and the idle part (idle + iowait), in clock ticks.
    public static func systemCPU(_ stat: String) -> (total: UInt64, idle: UInt64)? {
        guard let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
        let fields = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
        guard fields.count >= 4 else { return nil }
        let counted = fields.prefix(8)  // guest time is already inside user and nice
        return (counted.reduce(0, &+), fields[3] &+ (fields.count > 4 ? fields[4] : 0))
    }

    /// The process's CPU time (user + system, fields 14 and 15 of `/proc/PID/stat`), in clock ticks. The command
    /// name in parentheses may hold spaces, so fields are counted after its last `)`.
    public static func processCPU(_ stat: String) -> UInt64? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // after ")": state is field 3, so utime (14) is the 12th and stime (15) the 13th
        guard fields.count >= 13, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else { return nil }
        return user &+ system
    }

    /// When the process started, in clock ticks after boot (field 22 of `/proc/PID/stat`).
    public static func processStartTicks(_ stat: String) -> Double? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? Double(fields[19]) : nil
    }

    /// A `/proc/meminfo` or `/proc/self/status` entry in bytes (`MemAvailable:  123 kB`, `VmRSS:  456 kB`).
    public static func kilobytes(_ key: String, in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            let parts = line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let n = parts.first.flatMap({ Double($0) }) else { return nil }
            return parts.count > 1 && parts[1] == "kB" ? n * 1024 : n
        }
        return nil
    }

    /// The first number of `/proc/uptime` (seconds since boot).
    public static func uptime(_ text: String) -> Double? {
        text.split(separator: " ").first.flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// The Raspberry Pi firmware's throttling word (`get_throttled`: hex, with or without `0x`, or `throttled=0x…`
    /// as `vcgencmd` prints it).
    public static func throttled(_ text: String) -> UInt32? {
        var t = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        if let eq = t.firstIndex(of: "=") { t = t[t.index(after: eq)...] }
        if t.hasPrefix("0x") || t.hasPrefix("0X") { t = t.dropFirst(2) }
        return UInt32(t, radix: 16)
    }

    /// The throttling word's bits by name: now (bits 0–3) and since boot (bits 16–19); `ok` when none is set.
    public static func throttlingFlags(_ word: UInt32) -> String {
        let names: [(bit: UInt32, name: String)] = [
            (0, "under-voltage"), (1, "arm-capped"), (2, "throttled"), (3, "soft-temp-limit"),
            (16, "under-voltage-occurred"), (17, "arm-capped-occurred"), (18, "throttled-occurred"), (19, "soft-temp-limit-occurred"),
        ]
        let set = names.filter { word & (1 << $0.bit) != 0 }.map(\.name)
        return set.isEmpty ? "ok" : set.joined(separator: ",")
    }
}
