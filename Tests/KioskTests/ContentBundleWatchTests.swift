import Foundation
import KioskCore
import KioskFetch
import XCTest

/// `BundleWatch`: a bundle appearing in a watched folder, or on a stick mounted under /media, /run/media or /mnt, is
/// handed over once it has settled, once per appearance or change.
///
/// The mount-table mode is tested honestly but not end to end: mounting a real stick needs root and a block device,
/// so the test feeds the watch a mountinfo file of its own (in proc(5)'s format, with the kernel's `\040` escape for
/// a space) and temporary folders as the roots, and plays the plug-in and pull-out by adding and removing its line.
/// The reader itself also reads this process's real /proc/self/mountinfo.
final class ContentBundleWatchTests: XCTestCase {
    /// The folders handed over, in order.
    private final class Handed: @unchecked Sendable {
        private let lock = NSLock()
        private var folders: [String] = []
        func add(_ folder: String) { lock.lock(); folders.append(folder); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return folders }
    }

    /// A bundle (unsigned: the watch only looks for one; the import checks it) in `stick`.
    private func putBundle(in stick: String, picture: String = "testsrc") throws -> StickBundle {
        let bundle = try StickBundle(stick)
        try ContentFixtures.picture(bundle.file("media/a.png"), pattern: picture)
        try bundle.writeIndex([StickBundle.Entry(src: "media/a.png")])
        return bundle
    }

    func testAFolderWatchHandsOverABundleThatAppearsOrChanges() throws {
        let dir = try TempDir()
        let watched = dir.file("watched")
        let handed = Handed(), lines = LogLines()
        let watch = try BundleWatch(spec: watched, log: lines.log) { handed.add($0) }
        XCTAssertEqual(watch.source, .folder(watched))
        XCTAssertEqual(watch.interval, 2)
        watch.poll()
        watch.poll()
        XCTAssertEqual(handed.all, [], "no folder yet")
        let bundle = try putBundle(in: watched)
        watch.poll()
        XCTAssertEqual(handed.all, [], "not handed before it settles for a poll")
        watch.poll()
        XCTAssertEqual(handed.all, [watched])
        XCTAssertEqual(lines.matching("content bundle: \(watched): a bundle (\(bundle.index)); importing it").count, 1)
        watch.poll()
        watch.poll()
        XCTAssertEqual(handed.all, [watched], "an unchanged bundle is handed once")
        // a new index (a new signature copied last): handed again once settled
        try bundle.writeIndex([StickBundle.Entry(src: "media/a.png"), StickBundle.Entry(src: "media/a.png")])
        try ContentFixtures.write("untrusted comment: x\n", to: bundle.signature)
        watch.poll()
        watch.poll()
        XCTAssertEqual(handed.all, [watched, watched])
        // taken away and put back: handed again
        try FileManager.default.removeItem(atPath: bundle.folder)
        watch.poll()
        _ = try putBundle(in: watched)
        watch.poll()
        watch.poll()
        XCTAssertEqual(handed.all, [watched, watched, watched])
        XCTAssertThrowsError(try BundleWatch(spec: " ", log: lines.log) { _ in })
    }

    func testTheWatchThreadHandsOverAFolderThatAppearsAndStops() throws {
        let dir = try TempDir()
        let watched = dir.file("stick")
        let handed = Handed(), lines = LogLines()
        let watch = BundleWatch(source: .folder(watched), interval: 0.05, log: lines.log) { handed.add($0) }
        watch.start()
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(handed.all, [])
        // the bundle in the stick's root this time (no kiosk/ subfolder)
        try FileManager.default.createDirectory(atPath: watched, withIntermediateDirectories: true)
        try ContentFixtures.write(StickBundle.smil([]), to: watched + "/index.smil")
        XCTAssertTrue(eventually(10) { handed.all == [watched] }, "\(handed.all)")
        watch.stop()
        let after = handed.all
        try ContentFixtures.write(StickBundle.smil([], url: nil), to: watched + "/index.smil")
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(handed.all, after, "nothing is handed over after stop")
    }

    func testTheMountTableWatchHandsOverAStickMountedUnderTheRoots() throws {
        let dir = try TempDir()
        let table = dir.file("mountinfo")
        let roots = [dir.file("media"), dir.file("mnt")]
        let stick = dir.file("media/usb stick")
        let elsewhere = dir.file("srv/stick")
        let empty = dir.file("mnt/data")
        _ = try putBundle(in: stick)
        _ = try putBundle(in: elsewhere, picture: "mandelbrot")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        func line(_ id: Int, _ point: String) -> String {
            "\(id) 1 8:\(id) / \(point.replacingOccurrences(of: " ", with: "\\040")) rw,nosuid,nodev,relatime shared:\(id) - vfat /dev/sd\(id) rw\n"
        }
        let base = "1 0 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n" + line(20, elsewhere) + line(21, empty)
        try ContentFixtures.write(base, to: table)
        let handed = Handed(), lines = LogLines()
        let watch = BundleWatch(source: .mounts(table: table, roots: roots), interval: 0.05, log: lines.log) { handed.add($0) }
        watch.poll()
        watch.poll()
        XCTAssertEqual(handed.all, [], "a mount outside the roots, and one without a bundle, are not handed over")
        // the stick plugged in: its line appears
        try ContentFixtures.write(base + line(22, stick), to: table)
        XCTAssertEqual(MountTable.mountPoints(in: table, under: roots), [empty, stick])
        watch.poll()
        watch.poll()
        XCTAssertEqual(handed.all, [stick])
        watch.poll()
        XCTAssertEqual(handed.all, [stick])
        // pulled out and plugged in again
        try ContentFixtures.write(base, to: table)
        watch.poll()
        try ContentFixtures.write(base + line(23, stick), to: table)
        watch.poll()
        watch.poll()
        XCTAssertEqual(handed.all, [stick, stick])
        // an unreadable table: one line, then nothing
        try FileManager.default.removeItem(atPath: table)
        watch.poll()
        watch.poll()
        XCTAssertEqual(lines.matching("cannot read the mount table \(table)").count, 1)
        // auto is this kind of watch over /proc/self/mountinfo and the usual roots, and that table reads
        let auto = try BundleWatch(spec: "auto", log: lines.log) { _ in }
        XCTAssertEqual(auto.source, .mounts(table: "/proc/self/mountinfo", roots: ["/media", "/run/media", "/mnt"]))
        XCTAssertEqual(MountTable.mountPoints(under: ["/"])?.contains("/"), true)
    }
}
