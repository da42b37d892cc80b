import Foundation
import KioskCore

/// `kiosk-bench sdwrites KIOSK [MINUTES] [DIR]` (issue 41, SD cards): what `kiosk play` writes to its disk an hour,
/// from `/proc/PID/io`'s `write_bytes` (bytes the process sent toward the storage, counted as it dirties the page
/// cache, so SQLite's WAL, its shared-memory index and the state file's new copies all count), at a still every
/// 2 s (1,800 showings an hour, as many as the machine keeps: the line says) of real photos made 1280x720 JPEGs, on a
/// 1280x720 headless canvas. Four kiosks run side by side for the
/// same minutes: state and play log as shipped, the play log alone, the state alone, and the play log row by row
/// (`--play-log-batch 0`, how it was written before) against which the batches are measured. The rows' own bytes
/// (each value's length: texts' UTF-8 bytes, 8 for a number) come from the sqlite3 shell over the log written.
/// The first 10 s (start, the log's creation) are left out; a run shorter than 11 minutes sees no checkpoint.
enum SDWritesBench {
    /// One kiosk of the comparison: its label and the options that differ.
    private struct Case {
        let label: String
        let options: [String]
        var process: Process?
        var start: Int64 = 0
    }

    static func run(kiosk: String, minutes: Double, directory: String?) throws {
        let dir = directory ?? NSTemporaryDirectory() + "kiosk-bench-sdwrites"
        try? FileManager.default.removeItem(atPath: dir)
        let pictures = dir + "/pictures"
        try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
        // the photos as a signage playlist holds them, 1280x720 JPEGs (the originals are up to 4K: decoding those on two
        // cores kept a still 5 s on screen, not 2)
        for photo in RealClip.photos where FileManager.default.fileExists(atPath: photo) {
            let out = pictures + "/" + (photo as NSString).lastPathComponent
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            p.arguments = ["-loglevel", "error", "-y", "-i", photo, "-vf", "scale=1280:720:force_original_aspect_ratio=increase,crop=1280:720",
                           "-q:v", "3", out]
            try p.run()
            p.waitUntilExit()
        }
        guard (try FileManager.default.contentsOfDirectory(atPath: pictures)).count >= 2 else {
            throw BenchError("sdwrites: the photos (\(RealClip.photos.joined(separator: ", "))) are missing: Kiosk/setup.sh installs them")
        }
        var cases = [
            Case(label: "state and play log (as shipped)", options: ["--state-dir", dir + "/both"]),
            Case(label: "play log alone", options: ["--no-state", "--play-log", dir + "/log/plays.sqlite"]),
            Case(label: "state alone", options: ["--state-dir", dir + "/state", "--no-play-log"]),
            Case(label: "play log row by row (--play-log-batch 0, before)", options: ["--no-state", "--play-log", dir + "/rows/plays.sqlite",
                                                                                 "--play-log-batch", "0"]),
        ]
        for i in cases.indices {
            for folder in ["both", "log", "state", "rows"] { try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true) }
            let p = Process()
            p.executableURL = URL(fileURLWithPath: kiosk)
            p.arguments = ["play", "--output", "headless", "--size", "1280x720", "--duration", "2", "--log-level", "warn"] + cases[i].options + [pictures]
            p.environment = ProcessInfo.processInfo.environment.merging(["LIBGL_ALWAYS_SOFTWARE": "1"]) { _, new in new }
            p.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try p.run()
            cases[i].process = p
        }
        Thread.sleep(forTimeInterval: 10)
        for i in cases.indices { cases[i].start = writeBytes(cases[i].process) ?? 0 }
        let seconds = minutes * 60
        Thread.sleep(forTimeInterval: seconds)
        var perHour: [Double] = []
        for c in cases {
            let end = writeBytes(c.process) ?? 0
            perHour.append(Double(end - c.start) * 3600 / seconds)
            c.process?.terminate()
            c.process?.waitUntilExit()
        }
        let rows = try rowBytes(dir + "/both/plays.sqlite")
        let day = ISO8601DateFormatter().string(from: Date()).prefix(10)
        print(String(format: "sdwrites: %.1f min of a still every 2 s (1,800 showings an hour), 1280x720 headless, %@; "
                     + "write_bytes per hour (/proc/PID/io):", minutes, String(day)))
        for (c, bytes) in zip(cases, perHour) {
            print(String(format: "sdwrites:   %@: %.2f MiB an hour", c.label, bytes / 1_048_576))
        }
        let showingsPerHour = Double(rows.count) * 3600 / (seconds + 10)
        let rowsPerHour = rows.count > 0 ? rows.bytes / Double(rows.count) * showingsPerHour : 0
        print(String(format: "sdwrites: %.0f showings an hour were shown (the target is for 1,800); the rows themselves: %d rows of %.0f "
                     + "bytes on average, %.2f MiB an hour; as shipped writes %.1f× that (target: at most 2 MiB an hour in all); "
                     + "row by row wrote %.1f× the batches' play log", showingsPerHour, rows.count,
                     rows.count > 0 ? rows.bytes / Double(rows.count) : 0, rowsPerHour / 1_048_576,
                     perHour[0] / max(rowsPerHour, 1), perHour[3] / max(perHour[1], 1)))
    }

    /// The process's `write_bytes` so far; nil once it is gone.
    private static func writeBytes(_ p: Process?) -> Int64? {
        guard let p, let text = try? String(contentsOfFile: "/proc/\(p.processIdentifier)/io", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("write_bytes:") }
        return line.flatMap { Int64($0.dropFirst("write_bytes:".count).trimmingCharacters(in: .whitespaces)) }
    }

    /// How many rows the log at `path` holds, and their values' bytes, as the sqlite3 shell sums them.
    private static func rowBytes(_ path: String) throws -> (count: Int, bytes: Double) {
        let columns = ["start_utc", "end_utc", "heartbeat_utc", "duration", "path", "size", "mtime_utc", "kind", "region",
                       "layout", "element", "reason", "screen_on", "screen_off_ms", "screen", "chain", "chain_seq",
                       "display_state", "display_id", "cec_power", "verdict", "thumb", "chain_v"]
        let sum = columns.map { "COALESCE(length(CAST(\($0) AS BLOB)), 0)" }.joined(separator: " + ")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [path, "SELECT count(*), total(8 + \(sum)) FROM showings"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let f = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|")
        guard f.count == 2, let n = Int(f[0]), let b = Double(f[1]) else { throw BenchError("sdwrites: sqlite3 said '\(text)' of \(path)") }
        return (n, b)
    }
}
