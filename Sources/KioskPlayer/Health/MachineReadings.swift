import Foundation
import KioskCore

/// The machine's health readings, read from sysfs and procfs under `root` (`/`; a test gives a fake tree): the
/// thermal zones' temperatures, the Raspberry Pi firmware's throttling bits where the file is there, CPU use of the
/// process and of the system since the last round, memory, uptime, and free space where the given folders live.
/// Used from the health monitor's thread only.
public final class MachineReadings {
    /// The tree's root, ending in `/`.
    let root: String
    private var lastCPU: (system: (total: UInt64, idle: UInt64), process: UInt64)?

    /// The Raspberry Pi firmware's throttling word, relative to the root.
    static let throttledFile = "sys/devices/platform/soc/soc:firmware/get_throttled"

    /// Readings of the tree at `root`.
    public init(root: String = "/") {
        self.root = root.hasSuffix("/") ? root : root + "/"
    }

    /// One round's readings at `time`; CPU use is over the time since the previous round (none on the first).
    public func read(at time: WallInstant) -> [HealthReading] {
        var out = temperatures(at: time)
        if let text = file(Self.throttledFile), let word = ProcText.throttled(text) {
            out.append(HealthReading("throttling", text: ProcText.throttlingFlags(word), time: time))
            out.append(HealthReading("throttled-bits", value: Double(word), unit: "bitmask", time: time))
        }
        out += cpu(at: time)
        if let rss = file("proc/self/status").flatMap({ ProcText.kilobytes("VmRSS", in: $0) }) {
            out.append(HealthReading("memory-process", value: rss, unit: "bytes", time: time))
        }
        if let meminfo = file("proc/meminfo") {
            if let available = ProcText.kilobytes("MemAvailable", in: meminfo) {
                out.append(HealthReading("memory-available", value: available, unit: "bytes", time: time))
            }
            if let total = ProcText.kilobytes("MemTotal", in: meminfo) {
                out.append(HealthReading("memory-total", value: total, unit: "bytes", time: time))
            }
        }
        if let up = file("proc/uptime").flatMap(ProcText.uptime) {
            out.append(HealthReading("uptime-system", value: up, unit: "s", time: time))
            if let ticks = file("proc/self/stat").flatMap(ProcText.processStartTicks) {
                let hz = Double(max(1, sysconf(Int32(_SC_CLK_TCK))))
                out.append(HealthReading("uptime-process", value: max(0, (up - ticks / hz).rounded()), unit: "s", time: time))
            }
        }
        return out
    }

    /// Each thermal zone's temperature (`thermal_zoneN/temp`, millidegrees), its `type` as the subject.
    func temperatures(at time: WallInstant) -> [HealthReading] {
        let folder = root + "sys/class/thermal"
        let zones = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix("thermal_zone") }
            .sorted { (Int($0.dropFirst(12)) ?? 0) < (Int($1.dropFirst(12)) ?? 0) }
        guard !zones.isEmpty else {
            return [HealthReading("temperature", text: "not reported: no thermal zones in /sys/class/thermal", time: time)]
        }
        return zones.compactMap { zone in
            guard let text = file("sys/class/thermal/\(zone)/temp"),
                  let milli = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
            let type = file("sys/class/thermal/\(zone)/type")?.trimmingCharacters(in: .whitespacesAndNewlines)
            return HealthReading("temperature", subject: "\(zone) \(type ?? "?")", value: milli / 1000, unit: "°C", time: time)
        }
    }

    /// CPU use in percent of one CPU's time for the process (can pass 100 on several cores) and of all CPUs for
    /// the system, since the last call.
    func cpu(at time: WallInstant) -> [HealthReading] {
        guard let system = file("proc/stat").flatMap(ProcText.systemCPU),
              let process = file("proc/self/stat").flatMap(ProcText.processCPU) else { return [] }
        defer { lastCPU = (system, process) }
        let cpus = Double(max(1, cpuCount()))
        guard let last = lastCPU else {
            // the first round: the system's since boot, the process's since it started
            guard system.total > 0 else { return [] }
            var out = [HealthReading("cpu-system", value: ((1 - Double(system.idle) / Double(system.total)) * 1000).rounded() / 10,
                                     unit: "%", time: time)]
            let hz = Double(max(1, sysconf(Int32(_SC_CLK_TCK))))
            if let up = file("proc/uptime").flatMap(ProcText.uptime),
               let start = file("proc/self/stat").flatMap(ProcText.processStartTicks), up - start / hz > 0 {
                out.insert(HealthReading("cpu-process", value: (Double(process) / hz / (up - start / hz) * 1000).rounded() / 10,
                                         unit: "%", time: time), at: 0)
            }
            return out
        }
        guard system.total > last.system.total else { return [] }
        let total = Double(system.total - last.system.total)
        let idle = Double(system.idle &- last.system.idle)
        let own = Double(process &- last.process)
        return [HealthReading("cpu-process", value: (own / total * cpus * 100 * 10).rounded() / 10, unit: "%", time: time),
                HealthReading("cpu-system", value: ((1 - idle / total) * 100 * 10).rounded() / 10, unit: "%", time: time)]
    }

    /// The CPUs `/proc/stat` lists (`cpu0`, `cpu1`…).
    private func cpuCount() -> Int {
        (file("proc/stat") ?? "").split(separator: "\n").filter { $0.hasPrefix("cpu") && !$0.hasPrefix("cpu ") }.count
    }

    /// A file under the root as text; nil when it cannot be read.
    private func file(_ path: String) -> String? {
        try? String(contentsOfFile: root + path, encoding: .utf8)
    }

    /// Free space (for an unprivileged user: `f_bavail`, as `df` shows it) and its share of the file system, for
    /// each named folder; a folder statvfs cannot read gives a text reading saying why.
    public static func freeSpace(_ folders: [(name: String, path: String)], at time: WallInstant) -> [HealthReading] {
        folders.flatMap { folder -> [HealthReading] in
            let subject = "\(folder.name) \(folder.path)"
            var s = statvfs()
            // a folder not made yet (a cache before its first fetch) lives on its nearest existing parent's file system
            var path = folder.path
            while statvfs(path, &s) != 0, errno == ENOENT, path != "/", !path.isEmpty {
                path = (path as NSString).deletingLastPathComponent
            }
            guard statvfs(path, &s) == 0 else {
                return [HealthReading("free-space", subject: subject, text: "unreadable: \(String(cString: strerror(errno)))", time: time)]
            }
            let unit = Double(s.f_frsize)
            let free = Double(s.f_bavail) * unit
            let size = Double(s.f_blocks) * unit
            return [HealthReading("free-space", subject: subject, value: free, unit: "bytes", time: time),
                    HealthReading("free-space-share", subject: subject, value: size > 0 ? (free / size * 1000).rounded() / 10 : 0,
                                  unit: "%", time: time)]
        }
    }
}
