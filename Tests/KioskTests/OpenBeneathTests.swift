import Foundation
import Glibc
import KioskCore
import XCTest
@testable import KioskMedia

/// `OpenBeneath`: one open that cannot leave its folder, by `openat2` and by the `O_NOFOLLOW` walk it falls back
/// to. Each case runs both ways.
final class OpenBeneathTests: XCTestCase {
    private var root = ""
    private var outside = ""
    private var rootFD: Int32 = -1

    override func setUpWithError() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-beneath-\(UUID().uuidString)").path
        root = base + "/root"
        outside = base + "/outside"
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data("inside".utf8).write(to: URL(fileURLWithPath: root + "/sub/in.txt"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: outside + "/out.txt"))
        rootFD = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(rootFD, 0)
    }

    override func tearDownWithError() throws {
        if rootFD >= 0 { close(rootFD) }
        try? FileManager.default.removeItem(atPath: (root as NSString).deletingLastPathComponent)
    }

    /// The text read through `name` beneath the root, or the refusal's reason.
    private func read(_ name: String, walk: Bool) -> String {
        do {
            let fd = try OpenBeneath.open(name, in: rootFD, flags: O_RDONLY, walk: walk)
            defer { close(fd) }
            return String(data: FileHandle(fileDescriptor: fd).readDataToEndOfFile(), encoding: .utf8) ?? "?"
        } catch {
            return "error: \(error.reason)"
        }
    }

    func testAFileInsideOpens() {
        for walk in [false, true] {
            XCTAssertEqual(read("sub/in.txt", walk: walk), "inside", "walk \(walk)")
            XCTAssertEqual(read("./sub//in.txt", walk: walk), "inside", "walk \(walk)")
        }
    }

    func testDotDotAboveTheRootIsRefused() {
        for walk in [false, true] {
            XCTAssertTrue(read("../outside/out.txt", walk: walk).hasPrefix("error: refused"), "walk \(walk)")
            XCTAssertTrue(read("sub/../../outside/out.txt", walk: walk).hasPrefix("error: refused"), "walk \(walk)")
        }
    }

    func testAnAbsolutePathIsRefused() {
        for walk in [false, true] {
            XCTAssertTrue(read(outside + "/out.txt", walk: walk).hasPrefix("error: refused"), "walk \(walk)")
        }
    }

    func testAbsoluteAndRelativeSymlinksOutsideAreRefused() throws {
        try FileManager.default.createSymbolicLink(atPath: root + "/abs", withDestinationPath: outside + "/out.txt")
        try FileManager.default.createSymbolicLink(atPath: root + "/rel", withDestinationPath: "../outside/out.txt")
        for walk in [false, true] {
            XCTAssertTrue(read("abs", walk: walk).hasPrefix("error: refused"), "walk \(walk): \(read("abs", walk: walk))")
            XCTAssertTrue(read("rel", walk: walk).hasPrefix("error: refused"), "walk \(walk)")
        }
    }

    func testASymlinkStayingInsideOpensWithOpenat2() throws {
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: "sub/in.txt")
        XCTAssertEqual(read("link", walk: false), "inside")
        // The walk follows no symlink at all: stricter, never wider.
        XCTAssertTrue(read("link", walk: true).hasPrefix("error: refused"))
    }

    func testAMagicLinkIsRefused() throws {
        // /proc/self/root is a magic link to "/": a symlink into it, and the link itself beneath /proc/self.
        try FileManager.default.createSymbolicLink(atPath: root + "/magic", withDestinationPath: "/proc/self/root" + outside + "/out.txt")
        let proc = open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(proc, 0)
        defer { close(proc) }
        for walk in [false, true] {
            XCTAssertTrue(read("magic", walk: walk).hasPrefix("error: refused"), "walk \(walk)")
            XCTAssertThrowsError(try OpenBeneath.open("root" + outside + "/out.txt", in: proc, flags: O_RDONLY, walk: walk),
                                 "walk \(walk)")
        }
    }

    func testAFolderComponentSwappedForASymlinkIsRefused() throws {
        XCTAssertEqual(read("sub/in.txt", walk: false), "inside")
        try FileManager.default.moveItem(atPath: root + "/sub", toPath: root + "/sub.old")
        try FileManager.default.createSymbolicLink(atPath: root + "/sub", withDestinationPath: outside)
        try Data("secret".utf8).write(to: URL(fileURLWithPath: outside + "/in.txt"))
        for walk in [false, true] {
            XCTAssertTrue(read("sub/in.txt", walk: walk).hasPrefix("error: refused"), "walk \(walk): \(read("sub/in.txt", walk: walk))")
        }
    }

    func testANulByteOrAnEmptyNameIsRefusedWithItsReason() {
        for walk in [false, true] {
            XCTAssertEqual(read("sub/in.txt\u{0}x", walk: walk), "error: refused: the path holds a NUL byte")
            XCTAssertEqual(read("", walk: walk), "error: refused: the path is empty")
        }
    }

    func testACreatedFileLandsInsideAndNeverThroughASymlink() throws {
        try FileManager.default.createSymbolicLink(atPath: root + "/shot.png", withDestinationPath: outside + "/out.txt")
        for walk in [false, true] {
            XCTAssertThrowsError(try OpenBeneath.open("shot.png", in: rootFD, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644, walk: walk))
            XCTAssertEqual(try String(contentsOfFile: outside + "/out.txt", encoding: .utf8), "secret")
        }
        let fd = try OpenBeneath.open("sub/new.png", in: rootFD, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
        close(fd)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/sub/new.png"))
    }
}
