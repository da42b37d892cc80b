import Foundation
import KioskCore
@testable import KioskMedia
import XCTest

/// The thumbnail store's memory and disk caches, cancellation and failures, on real files made with ffmpeg.
final class ThumbnailCacheTests: XCTestCase {
    /// Log lines written during a test.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ l: String) { lock.lock(); lines.append(l); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    let side = 96

    func makeStore(_ disk: ThumbnailDiskCache?, memory: Int = 64 << 20, log: Log = Log(level: .error)) -> ThumbnailStore {
        ThumbnailStore(side: side, memoryBudget: memory, disk: disk, timeout: 20, limits: .standard, log: log, onReady: {})
    }

    /// A JPEG, a PNG, a clip and a GIF.
    func media(_ dir: TempDir) throws -> [String] {
        let files = [dir.file("a.jpg"), dir.file("b.png"), dir.file("c.mp4"), dir.file("d.gif")]
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=640x480", "-frames:v", "1", files[0]])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "mandelbrot=s=300x400", "-frames:v", "1", files[1]])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=2", "-c:v", "libx264", "-pix_fmt", "yuv420p", files[2]])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc=s=200x150:r=10", "-frames:v", "3", files[3]])
        return files
    }

    /// Every path's tile from `store`, waiting for them.
    func tiles(_ store: ThumbnailStore, _ paths: [String]) -> [Thumbnail]? {
        store.want(paths.map { ThumbnailRequest(path: $0) })
        guard eventually(60, { paths.allSatisfy { store.thumbnail(for: ThumbnailRequest(path: $0)) != nil } }) else { return nil }
        return paths.compactMap { store.thumbnail(for: ThumbnailRequest(path: $0)) }
    }

    /// Bytes of the entry files in `folder`.
    func folderBytes(_ folder: String) -> Int {
        (FileAccess.names(in: folder) ?? []).filter { $0.name.hasSuffix(".thumb") }
            .reduce(0) { $0 + (FileAccess.size(folder + "/" + $1.name) ?? 0) }
    }

    func testSecondStoreServesEveryTileFromDiskAndAChangedFileIsDecodedAgain() throws {
        let dir = try TempDir()
        let files = try media(dir)
        let folder = dir.file("cache")
        let first = makeStore(ThumbnailDiskCache(folder: folder, log: Log(level: .error)))
        let made = try XCTUnwrap(tiles(first, files), "tiles from decoding")
        first.stop()
        XCTAssertEqual(first.stats.decoded, files.count)
        XCTAssertEqual(first.stats.diskHits, 0)
        XCTAssertEqual(FileAccess.status(folder).map { $0.st_mode & 0o777 }, 0o700, "a private folder")

        let second = makeStore(ThumbnailDiskCache(folder: folder, log: Log(level: .error)))
        let kept = try XCTUnwrap(tiles(second, files), "tiles from disk")
        second.stop()
        XCTAssertEqual(second.stats.decoded, 0, "nothing decoded again")
        XCTAssertEqual(second.stats.diskHits, files.count)
        for (a, b) in zip(made, kept) {
            XCTAssertEqual(a.facts, b.facts)
            XCTAssertGreaterThan(ImageCompare.psnr(a.image, b.image), 30, "JPEG entry close to the decoded tile")
        }
        XCTAssertEqual(second.facts(for: files[2])?.kind, .video)

        // Rewrite the JPEG with other content (and a later mtime): its entry is stale.
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "mandelbrot=s=640x480", "-frames:v", "1", files[0]])
        var later = [timeval(tv_sec: time(nil) + 5, tv_usec: 0), timeval(tv_sec: time(nil) + 5, tv_usec: 0)]
        XCTAssertEqual(utimes(files[0], &later), 0)
        let third = makeStore(ThumbnailDiskCache(folder: folder, log: Log(level: .error)))
        let again = try XCTUnwrap(tiles(third, files))
        third.stop()
        XCTAssertEqual(third.stats.decoded, 1, "only the changed file")
        XCTAssertEqual(third.stats.diskHits, files.count - 1)
        XCTAssertLessThan(ImageCompare.psnr(again[0].image, made[0].image), 20, "the new picture, not the old entry")
    }

    func testOverBudgetEvictsTheLeastRecentlyUsedEntries() throws {
        let dir = try TempDir()
        var seed: UInt64 = 42
        func noise() -> Thumbnail {
            var p = [UInt8](repeating: 255, count: 64 * 64 * 4)
            for i in 0..<p.count where i % 4 != 3 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                p[i] = UInt8(truncatingIfNeeded: seed >> 33)
            }
            return Thumbnail(image: RGBAImage(size: PixelSize(width: 64, height: 64), pixels: p), facts: TileFacts(kind: .image))
        }
        let sources = try (0..<8).map { i -> String in
            let path = dir.file("src\(i).jpg")
            try Data("item \(i)".utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let probe = ThumbnailDiskCache(folder: dir.file("probe"), budget: 1 << 30, log: Log(level: .error))
        probe.store(noise(), path: sources[7], side: 64)
        let entry = probe.totalBytes
        XCTAssertGreaterThan(entry, 4096)

        let folder = dir.file("cache")
        let budget = entry * 13 / 2
        let cache = ThumbnailDiskCache(folder: folder, budget: budget, log: Log(level: .error))
        for i in 0...5 { cache.store(noise(), path: sources[i], side: 64) }
        XCTAssertEqual(cache.totalBytes, folderBytes(folder))
        XCTAssertNotNil(cache.load(path: sources[0], side: 64), "entry 0 used: now the most recent")
        cache.store(noise(), path: sources[6], side: 64)  // over budget: down to 90 %
        XCTAssertLessThanOrEqual(folderBytes(folder), budget)
        XCTAssertLessThanOrEqual(folderBytes(folder), budget * 9 / 10)
        XCTAssertEqual(cache.totalBytes, folderBytes(folder))
        XCTAssertNil(cache.load(path: sources[1], side: 64), "least recently used went first")
        XCTAssertNil(cache.load(path: sources[2], side: 64))
        XCTAssertNotNil(cache.load(path: sources[0], side: 64), "a recent use kept it")
        XCTAssertNotNil(cache.load(path: sources[6], side: 64))
        XCTAssertNil(cache.load(path: sources[6], side: 65), "another side is another entry")
        XCTAssertEqual(ThumbnailDiskCache(folder: folder, budget: budget, log: Log(level: .error)).totalBytes,
                       folderBytes(folder), "the total is learnt from the folder")
    }

    func testUnwritableFolderWarnsOnceAndStillServesTiles() throws {
        let dir = try TempDir()
        let files = try media(dir)
        let lines = Lines()
        let log = Log(level: .warn, sink: { lines.add($0) })
        let disk = ThumbnailDiskCache(folder: files[0] + "/thumbs", log: log)  // under a file: ENOTDIR, even as root
        XCTAssertFalse(disk.isEnabled)
        let store = makeStore(disk, log: log)
        defer { store.stop() }
        XCTAssertNotNil(tiles(store, files))
        XCTAssertEqual(store.stats.decoded, files.count)
        XCTAssertEqual(lines.all.filter { $0.contains("thumbnail cache") }.count, 1, "\(lines.all)")
        XCTAssertEqual(lines.all.count, 1, "\(lines.all)")
    }

    /// A symlinked --thumb-cache-dir is resolved once, with one line saying where it leads: pointing the link
    /// elsewhere afterwards does not move where entries are written (issue 23 item 4).
    func testASymlinkedFolderIsResolvedOnceAndLogged() throws {
        let dir = try TempDir()
        let files = try media(dir)
        for folder in ["real-a", "real-b"] {
            try FileManager.default.createDirectory(atPath: dir.file(folder), withIntermediateDirectories: true)
        }
        let link = dir.file("thumbs")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real-a")
        let lines = Lines()
        let disk = ThumbnailDiskCache(folder: link, log: Log(level: .info, sink: { lines.add($0) }))
        XCTAssertEqual(disk.folder, dir.file("real-a"))
        XCTAssertEqual(lines.all.count, 1, "\(lines.all)")
        XCTAssertTrue(lines.all.first?.hasSuffix("grid: thumbnail cache \(link) resolves to \(dir.file("real-a")) (symlinks followed once); entries go there") == true, "\(lines.all)")
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real-b")
        let store = makeStore(disk)
        defer { store.stop() }
        XCTAssertNotNil(tiles(store, files))
        store.stop()
        XCTAssertGreaterThan(folderBytes(dir.file("real-a")), 0, "entries went to the folder resolved at start")
        XCTAssertEqual(folderBytes(dir.file("real-b")), 0, "not where the link points now")
        let plain = Lines()
        _ = ThumbnailDiskCache(folder: dir.file("real-b") + "/", log: Log(level: .info, sink: { plain.add($0) }))
        XCTAssertEqual(plain.all, [], "a folder that is no symlink is not logged")
    }

    func testMemoryStaysWithinItsBudget() throws {
        let dir = try TempDir()
        let original = dir.file("small.jpg")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=160x120", "-frames:v", "1", original])
        let paths = try (0..<300).map { i -> String in
            let path = dir.file("copy\(i).jpg")
            try FileManager.default.copyItem(atPath: original, toPath: path)
            return path
        }
        let tile = side * side * 4
        let budget = tile * 10
        let store = makeStore(nil, memory: budget)
        defer { store.stop() }
        // Wanting more than fits takes only what fits: the rest would push the first ones out again.
        store.want(paths.map { ThumbnailRequest(path: $0) })
        XCTAssertTrue(eventually(60) { store.stats.decoded == 10 }, "decoded \(store.stats.decoded)")
        usleep(300_000)
        XCTAssertEqual(store.stats.decoded, 10, "no more than the memory holds")
        // Scrolling on, ten at a time: every tile is made, and the memory never holds more than its budget.
        for first in stride(from: 10, to: paths.count, by: 10) {
            store.want(paths[first..<(first + 10)].map { ThumbnailRequest(path: $0) })
            XCTAssertTrue(eventually(60) { store.stats.decoded == first + 10 }, "decoded \(store.stats.decoded)")
            XCTAssertLessThanOrEqual(store.stats.memoryBytes, budget)
        }
        XCTAssertEqual(store.stats.memoryBytes, budget, "full, to the tile")
        XCTAssertNil(store.thumbnail(for: ThumbnailRequest(path: paths[0])), "the first tiles were let go")
        XCTAssertEqual(store.facts(for: paths[0])?.kind, .image, "facts stay")
    }

    func testWorkNoLongerWantedIsCancelled() throws {
        let dir = try TempDir()
        let clip = dir.file("clip.mp4")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=1280x720:r=25:d=5", "-c:v", "libx264", "-preset", "ultrafast",
                              "-g", "250", "-pix_fmt", "yuv420p", clip])
        let clips = try (0..<200).map { i -> String in
            let path = dir.file("clip\(i).mp4")
            try FileManager.default.copyItem(atPath: clip, toPath: path)
            return path
        }
        let pictures = try (0..<3).map { i -> String in
            let path = dir.file("pic\(i).jpg")
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240", "-frames:v", "1", path])
            return path
        }
        let store = makeStore(nil)
        defer { store.stop() }
        store.want(clips.map { ThumbnailRequest(path: $0) })
        store.want(pictures.map { ThumbnailRequest(path: $0) })
        XCTAssertTrue(eventually(60) { pictures.allSatisfy { store.thumbnail(for: ThumbnailRequest(path: $0)) != nil } }, "the new set completes")
        let s = store.stats
        XCTAssertGreaterThan(s.cancelled, 150, "\(s)")
        XCTAssertLessThan(s.decoded, 20, "\(s)")
        XCTAssertNil(store.thumbnail(for: ThumbnailRequest(path: clips[199])))
    }

    func testBrokenFilesFailOnceWithOneWarningEach() throws {
        let dir = try TempDir()
        let good = dir.file("good.jpg"), cut = dir.file("cut.jpg"), junk = dir.file("junk.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=640x480", "-frames:v", "1", good])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        var seed: UInt64 = 7
        let garbage = (0..<5000).map { _ -> UInt8 in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: seed >> 33)
        }
        try Data(garbage).write(to: URL(fileURLWithPath: junk))
        let lines = Lines()
        let store = makeStore(nil, log: Log(level: .warn, sink: { lines.add($0) }))
        defer { store.stop() }
        let all = [cut, junk, good].map { ThumbnailRequest(path: $0) }
        store.want(all)
        XCTAssertTrue(eventually(60) { store.failed(cut) && store.failed(junk) && store.thumbnail(for: ThumbnailRequest(path: good)) != nil })
        store.want(all)  // failed files are not tried again
        usleep(300_000)
        XCTAssertEqual(store.stats.failed, 2)
        XCTAssertFalse(store.failed(good))
        XCTAssertEqual(lines.all.count, 2, "\(lines.all)")
        XCTAssertEqual(lines.all.filter { $0.contains(cut) }.count, 1, "\(lines.all)")
        XCTAssertEqual(lines.all.filter { $0.contains(junk) }.count, 1, "\(lines.all)")
    }

    func testDefaultFolder() {
        XCTAssertEqual(ThumbnailDiskCache.defaultFolder(stateDirectory: "/var/lib/kiosk",
                                                        environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]), "/c/kiosk/thumbs")
        XCTAssertEqual(ThumbnailDiskCache.defaultFolder(stateDirectory: "/var/lib/kiosk", environment: ["HOME": "/h"]),
                       "/h/.cache/kiosk/thumbs")
        XCTAssertEqual(ThumbnailDiskCache.defaultFolder(stateDirectory: "/var/lib/kiosk", environment: [:]), "/var/lib/kiosk/thumbs")
        XCTAssertNil(ThumbnailDiskCache.defaultFolder(stateDirectory: nil, environment: [:]))
    }

    /// The grid and the web page's media list share one cache per folder: a thumbnail the page makes counts in the
    /// grid's budget, and `--no-thumb-cache` turns both off.
    func testTheGridAndTheWebPageShareOneCachePerFolder() throws {
        let dir = try TempDir()
        let files = try media(dir)
        var settings = GridSettings()
        settings.diskFolder = dir.file("thumbs")
        let log = Log(level: .error)
        let grid = try XCTUnwrap(ThumbnailDiskCache.forGrid(settings, stateDirectory: nil, log: log))
        let web = try XCTUnwrap(ThumbnailDiskCache.forGrid(settings, stateDirectory: "/elsewhere", log: log))
        XCTAssertTrue(grid === web, "one cache over one folder")
        XCTAssertTrue(ThumbnailDiskCache.shared(folder: dir.file("thumbs") + "/.", log: log) === grid, "the same folder spelled otherwise")
        XCTAssertFalse(ThumbnailDiskCache.shared(folder: dir.file("other"), log: log) === grid)
        let jpeg = try Thumbnailer.jpeg(path: files[0], side: 360, cache: web)
        XCTAssertEqual(Array(jpeg.prefix(2)), [0xFF, 0xD8])
        XCTAssertEqual(grid.totalBytes, folderBytes(dir.file("thumbs")), "the page's thumbnail is in the grid's count")
        XCTAssertGreaterThan(grid.totalBytes, 0)
        XCTAssertNotNil(grid.load(path: files[0], side: 360), "and the grid finds it")
        settings.diskCache = false
        XCTAssertNil(ThumbnailDiskCache.forGrid(settings, stateDirectory: nil, log: log))
    }
}
