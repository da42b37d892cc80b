import Foundation
import KioskCore
@testable import KioskMedia
import XCTest

/// `FolderWatcher` on real files in a temporary folder: what it reports, and when. Every wait is bounded.
final class FolderWatcherTests: XCTestCase {
    private var watchers: [FolderWatcher] = []

    override func tearDown() {
        for w in watchers { w.stop() }
        watchers.removeAll()
    }

    /// A started watcher of `folder`, once its first report (the initial scan) came.
    private func watch(_ folder: String, known: [String]? = [], settle: Double = 30, log: Log = Log(level: .error),
                       reports: WatchReports = WatchReports()) throws -> (FolderWatcher, WatchReports) {
        let w = try FolderWatcher(folder: folder, known: known, settle: settle, log: log) { reports.add($0) }
        watchers.append(w)
        w.start()
        XCTAssertTrue(reports.waitForCount(1), "the initial scan reports")
        return (w, reports)
    }

    func testTheFirstReportBringsEveryFileInPathOrderOrOnlyWhatDiffersFromTheLoadedOnes() throws {
        let dir = try TempDir()
        Files.mkdir(dir.file("b"))
        for name in ["IMG_10.jpg", "IMG_9.jpg", "b/c.png", ".hidden.jpg", "notes.txt", "d.jpg.part", "e.jpg~"] {
            Files.write(dir.file(name))
        }
        let (_, all) = try watch(dir.path, known: nil)
        XCTAssertEqual(all.all.first, FolderChanges(added: [dir.file("b/c.png"), dir.file("IMG_9.jpg"), dir.file("IMG_10.jpg")]),
                       "media files only (no hidden file, no partial download), in path order")
        for spelling in [dir.path + "/", dir.path + "//", dir.path + "/./b/.."] {
            let (_, same) = try watch(spelling, known: nil)
            XCTAssertEqual(same.all.first?.added, PlaylistLoader(log: Log(level: .error)).folderFiles(spelling),
                           "the paths the playlist loader makes for \(spelling)")
        }
        let (_, diff) = try watch(dir.path, known: [dir.file("IMG_9.jpg"), dir.file("IMG_10.jpg"), dir.file("gone.jpg")], settle: 0.2)
        XCTAssertEqual(diff.all.first, FolderChanges(removed: [dir.file("gone.jpg")]))
        XCTAssertTrue(diff.waitForCount(2), "a file that arrived since the load comes once settled")
        XCTAssertEqual(diff.all.last, FolderChanges(added: [dir.file("b/c.png")]))
    }

    func testASlowCopyIsNotReportedBeforeItIsClosed() throws {
        let dir = try TempDir()
        let (_, reports) = try watch(dir.path, settle: 30)
        let fd = Files.openForWriting(dir.file("slow.jpg"))
        XCTAssertGreaterThanOrEqual(fd, 0)
        Files.append(fd, count: 50_000)
        XCTAssertFalse(reports.waitForCount(2, timeout: 0.8), "half written: not reported")
        Files.append(fd, count: 50_000)
        XCTAssertFalse(reports.waitForCount(2, timeout: 0.3), "written, still open: not reported")
        close(fd)
        XCTAssertTrue(reports.waitForCount(2, timeout: 5), "reported once closed, long before the settle time")
        XCTAssertEqual(reports.all.last, FolderChanges(added: [dir.file("slow.jpg")]))
        // A download under a partial name is reported when it is renamed into place.
        Files.write(dir.file("photo.jpg.part"), bytes: 1000)
        XCTAssertFalse(reports.waitForCount(3, timeout: 0.5))
        Files.move(dir.file("photo.jpg.part"), dir.file("photo.jpg"))
        XCTAssertTrue(reports.waitForCount(3, timeout: 5))
        XCTAssertEqual(reports.all.last, FolderChanges(added: [dir.file("photo.jpg")]))
    }

    /// A writer whose close the kernel never reports (a network share) is emulated by a file kept open: it is
    /// reported once its size and time held still for the settle time, not while it grows.
    func testAFileNeverClosedIsReportedOnceSteadyForTheSettleTime() throws {
        let dir = try TempDir()
        let settle = 0.8
        let (_, reports) = try watch(dir.path, settle: settle)
        let fd = Files.openForWriting(dir.file("share.jpg"))
        defer { close(fd) }
        var lastWrite = Date()
        for _ in 0..<5 {
            Files.append(fd, count: 1000)
            lastWrite = Date()
            XCTAssertFalse(reports.waitForCount(2, timeout: 0.3), "still growing: not reported")
        }
        XCTAssertTrue(reports.waitForCount(2, timeout: settle + 5), "reported once steady")
        let waited = Date().timeIntervalSince(lastWrite)
        XCTAssertGreaterThanOrEqual(waited, settle - 0.05, "not before the settle time")
        XCTAssertEqual(reports.all.last, FolderChanges(added: [dir.file("share.jpg")]))
    }

    func testAddDeleteAndRenameWithinIntoAndOutOfTheFolder() throws {
        let dir = try TempDir()
        let outside = try TempDir()
        Files.write(dir.file("a.jpg"))
        let (_, r) = try watch(dir.path, known: [dir.file("a.jpg")])
        /// Does `change`, then waits for what it brings (in one report, or two when a rename's halves are read
        /// apart).
        func step(_ what: String, _ expected: FolderChanges, line: UInt = #line, _ change: () -> Void) {
            let n = r.all.count
            change()
            let got = { (all: [FolderChanges]) in
                FolderChanges(added: all.dropFirst(n).flatMap(\.added), removed: all.dropFirst(n).flatMap(\.removed))
            }
            XCTAssertTrue(r.wait(5) { got($0) == expected }, "\(what): \(got(r.all))", line: line)
        }
        step("a copy, closed", FolderChanges(added: [dir.file("b.jpg")])) { Files.write(dir.file("b.jpg")) }
        step("renamed within", FolderChanges(added: [dir.file("c.jpg")], removed: [dir.file("a.jpg")])) {
            Files.move(dir.file("a.jpg"), dir.file("c.jpg"))
        }
        step("moved out", FolderChanges(removed: [dir.file("b.jpg")])) { Files.move(dir.file("b.jpg"), outside.file("b.jpg")) }
        step("moved in", FolderChanges(added: [dir.file("b2.jpg")])) { Files.move(outside.file("b.jpg"), dir.file("b2.jpg")) }
        step("renamed to a name that does not play", FolderChanges(removed: [dir.file("c.jpg")])) {
            Files.move(dir.file("c.jpg"), dir.file("c.jpg.bak"))
        }
        step("deleted", FolderChanges(removed: [dir.file("b2.jpg")])) { Files.remove(dir.file("b2.jpg")) }
        step("hidden files do not count", FolderChanges(added: [dir.file("x.jpg")])) {
            Files.write(dir.file(".hidden.jpg"))
            Files.write(dir.file("x.jpg"))
        }
    }

    func testFoldersThatAppearLaterAreWatchedAndFoldersThatGoTakeTheirFiles() throws {
        let dir = try TempDir()
        let outside = try TempDir()
        let (_, r) = try watch(dir.path, settle: 0.3)
        Files.mkdir(dir.file("new/deeper"))
        Files.write(dir.file("new/deeper/a.jpg"))  // may land before the new folder's watch: found by its scan
        XCTAssertTrue(r.wait(5) { $0.flatMap(\.added).contains(dir.file("new/deeper/a.jpg")) })
        Files.write(dir.file("new/deeper/b.jpg"))
        XCTAssertTrue(r.wait(5) { $0.flatMap(\.added).contains(dir.file("new/deeper/b.jpg")) }, "the new folder is watched")
        Files.mkdir(outside.file("album"))
        for name in ["1.jpg", "2.jpg", "3.png"] { Files.write(outside.file("album/" + name)) }
        var n = r.all.count
        Files.move(outside.file("album"), dir.file("album"))
        XCTAssertTrue(r.waitForCount(n + 1, timeout: 5))
        XCTAssertEqual(r.all.last, FolderChanges(added: ["1.jpg", "2.jpg", "3.png"].map { dir.file("album/" + $0) }),
                       "a folder moved in brings its files at once")
        n = r.all.count
        Files.move(dir.file("album"), dir.file("album2"))
        XCTAssertTrue(r.waitForCount(n + 1, timeout: 5))
        XCTAssertEqual(Set(r.removed(from: n)), Set(["1.jpg", "2.jpg", "3.png"].map { dir.file("album/" + $0) }))
        XCTAssertEqual(Set(r.added(from: n)), Set(["1.jpg", "2.jpg", "3.png"].map { dir.file("album2/" + $0) }))
        n = r.all.count
        Files.remove(dir.file("new"))
        XCTAssertTrue(r.wait(5) { Set($0.dropFirst(n).flatMap(\.removed)).count == 2 })
        XCTAssertEqual(Set(r.removed(from: n)), [dir.file("new/deeper/a.jpg"), dir.file("new/deeper/b.jpg")])
        n = r.all.count
        Files.write(dir.file("album2/4.jpg"))
        XCTAssertTrue(r.waitForCount(n + 1, timeout: 5), "a folder renamed within is still watched")
        XCTAssertEqual(r.all.last, FolderChanges(added: [dir.file("album2/4.jpg")]))
    }

    func testAFolderThatGoesLosesItsFilesWithOneLineAndTheyComeBackWithIt() throws {
        let parent = try TempDir()
        let folder = parent.file("photos")
        Files.mkdir(folder + "/sub")
        let files = [folder + "/a.jpg", folder + "/sub/b.jpg"]
        for f in files { Files.write(f) }
        let lines = LogLines()
        let (_, r) = try watch(folder, known: files, settle: 0.2, log: lines.log)
        Files.remove(folder)
        XCTAssertTrue(r.wait(5) { Set($0.flatMap(\.removed)) == Set(files) }, "\(r.all)")
        XCTAssertTrue(r.wait(2) { _ in lines.matching("folder deleted").count == 1 })
        Files.mkdir(folder)
        Files.write(folder + "/c.jpg")
        let back = FolderWatcher.lookForGoneFolder + 0.2 + 5
        XCTAssertTrue(r.wait(back) { $0.flatMap(\.added) == [folder + "/c.jpg"] }, "\(r.all)")
        XCTAssertEqual(lines.matching("folder deleted").count, 1, "one line for the folder going")
        XCTAssertEqual(lines.matching("folder is back").count, 1)
        Files.write(folder + "/d.jpg")
        XCTAssertTrue(r.wait(5) { $0.last?.added == [folder + "/d.jpg"] }, "watched again")
    }

    /// A USB stick mounted inside the watched folder, then pulled (a tmpfs mounted on a subfolder, unmounted)
    /// and plugged in again: its files leave with one line and come back when something is mounted there again.
    /// Needs mount(8) as root (the test machines run the tests as root); it fails rather than skips without it.
    func testASubfolderThatIsUnmountedLosesItsFilesAndTheyComeBackWhenMountedAgain() throws {
        let parent = try TempDir()
        let folder = parent.file("photos")
        let stick = folder + "/usb"
        Files.mkdir(stick)
        Files.write(folder + "/a.jpg")
        func mount() throws {
            let m = try BoundedProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", stick], timeout: 10)
            XCTAssertEqual(m.status, 0, "mount a tmpfs (root is needed): \(String(decoding: m.stderr, as: UTF8.self))")
        }
        func unmount() throws {
            let u = try BoundedProcess.run("/bin/umount", [stick], timeout: 10)
            XCTAssertEqual(u.status, 0, String(decoding: u.stderr, as: UTF8.self))
        }
        try mount()
        defer { _ = try? BoundedProcess.run("/bin/umount", [stick], timeout: 10) }
        Files.write(stick + "/b.jpg")
        let lines = LogLines()
        let (_, r) = try watch(folder, known: [folder + "/a.jpg", stick + "/b.jpg"], settle: 0.2, log: lines.log)
        try unmount()
        XCTAssertTrue(r.wait(5) { $0.flatMap(\.removed) == [stick + "/b.jpg"] }, "\(r.all)")
        XCTAssertTrue(r.wait(2) { _ in lines.matching("usb unmounted").count == 1 }, "\(lines.matching(""))")
        try mount()
        Files.write(stick + "/c.jpg")
        let back = FolderWatcher.lookForGoneFolder + 0.2 + 5
        XCTAssertTrue(r.wait(back) { $0.flatMap(\.added) == [stick + "/c.jpg"] }, "\(r.all)")
        XCTAssertEqual(lines.matching("usb is back").count, 1, "\(lines.matching(""))")
        Files.write(stick + "/d.jpg")
        XCTAssertTrue(r.wait(5) { $0.last?.added == [stick + "/d.jpg"] }, "the new mount is watched")
        XCTAssertFalse(r.all.flatMap(\.removed).contains(folder + "/a.jpg"), "the rest of the folder stays")
    }

    func testAnOverflowRescansAndReportsOnlyWhatChanged() throws {
        let dir = try TempDir()
        Files.write(dir.file("a.jpg"))
        let lines = LogLines()
        let (w, r) = try watch(dir.path, known: [dir.file("a.jpg")], settle: 0.2, log: lines.log)
        Files.write(dir.file("b.jpg"))
        XCTAssertTrue(r.waitForCount(2, timeout: 5))
        w.inject(InotifyEvent(wd: -1, mask: UInt32(IN_Q_OVERFLOW)).bytes)
        XCTAssertTrue(r.wait(5) { _ in lines.matching("overflowed").count == 1 })
        XCTAssertFalse(r.waitForCount(3, timeout: 0.6), "nothing changed, nothing reported: \(r.all)")
        Files.remove(dir.file("a.jpg"))
        XCTAssertTrue(r.waitForCount(3, timeout: 5), "still watching after the rescan")
        XCTAssertEqual(r.all.last, FolderChanges(removed: [dir.file("a.jpg")]))
    }

    /// A real overflow: an inotify queue of 16 events (the limit applies to instances made while it is set),
    /// and a watcher held in its first report while 200 files arrive.
    func testARealOverflowOfTheKernelsQueueLeadsToARescanThatFindsEveryFile() throws {
        let limitFile = "/proc/sys/fs/inotify/max_queued_events"
        guard let old = try? String(contentsOfFile: limitFile, encoding: .utf8),
              FileManager.default.isWritableFile(atPath: limitFile) else {
            throw XCTSkip("\(limitFile) is not writable here (needs root): the injected overflow test covers the rescan")
        }
        let dir = try TempDir()
        let outside = try TempDir()
        let lines = LogLines()
        let reports = WatchReports()
        let release = DispatchSemaphore(value: 0)
        let inFirstReport = DispatchSemaphore(value: 0)
        reports.onReport = { n in
            guard n == 0 else { return }
            inFirstReport.signal()
            _ = release.wait(timeout: .now() + 20)
        }
        let w: FolderWatcher
        do {
            try "16".write(toFile: limitFile, atomically: false, encoding: .utf8)
            defer { try? old.write(toFile: limitFile, atomically: false, encoding: .utf8) }
            w = try FolderWatcher(folder: dir.path, known: [], settle: 0.2, log: lines.log) { reports.add($0) }
        }
        watchers.append(w)
        w.start()
        // The watcher is held in its first report, reading nothing, while the kernel's queue overflows.
        XCTAssertEqual(inFirstReport.wait(timeout: .now() + 20), .success, "the first report")
        let names = (0..<200).map { "f\($0).jpg" }
        for name in names {
            Files.write(outside.file(name))
            Files.move(outside.file(name), dir.file(name))
        }
        release.signal()
        XCTAssertTrue(reports.wait(10) { Set($0.flatMap(\.added)) == Set(names.map(dir.file)) }, "\(reports.all.count) reports")
        XCTAssertEqual(lines.matching("overflowed").count, 1)
    }

    func testEventsAreReadFromTheKernelsVariableLengthRecords() {
        let events = [InotifyEvent(wd: 3, mask: UInt32(IN_CREATE), name: "a.jpg"),
                      InotifyEvent(wd: 4, mask: UInt32(IN_DELETE_SELF)),
                      InotifyEvent(wd: 3, mask: UInt32(IN_MOVED_TO), cookie: 9, name: "abc"),
                      InotifyEvent(wd: -1, mask: UInt32(IN_Q_OVERFLOW))]
        var bytes = events.flatMap(\.bytes)
        XCTAssertEqual(events[0].bytes.count, 16 + 8, "the name is NUL-padded")
        XCTAssertEqual(events[2].bytes.count, 16 + 4, "a name of 3 gets its NUL within 4")
        bytes += InotifyEvent(wd: 5, mask: 1, name: "cut.jpg").bytes.prefix(20)  // a truncated record is dropped
        XCTAssertEqual(bytes.withUnsafeBytes { InotifyEvent.parse($0) }, events)
    }

    func testSettleQueueWaitsForSizeAndTimeToHoldStill() {
        var q = SettleQueue(settle: 2)
        var look = SettleQueue.Look(size: 10, modified: 1, modifiedNanoseconds: 0)
        q.add("a", look: look, now: 0)
        q.add("gone", look: look, now: 0)
        XCTAssertEqual(q.ready(now: 0.5) { $0 == "a" ? look : nil }, [])
        XCTAssertFalse(q.contains("gone"), "a file that went stops waiting")
        look.size = 20
        XCTAssertEqual(q.ready(now: 1.5) { _ in look }, [], "it grew: the wait starts again")
        XCTAssertEqual(q.ready(now: 3.0) { _ in look }, [])
        XCTAssertEqual(q.nextLook ?? 0, 3.5, accuracy: 1e-9)
        XCTAssertEqual(q.ready(now: 3.5) { _ in look }, ["a"])
        XCTAssertEqual(q.count, 0)
    }
}
