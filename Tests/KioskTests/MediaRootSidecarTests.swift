import Foundation
import KioskCore
@testable import KioskMedia
@testable import KioskRemote
import XCTest

/// `--media-root` and the files read beside a media file (issue 23 item 4, the rest): a playlist a remote loads
/// (`loadlist`, MQTT's `load`, and the playlists and folders it names) and an item's caption sidecar are read
/// through the root's descriptor, like the media themselves. A symlink leading out, whether there from the start
/// or swapped in between a check and the read, gets the file outside refused with one line: its text is never
/// shown as a caption or title, and its entries never reach the playlist.
final class MediaRootSidecarTests: XCTestCase {
    private var dir: TempDir!
    private var root = "", outside = ""
    private let lines = CaptionFixtures.Lines()
    /// The text of every file outside the root; no caption or title may ever hold it.
    private static let secret = "OUTSIDE-SECRET"

    override func setUpWithError() throws {
        dir = try TempDir()
        root = dir.file("root")
        outside = dir.file("outside")
        for folder in [root + "/real", root + "/sub", outside + "/photos"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try CaptionFixtures.write(Self.secret, to: outside + "/secret.txt")
        // real paths, as the gate hands them on (the temporary folder could lie behind a symlink)
        root = try XCTUnwrap(MediaGate.realPath(root))
        outside = try XCTUnwrap(MediaGate.realPath(outside))
    }

    override func tearDown() {
        MediaConfinement.release()
    }

    /// The gate and confinement kiosk sets up for `--media-root` (RemoteControl.mediaGate), its log collected.
    private func confinedGate() throws -> MediaGate {
        let log = Log(level: .info) { [lines] in lines.append($0) }
        let gate = try MediaGate(root: root, log: log) { PlaylistLoader(log: log, confined: true).load([$0]) }
        XCTAssertEqual(gate.root, root)
        try MediaConfinement.confine(root: root)
        return gate
    }

    /// A 32x24 PNG at `name` (a path relative to the test's folder), by its real path.
    private func picture(_ name: String) throws -> String {
        try XCTUnwrap(MediaGate.realPath(try CaptionFixtures.png(dir, name)))
    }

    /// Log lines so far that contain `text`.
    private func logged(_ text: String) -> [String] { lines.all.filter { $0.contains(text) } }

    // MARK: caption sidecars

    func testACaptionLinkLeadingOutsideIsRefusedWithOneLine() throws {
        let photo = try picture("root/real/photo.png")
        let other = try picture("root/real/other.png")
        let inside = try picture("root/real/inside.png")
        try FileManager.default.createSymbolicLink(atPath: photo + ".txt", withDestinationPath: outside + "/secret.txt")
        try FileManager.default.createSymbolicLink(atPath: root + "/real/other.txt", withDestinationPath: "../../outside/secret.txt")
        try CaptionFixtures.write("inside caption", to: inside + ".txt")
        // the fixture leaks without the confinement: the links do lead to the secret
        XCTAssertEqual(CaptionFixtures.read(photo).metadata?.caption, Self.secret)
        _ = try confinedGate()
        for (picture, sidecar) in [(photo, photo + ".txt"), (other, root + "/real/other.txt")] {
            let (metadata, log) = CaptionFixtures.read(picture)
            XCTAssertNotNil(metadata)
            XCTAssertNil(metadata?.caption, "\(picture): the outside file's text is not its caption")
            let refusals = log.filter { $0.contains("\(sidecar): caption file ignored") }
            XCTAssertEqual(refusals.count, 1, "one line naming the sidecar: \(log)")
            XCTAssertTrue(refusals.first?.contains("beneath --media-root") == true, "\(log)")
            XCTAssertFalse(log.contains { $0.contains(Self.secret) }, "\(log)")
        }
        XCTAssertEqual(CaptionFixtures.read(inside).metadata?.caption, "inside caption", "a sidecar inside still works")
    }

    func testACaptionSwappedForAnOutsideLinkWhileReadIsNeverShown() throws {
        let photo = try picture("root/real/photo.png")
        let sidecar = photo + ".txt"
        try CaptionFixtures.write("inside caption", to: root + "/real/inside.txt")
        _ = try confinedGate()
        let flipper = Flipper(name: sidecar, insideFile: root + "/real/inside.txt", outsideFile: outside + "/secret.txt")
        flipper.start()
        defer { flipper.stop() }
        // read until the link has flipped 100 times and both sides were met (not a fixed count of reads: on a
        // loaded machine 400 reads saw 59 flips), for at most 30 s
        var inside = 0, refused = 0, reads = 0
        let deadline = Date(timeIntervalSinceNow: 30)
        while (flipper.flips <= 100 || inside == 0 || refused == 0 || reads < 400), Date() < deadline {
            let caption = CaptionFixtures.read(photo).metadata?.caption
            XCTAssertNotEqual(caption, Self.secret, "the outside file's text was read as the caption")
            if caption == "inside caption" { inside += 1 } else if caption == nil { refused += 1 }
            reads += 1
        }
        flipper.stop()
        XCTAssertGreaterThan(flipper.flips, 100, "the link flipped while the captions were read")
        XCTAssertGreaterThan(inside, 0, "a read that met the file inside shows it")
        XCTAssertGreaterThan(refused, 0, "a read that met the link leading out was refused")
    }

    // MARK: playlists

    /// A playlist outside the root (`outside/list.m3u`) whose entry lies inside, so that only its title could tell
    /// that it was read; and the same inside (`root/real/inside.m3u`) with another title.
    private func playlists() throws -> (picture: String, outsideList: String, insideList: String) {
        let picture = try picture("root/real/a.png")
        let outsideList = outside + "/list.m3u"
        try CaptionFixtures.write("#EXTINF:5,\(Self.secret)\n\(picture)\n", to: outsideList)
        let insideList = root + "/real/inside.m3u"
        try CaptionFixtures.write("#EXTINF:5,inside title\na.png\n", to: insideList)
        return (picture, outsideList, insideList)
    }

    func testAPlaylistLinkLeadingOutsideIsRefusedWithOneLine() throws {
        let (_, outsideList, _) = try playlists()
        try FileManager.default.createSymbolicLink(atPath: root + "/evil.m3u", withDestinationPath: outsideList)
        let gate = try confinedGate()
        XCTAssertThrowsError(try gate.items(root + "/evil.m3u", list: true))
        XCTAssertEqual(logged("evil.m3u").count, 1, "\(lines.all)")
        XCTAssertEqual(logged("refused: outside --media-root").count, 1, "\(lines.all)")
        XCTAssertThrowsError(try gate.localItems(root + "/evil.m3u")) { error in
            XCTAssertTrue("\(error)".contains("outside --media-root"), "\(error)")
        }
    }

    func testAPlaylistInsideMayNotNameAPlaylistFolderOrFileOutside() throws {
        let (picture, outsideList, _) = try playlists()
        _ = try self.picture("outside/photos/b.png")
        let outsideFile = try self.picture("outside/c.png")
        try FileManager.default.createSymbolicLink(atPath: root + "/sub/evil.m3u", withDestinationPath: outsideList)
        let list = root + "/list.m3u"
        try CaptionFixtures.write("""
            #EXTINF:5,inside title
            real/a.png
            \(outsideList)
            sub/../../outside/list.m3u
            sub/evil.m3u
            \(outside)/photos
            sub/../../outside/photos
            real/inside.m3u
            \(outsideFile)
            """, to: list)
        let gate = try confinedGate()
        let items = try gate.items(list, list: true)
        XCTAssertEqual(items.map(\.path), [root + "/real/a.png", root + "/real/a.png"], "\(lines.all)")
        XCTAssertEqual(items.map(\.title), ["inside title", "inside title"], "nothing of the outside playlist")
        XCTAssertFalse(lines.all.contains { $0.contains(Self.secret) || $0.contains("b.png") }, "\(lines.all)")
        // one line for each thing outside, naming it
        XCTAssertEqual(logged("\(outsideList): skipped: outside --media-root").count, 1, "\(lines.all)")
        XCTAssertEqual(logged("\(root)/sub/../../outside/list.m3u: skipped: refused: resolves outside").count, 1, "\(lines.all)")
        XCTAssertEqual(logged("\(root)/sub/evil.m3u: skipped: refused").count, 1, "\(lines.all)")
        XCTAssertEqual(logged("\(outside)/photos: skipped: outside --media-root").count, 1, "\(lines.all)")
        XCTAssertEqual(logged("\(root)/sub/../../outside/photos: skipped: outside --media-root").count, 1, "\(lines.all)")
        XCTAssertEqual(logged("\(outsideFile): skipped: outside --media-root").count, 1, "a picture outside is not shown: \(lines.all)")
        XCTAssertEqual(lines.all.count, 6, "\(lines.all)")
        // the same playlist on the command line (the operator's own, not a remote's) still reads it all
        let operatorItems = PlaylistLoader(log: Log(level: .error, sink: { _ in })).load([list])
        XCTAssertTrue(operatorItems.contains { $0.title == Self.secret }, "the operator's loader is not confined")
        XCTAssertEqual(picture, root + "/real/a.png")
    }

    func testAPlaylistSwappedForAnOutsideLinkWhileReadIsNeverRead() throws {
        let (_, outsideList, insideList) = try playlists()
        let list = root + "/real/list.m3u"
        let gate = try confinedGate()
        let flipper = Flipper(name: list, insideFile: insideList, outsideFile: outsideList)
        flipper.start()
        defer { flipper.stop() }
        var inside = 0
        for _ in 0..<1500 {
            guard let items = try? gate.items(list, list: true) else { continue }
            XCTAssertFalse(items.contains { $0.title == Self.secret }, "the outside playlist was read")
            if items.contains(where: { $0.title == "inside title" }) { inside += 1 }
        }
        flipper.stop()
        XCTAssertGreaterThan(flipper.flips, 100, "the link flipped while the playlists were read")
        XCTAssertGreaterThan(inside, 0, "a read that met the playlist inside loads it")
    }

    func testAPlaylistOverTheBoundIsRefusedWithOneLine() throws {
        let big = root + "/big.m3u"
        _ = FileManager.default.createFile(atPath: big, contents: nil)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: big))
        try handle.truncate(atOffset: UInt64(PlaylistLoader.maxBytes + 1))
        try handle.close()
        let loader = PlaylistLoader(log: Log(level: .info) { [lines] in lines.append($0) })
        XCTAssertTrue(loader.parsePlaylist(big).isEmpty)
        XCTAssertEqual(lines.all.count, 1, "\(lines.all)")
        XCTAssertTrue(lines.all.first?.contains("\(big): skipped: the playlist is \(PlaylistLoader.maxBytes + 1) bytes, over the 16 MiB") == true,
                      "\(lines.all)")
    }

    /// A real kiosk on its socket: `loadlist` of a playlist inside plays it; one leading outside, or the outside
    /// playlist an inside one names, is refused with one line, and its title never reaches the playlist.
    func testLoadlistOverIPCLoadsInsidePlaylistsAndRefusesOutsideOnes() throws {
        let (picture, outsideList, _) = try playlists()
        try FileManager.default.createSymbolicLink(atPath: root + "/evil.m3u", withDestinationPath: outsideList)
        let list = root + "/list.m3u"
        try CaptionFixtures.write("#EXTINF:5,inside title\nreal/a.png\n\(outsideList)\n", to: list)
        let sock = dir.file("ipc.sock")
        let server = try IPCServer.kiosk(socket: sock, files: [picture], extra: ["--media-root", root, "--log-level", "info"],
                                         length: 300, test: self)
        let p = server.process
        defer { server.stopExpectingCleanExit() }
        let c = try IPCConnection(path: sock)
        XCTAssertNotEqual(try c.request(#"["loadlist","\#(root)/evil.m3u"]"#)["error"], .string("success"))
        XCTAssertTrue(p.waitFor("evil.m3u: refused: outside --media-root", timeout: 10), p.stderr)
        XCTAssertEqual(try c.request(#"["loadlist","\#(list)"]"#)["error"], .string("success"))
        XCTAssertTrue(p.waitFor("\(outsideList): skipped: outside --media-root", timeout: 10), p.stderr)
        let deadline = Date(timeIntervalSinceNow: 10)
        var titles: [String] = []
        while Date() < deadline {
            guard case .array(let entries)? = try c.get("playlist") else { return XCTFail("no playlist: \(p.stderr)") }
            titles = entries.compactMap { $0["title"]?.string }
            if titles == ["inside title"] { break }
            usleep(100_000)
        }
        XCTAssertEqual(titles, ["inside title"], p.stderr)
        XCTAssertFalse(p.stderr.contains(Self.secret), p.stderr)
        XCTAssertEqual(p.stderr.components(separatedBy: "evil.m3u").count - 1, 1, p.stderr)
        XCTAssertEqual(p.stderr.components(separatedBy: outsideList).count - 1, 1, p.stderr)
    }
}

/// Flips `name`, as fast as it can on its own thread, between a hard link of a file inside the root (a regular
/// file) and a symlink to a file outside, each put in place by `rename`, as an attacker inside the root would.
private final class Flipper: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var count = 0
    private let name: String, insideFile: String, outsideFile: String
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)

    init(name: String, insideFile: String, outsideFile: String) {
        self.name = name
        self.insideFile = insideFile
        self.outsideFile = outsideFile
    }

    /// Flips made so far.
    var flips: Int { lock.lock(); defer { lock.unlock() }; return count }
    private var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }

    /// Starts flipping.
    func start() {
        let thread = Thread { [self] in
            let temporary = name + ".new"
            var inside = true
            while !isStopped {
                unlink(temporary)
                _ = inside ? link(insideFile, temporary) : symlink(outsideFile, temporary)
                if rename(temporary, name) == 0 { lock.lock(); count += 1; lock.unlock() }
                inside.toggle()
            }
            done.signal()
        }
        self.thread = thread
        thread.start()
    }

    /// Stops flipping and waits (at most 5 s) for the thread to end; a second call returns at once.
    func stop() {
        lock.lock()
        let wasRunning = !stopped && thread != nil
        stopped = true
        lock.unlock()
        if wasRunning { _ = done.wait(timeout: .now() + 5) }
    }
}
