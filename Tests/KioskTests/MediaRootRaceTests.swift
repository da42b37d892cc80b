import Foundation
import KioskCore
import KioskMedia
@testable import KioskRemote
import XCTest

/// `--media-root` against a symlink swapped in between the gate's check and the open (issue 23 item 4). The gate
/// hands on the real path it checked, reads and writes beneath the root go through the root's descriptor, and a
/// screenshot replaces its name by `renameat`: a file outside the root is never shown or written.
final class MediaRootRaceTests: XCTestCase {
    private var dir: TempDir!
    private var root = "", outside = ""

    override func setUpWithError() throws {
        dir = try TempDir()
        root = dir.file("root")
        outside = dir.file("outside")
        for folder in [root + "/real", root + "/shots", outside] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    override func tearDown() {
        MediaConfinement.release()
    }

    /// A 16x16 PNG of one colour.
    private func png(_ path: String, _ colour: String) throws {
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=\(colour):size=16x16", "-frames:v", "1", path])
    }

    /// The gate of `root`, with the confinement kiosk sets up beside it (RemoteControl.mediaGate).
    private func confinedGate() throws -> MediaGate {
        let gate = try MediaGate(root: root, log: Log(level: .error, sink: { _ in })) { [PlaylistItem(path: $0)] }
        try MediaConfinement.confine(root: try XCTUnwrap(gate.root))
        return gate
    }

    /// Replaces `path` (whatever it is) with a symlink to `target`, as an attacker inside the root would.
    private func swap(_ path: String, toLinkTo target: String) throws {
        let moved = path + ".was"
        if FileManager.default.fileExists(atPath: path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil {
            try FileManager.default.moveItem(atPath: path, toPath: moved)
        }
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    /// Whether the first pixel kiosk decodes from `path` is blue (the file inside) rather than red (outside).
    private func isBlue(_ path: String) throws -> Bool {
        let item = try MediaFile.decode(path, targetSize: { $0 })
        guard case .still(let image) = item.picture else { throw MediaError(path: path, reason: "not a still") }
        let rgb = Array(image.pixels.prefix(3))
        return rgb[0] < 40 && rgb[2] > 210
    }

    func testALinkSwappedAfterTheCheckShowsTheCheckedFileOrNothing() throws {
        try png(root + "/real/a.png", "blue")
        try png(outside + "/a.png", "red")
        try FileManager.default.createSymbolicLink(atPath: root + "/pics", withDestinationPath: "real")
        let gate = try confinedGate()
        let loaded = try gate.items(root + "/pics/a.png", list: false).map(\.path)
        let fleet = try gate.localItems(root + "/pics/a.png").map(\.path)
        // the link the check went through now points outside: what was checked is what is shown
        try swap(root + "/pics", toLinkTo: outside)
        for path in loaded + fleet {
            XCTAssertTrue(try isBlue(path), "\(path): the blue file inside, not the red one outside")
        }
        // the checked folder itself swapped for a link outside: the open beneath the root refuses it
        try swap(root + "/real", toLinkTo: outside)
        for path in loaded {
            XCTAssertThrowsError(try isBlue(path), path) { error in
                XCTAssertTrue("\(error)".contains("beneath --media-root"), "\(error)")
            }
        }
    }

    func testAScreenshotFolderSwappedAfterTheCheckWritesNothingOutside() throws {
        let victim = outside + "/shot.png"
        try Data("VICTIM".utf8).write(to: URL(fileURLWithPath: victim))
        let gate = try confinedGate()
        let path = try gate.outputPath(root + "/shots/shot.png")
        try swap(root + "/shots", toLinkTo: outside)
        let image = RGBAImage(size: PixelSize(width: 4, height: 4), pixels: [UInt8](repeating: 200, count: 64))
        XCTAssertThrowsError(try ScreenshotWriter.write(image, to: path)) { error in
            XCTAssertTrue("\(error)".contains("beneath --media-root"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "VICTIM", "the file outside is untouched")
    }

    func testAScreenshotNameMadeALinkAfterTheCheckIsReplacedNotFollowed() throws {
        let victim = outside + "/victim.png"
        try Data("VICTIM".utf8).write(to: URL(fileURLWithPath: victim))
        let gate = try confinedGate()
        let path = try gate.outputPath(root + "/new.png")
        try FileManager.default.createSymbolicLink(atPath: root + "/new.png", withDestinationPath: victim)
        let image = RGBAImage(size: PixelSize(width: 4, height: 4), pixels: [UInt8](repeating: 200, count: 64))
        try ScreenshotWriter.write(image, to: path)
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "VICTIM", "the link's target is untouched")
        let attributes = try FileManager.default.attributesOfItem(atPath: root + "/new.png")
        XCTAssertEqual(attributes[.type] as? FileAttributeType, .typeRegular, "the name is now the screenshot itself")
        XCTAssertEqual(try FFmpegCLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0",
                                                     root + "/new.png"]), Data("4,4\n".utf8))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasSuffix(".tmp") }
        XCTAssertEqual(leftovers, [], "no temporary file is left")
    }

    /// A real kiosk on its socket while the screenshot folder inside the root and a link to a folder outside trade
    /// names, atomically (`renameat2` with `RENAME_EXCHANGE`), as fast as they can. Screenshots are asked for
    /// until the race was seen both ways (a request checked while the name was the link, refused by the gate; one
    /// checked while it was the folder and swapped before the write, refused by the open beneath the root) and
    /// some were written inside; 4,000 requests at most. None may land outside, and every refusal has its line.
    func testScreenshotsRacingAFlippingLinkNeverLandOutside() throws {
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        let exchange = try XCTUnwrap(dlsym(nil, "renameat2").map { unsafeBitCast($0, to: RenameAt2.self) }, "glibc has renameat2")
        let victim = outside + "/shot.png"
        try Data("VICTIM".utf8).write(to: URL(fileURLWithPath: victim))
        let picture = dir.file("root/a.png")
        try png(picture, "green")
        let sock = dir.file("ipc.sock")
        let server = try IPCServer.kiosk(socket: sock, files: [picture], extra: ["--media-root", root, "--log-level", "info"],
                                         length: 300, test: self)
        let p = server.process
        defer { server.stopExpectingCleanExit() }
        let shots = root + "/shots", swapped = root + "/shots.swap"
        try FileManager.default.createSymbolicLink(atPath: swapped, withDestinationPath: outside)
        XCTAssertEqual(exchange(AT_FDCWD, shots, AT_FDCWD, swapped, 2 /* RENAME_EXCHANGE */), 0, "renameat2: \(errno)")
        XCTAssertEqual(exchange(AT_FDCWD, shots, AT_FDCWD, swapped, 2), 0, "and back: shots is the folder again")
        let stop = LockedFlag()
        let flipper = Thread {
            while !stop.isSet { _ = exchange(AT_FDCWD, shots, AT_FDCWD, swapped, 2) }
        }
        flipper.start()
        defer { stop.set() }
        let c = try IPCConnection(path: sock)
        var written = 0, refused = 0
        /// The refusals kiosk logged so far: by the gate (checked while the name was the link), and at the write
        /// (checked while it was the folder, then swapped: the race itself).
        func refusals() -> (gate: Int, write: Int) {
            let lines = p.stderr.split(separator: "\n")
            return (lines.filter { $0.contains("ipc: screenshot-to-file \(shots)/shot.png") && $0.contains("refused: outside --media-root") }.count,
                    lines.filter { $0.contains("screenshot: ") && $0.contains("beneath --media-root") }.count)
        }
        let deadline = Date(timeIntervalSinceNow: 120)
        for attempt in 1...4000 {
            let reply = try c.request(#"["screenshot-to-file","\#(shots)/shot.png"]"#)
            if reply["error"] == .string("success") { written += 1 } else { refused += 1 }
            guard attempt % 20 == 0 else { continue }
            let seen = refusals()
            if (written > 0 && seen.gate > 0 && seen.write > 0) || Date() > deadline { break }
        }
        stop.set()
        _ = eventually(5, every: 0.1) { let r = refusals(); return r.gate + r.write >= refused }  // the lines come before the replies
        let seen = refusals()
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "VICTIM", "no screenshot went outside the root")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), ["shot.png"], "nothing else was made outside")
        XCTAssertGreaterThan(written, 0, "the screenshots checked and written while the name was the folder")
        let folder = try [shots, swapped].first { try FileManager.default.attributesOfItem(atPath: $0)[.type] as? FileAttributeType == .typeDirectory }
        XCTAssertTrue(FileManager.default.fileExists(atPath: (folder ?? shots) + "/shot.png"), "written inside, in the folder")
        XCTAssertGreaterThan(seen.gate, 0, "the gate refused a request while the name was the link: \(p.stderr.suffix(2000))")
        XCTAssertGreaterThan(seen.write, 0, "the race happened: checked as the folder, swapped, refused at the write: \(p.stderr.suffix(2000))")
        XCTAssertEqual(refused, seen.gate + seen.write, "every refusal has its line: \(p.stderr.suffix(2000))")
        print("media root race: \(written) written, \(seen.gate) refused by the gate, \(seen.write) at the write")
    }
}

/// A flag one thread sets and another reads.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}
