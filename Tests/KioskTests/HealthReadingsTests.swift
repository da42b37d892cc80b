import Foundation
import KioskCore
import KioskPlayer
import XCTest

/// The machine's health readings against a fake sysfs/procfs tree (a temp folder standing for `/`): thermal zones
/// with their types in number order, the Raspberry Pi firmware's throttling bits, CPU use since boot and then since
/// the last round, memory, uptime; free space against `df` on a real folder; late and dropped frames over an hour.
final class HealthReadingsTests: XCTestCase {
    private let time = WallInstant(clamping: Date(timeIntervalSince1970: 1_800_000_000))

    /// Writes `text` at `path` under `root`, making its folders.
    private func put(_ root: TempDir, _ path: String, _ text: String) throws {
        let full = root.file(path)
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    /// A process stat line: utime, stime (fields 14, 15) and starttime (22), with a command name holding `) (`.
    private func processStat(user: Int, system: Int, start: Int) -> String {
        // fields 3…22 after the name: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime
        // stime cutime cstime priority nice threads itrealvalue starttime
        "4242 (kiosk (a) b) S 1 4242 4242 0 -1 4194560 100 0 0 0 \(user) \(system) 0 0 20 0 5 0 \(start) 123456 789\n"
    }

    private func fakeTree() throws -> TempDir {
        let root = try TempDir()
        try put(root, "sys/class/thermal/thermal_zone0/temp", "45123\n")
        try put(root, "sys/class/thermal/thermal_zone0/type", "cpu-thermal\n")
        try put(root, "sys/class/thermal/thermal_zone10/temp", "-5000\n")
        try put(root, "sys/class/thermal/thermal_zone10/type", "outside\n")
        try put(root, "sys/class/thermal/thermal_zone2/temp", "38000\n")
        try put(root, "sys/class/thermal/thermal_zone2/type", "gpu-thermal\n")
        try put(root, "sys/class/thermal/cooling_device0/type", "fan\n")  // not a zone
        try put(root, "proc/stat", "cpu  100 0 100 700 100 0 0 0 0 0\ncpu0 50 0 50 350 50 0 0 0 0 0\ncpu1 50 0 50 350 50 0 0 0 0 0\nintr 1 2 3\n")
        try put(root, "proc/self/stat", processStat(user: 50, system: 25, start: 1000))
        try put(root, "proc/self/status", "Name:\tkiosk\nVmRSS:\t    2048 kB\nThreads:\t5\n")
        try put(root, "proc/meminfo", "MemTotal:        8000 kB\nMemFree:         1000 kB\nMemAvailable:    4000 kB\n")
        try put(root, "proc/uptime", "100.50 190.00\n")
        return root
    }

    func testReadingsFromAFakeTree() throws {
        let root = try fakeTree()
        let readings = MachineReadings(root: root.path)
        let first = readings.read(at: time)
        let temperatures = first.filter { $0.name == "temperature" }
        XCTAssertEqual(temperatures.map(\.subject), ["thermal_zone0 cpu-thermal", "thermal_zone2 gpu-thermal", "thermal_zone10 outside"])
        XCTAssertEqual(temperatures.map(\.value), [45.123, 38, -5])
        XCTAssertTrue(temperatures.allSatisfy { $0.unit == "°C" && $0.time == time })
        XCTAssertNil(first.first { $0.name == "throttling" }, "no firmware file: not reported")
        // the first round: the system's CPU since boot (idle + iowait 800 of 1000 ticks), the process's since it started
        XCTAssertEqual(value(first, "cpu-system"), 20)
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        XCTAssertEqual(value(first, "cpu-process") ?? -1, ((75 / hz) / (100.5 - 1000 / hz) * 1000).rounded() / 10, accuracy: 0.05)
        XCTAssertEqual(value(first, "memory-process"), 2048 * 1024)
        XCTAssertEqual(value(first, "memory-available"), 4000 * 1024)
        XCTAssertEqual(value(first, "memory-total"), 8000 * 1024)
        XCTAssertEqual(value(first, "uptime-system"), 100.5)
        XCTAssertEqual(value(first, "uptime-process"), (100.5 - 1000 / hz).rounded())
        XCTAssertEqual(first.first { $0.name == "memory-process" }?.unit, "bytes")
        XCTAssertEqual(first.first { $0.name == "cpu-system" }?.unit, "%")

        // the next round: since the last one (1000 ticks on two CPUs, 600 idle; the process 100 ticks)
        try put(root, "proc/stat", "cpu  400 0 200 1200 200 0 0 0 0 0\ncpu0 1\ncpu1 1\n")
        try put(root, "proc/self/stat", processStat(user: 150, system: 25, start: 1000))
        try put(root, "sys/devices/platform/soc/soc:firmware/get_throttled", "50005\n")
        let second = readings.read(at: time)
        XCTAssertEqual(value(second, "cpu-system"), 40)
        XCTAssertEqual(value(second, "cpu-process"), 20, "100 of 1000 ticks over 2 CPUs: a fifth of one CPU")
        XCTAssertEqual(second.first { $0.name == "throttling" }?.text, "under-voltage,throttled,under-voltage-occurred,throttled-occurred")
        XCTAssertEqual(value(second, "throttled-bits"), Double(0x50005))
    }

    func testNoThermalZonesIsSaidAndEmptyTreesGiveNoNumbers() throws {
        let root = try TempDir()
        let out = MachineReadings(root: root.path).read(at: time)
        XCTAssertEqual(out.map(\.name), ["temperature"])
        XCTAssertEqual(out.first?.text, "not reported: no thermal zones in /sys/class/thermal")
    }

    func testThrottlingWordsAsTheFirmwareAndVcgencmdWriteThem() {
        XCTAssertEqual(ProcText.throttled("0x0\n"), 0)
        XCTAssertEqual(ProcText.throttled("throttled=0x50000"), 0x50000)
        XCTAssertEqual(ProcText.throttled("8"), 8)
        XCTAssertNil(ProcText.throttled("hot"))
        XCTAssertEqual(ProcText.throttlingFlags(0), "ok")
        XCTAssertEqual(ProcText.throttlingFlags(0x80008), "soft-temp-limit,soft-temp-limit-occurred")
    }

    func testFreeSpaceAgreesWithDf() throws {
        let dir = try TempDir()
        let r = try BoundedProcess.run("/usr/bin/df", ["--output=avail", "-B1", dir.path], timeout: 30)
        let lines = String(decoding: r.stdout, as: UTF8.self).split(separator: "\n")
        let reference = try XCTUnwrap(lines.last.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }, "df said \(lines)")
        let out = MachineReadings.freeSpace([("cache", dir.path), ("later", dir.file("not/made/yet")), ("file", "/etc/hostname/x")], at: time)
        let free = try XCTUnwrap(out.first { $0.name == "free-space" && $0.subject == "cache \(dir.path)" }?.value)
        // other programs write to the same disk between the two reads
        XCTAssertEqual(free, reference, accuracy: max(64 * 1_048_576, reference * 0.01))
        XCTAssertEqual(out.first { $0.name == "free-space" }?.unit, "bytes")
        let share = try XCTUnwrap(out.first { $0.name == "free-space-share" && $0.subject == "cache \(dir.path)" }?.value)
        XCTAssertTrue((0...100).contains(share), "\(share)")
        let later = try XCTUnwrap(out.first { $0.name == "free-space" && $0.subject == "later \(dir.file("not/made/yet"))" }?.value,
                                  "a folder not made yet is read on its parent's file system")
        XCTAssertEqual(later, reference, accuracy: max(64 * 1_048_576, reference * 0.01))
        XCTAssertEqual(out.first { $0.name == "free-space" && $0.subject == "file /etc/hostname/x" }?.text, "unreadable: Not a directory")
    }

    func testLateAndDroppedFramesOverTheLastHour() {
        let timing = FrameTiming()
        let interval = 1.0 / 60
        timing.flipped(committed: 10, shown: 10 + interval * 0.9, interval: interval)  // on time
        timing.flipped(committed: 20, shown: 20 + interval * 2.2, interval: interval)  // missed a vblank
        timing.droppedFrame(at: 30)
        timing.droppedFrame(at: 1900)
        XCTAssertEqual(timing.lastHour(now: 2000).late, 1)
        XCTAssertEqual(timing.lastHour(now: 2000).dropped, 2)
        XCTAssertEqual(timing.lastHour(now: 2000).flips, 2)
        XCTAssertEqual(timing.lastHour(now: 3700).dropped, 1, "the frame dropped at 30 s is over an hour before 3700 s")
        XCTAssertEqual(timing.lastHour(now: 3700).late, 0)
        timing.droppedFrame(at: 3630)  // the bucket of 30 s, an hour on: it starts again
        XCTAssertEqual(timing.lastHour(now: 3700).dropped, 2)
    }

    func testReportJSONKeepsUnitsTimesAndWholeNumbers() {
        let report = HealthReport(time: time, readings: [HealthReading("free-space", subject: "cache /x", value: 1024, unit: "bytes", time: time),
                                                         HealthReading("cpu-system", value: 12.5, unit: "%", time: time)],
                                  displays: [DisplayHealth(screen: "main", connector: "headless", state: "none", note: "no display", time: time)])
        XCTAssertEqual(report.json.text, #"{"time":"2027-01-15T08:00:00Z","readings":[{"name":"free-space","subject":"cache /x","value":1024,"unit":"bytes","time":"2027-01-15T08:00:00Z"},{"name":"cpu-system","value":12.500000,"unit":"%","time":"2027-01-15T08:00:00Z"}],"displays":[{"screen":"main","connector":"headless","state":"none","note":"no display","time":"2027-01-15T08:00:00Z"}],"alerts":[]}"#)
    }

    private func value(_ readings: [HealthReading], _ name: String) -> Double? {
        readings.first { $0.name == name }?.value
    }
}
