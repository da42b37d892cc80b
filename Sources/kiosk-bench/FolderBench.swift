import Foundation
import KioskCore
import KioskMedia

/// `kiosk-bench folder [COUNT]`: a folder of COUNT (default 100,000) empty `.jpg` files, 100 to a folder, 10
/// folders to a parent, watched from scratch in a child process (so peak RSS is the watcher's own): prints the
/// initial scan's time (every folder watched and listed, every file sorted and reported) and peak RSS, then how
/// long one new file takes to be reported, which should not depend on the folder's size.
enum FolderBench {
    static func run(count: Int) throws {
        let dir = NSTemporaryDirectory() + "kiosk-bench-folder-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let made = MonotonicClock.seconds()
        let folders = try makeFiles(count, in: dir)
        let makeSeconds = MonotonicClock.seconds() - made
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: me)
        p.arguments = ["folder-child", dir, "\(count)"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let line = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw BenchError("folder-child exited \(p.terminationStatus)") }
        print(String(format: "folder of %d files in %d folders (made in %.1f s): %@", count, folders, makeSeconds,
                     line.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// Child: watches `dir`, which holds `count` files; prints one line of figures.
    static func child(_ dir: String, count: Int) throws {
        let before = Bench.peakRSSMiB()
        let reports = Reports()
        let watcher = try FolderWatcher(folder: dir, known: nil, settle: 2, log: Log(level: .warn)) { reports.add($0) }
        let start = MonotonicClock.seconds()
        watcher.start()
        guard let first = reports.wait(for: 1, timeout: 60) else { throw BenchError("no initial report in 60 s") }
        let scan = MonotonicClock.seconds() - start
        guard first.added.count == count else { throw BenchError("the scan found \(first.added.count) of \(count) files") }
        let peak = Bench.peakRSSMiB()
        let one = dir + "/a0/b0/new.jpg"
        let written = MonotonicClock.seconds()
        close(open(one, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644))
        guard reports.wait(for: 2, timeout: 10)?.added == [one] else { throw BenchError("the new file was not reported") }
        let change = MonotonicClock.seconds() - written
        watcher.stop()
        print(String(format: "initial scan %.0f ms, peak RSS %.1f MiB (%.1f MiB before the scan); one new file reported in %.1f ms",
                     scan * 1000, peak, before, change * 1000))
        print("  " + playerSide(first.added, new: one))
    }

    /// The player's side of the same folder: the slideshow taking the stream in batches (as `FolderSource` sends
    /// them), then one file arriving, one leaving, and the whole folder going, each timed.
    private static func playerSide(_ paths: [String], new: String) -> String {
        let show = Slideshow(items: [], options: SlideshowOptions())
        var status = show.playlist.snapshot  // held, as the player's board holds the last status
        func timed(_ command: PlayerCommand) -> Double {
            let t0 = MonotonicClock.seconds()
            _ = show.apply(command, at: 0)
            status = show.playlist.snapshot  // the status the player posts after the change
            return (MonotonicClock.seconds() - t0) * 1000
        }
        var batches: [Double] = []
        var size = 1000, at = 0
        while at < paths.count {
            let batch = paths[at..<min(paths.count, at + size)].map { PlaylistItem(path: $0) }
            batches.append(timed(.load(batch, .sorted)))
            at += size
            size *= 2
        }
        let add = timed(.load([PlaylistItem(path: new)], .sorted))
        let remove = timed(.removeMany([.path(new)]))
        let all = timed(.removeMany(paths.map { .path($0) }))
        _ = status
        return String(format: "player (slideshow and status): stream in %d sorted loads, the largest %.0f ms, %.0f ms in all; one file in %.2f ms, one out %.2f ms; the folder gone (one removeMany) %.0f ms",
                      batches.count, batches.max() ?? 0, batches.reduce(0, +), add, remove, all)
    }

    /// `count` empty files, 100 to a folder and 10 folders to a parent; returns the number of folders.
    private static func makeFiles(_ count: Int, in dir: String) throws -> Int {
        var folders = Set<String>()
        for i in 0..<count {
            let leaf = i / 100
            let folder = "\(dir)/a\(leaf / 10)/b\(leaf)"
            if folders.insert(folder).inserted {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            let fd = open("\(folder)/IMG_\(i).jpg", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw BenchError("cannot create files in \(folder)") }
            close(fd)
        }
        return folders.count + Set(folders.map { ($0 as NSString).deletingLastPathComponent }).count + 1
    }
}

/// Reports from the watcher's thread, waited for here.
private final class Reports: @unchecked Sendable {
    private let condition = NSCondition()
    private var all: [FolderChanges] = []

    func add(_ c: FolderChanges) {
        condition.lock()
        all.append(c)
        condition.broadcast()
        condition.unlock()
    }

    /// The `n`th report, once it came (nil after `timeout` seconds).
    func wait(for n: Int, timeout: Double) -> FolderChanges? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while all.count < n, condition.wait(until: deadline) {}
        return all.count >= n ? all[n - 1] : nil
    }
}
