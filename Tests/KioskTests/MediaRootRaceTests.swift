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

    /// A real kiosk on its socket while a link inside the root flips between a folder inside and one outside,
    /// as fast as it can: of 150 screenshots none may land outside.
    func testScreenshotsRacingAFlippingLinkNeverLandOutside() throws {
        let victim = outside + "/shot.png"
        try Data("VICTIM".utf8).write(to: URL(fileURLWithPath: victim))
        let picture = dir.file("root/a.png")
        try png(picture, "green")
        let sock = dir.file("ipc.sock")
        let server = try IPCServer.kiosk(socket: sock, files: [picture], extra: ["--media-root", root, "--log-level", "info"],
                                         length: 300, test: self)
        let p = server.process
        defer { server.stopExpectingCleanExit() }
        let flip = root + "/flip"
        try FileManager.default.createSymbolicLink(atPath: flip, withDestinationPath: "shots")
        let stop = LockedFlag()
        let flipper = Thread { [root, outside] in
            var inside = false
            while !stop.isSet {
                let temporary = root + "/flip.new"
                _ = symlink(inside ? "shots" : outside, temporary)
                _ = rename(temporary, root + "/flip")
                inside.toggle()
            }
        }
        flipper.start()
        defer { stop.set() }
        let c = try IPCConnection(path: sock)
        var written = 0
        for _ in 0..<150 {
            let reply = try c.request(#"["screenshot-to-file","\#(flip)/shot.png"]"#)
            if reply["error"] == .string("success") { written += 1 }
        }
        stop.set()
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "VICTIM", "no screenshot went outside the root")
        XCTAssertGreaterThan(written, 0, "the screenshots checked while the link pointed inside were written, inside")
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/shots/shot.png"))
    }
}

/// A flag one thread sets and another reads.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}
