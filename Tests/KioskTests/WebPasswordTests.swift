import Foundation
import KioskCore
@testable import KioskWeb
import XCTest

/// The page's password as `kiosk passwd` makes it and the login checks it. crypt(3) reads a C string, so a NUL
/// byte ends the password there: 16 random bytes whose first is NUL (1 time in 256) hashed as the empty password,
/// which anyone can give. An empty password, or one with a NUL, is refused on both sides.
final class WebPasswordTests: XCTestCase {
    func testAPasswordWithANulOrEmptyIsNeitherHashedNorAccepted() throws {
        let hash = try WebPassword.hash("correct horse battery")
        XCTAssertTrue(WebPassword.verify("correct horse battery", hash: hash))
        // what follows a NUL is not read by crypt(3): the right password with anything after a NUL must not pass
        XCTAssertFalse(WebPassword.verify("correct horse battery\u{0}anything", hash: hash))
        XCTAssertThrowsError(try WebPassword.hash("")) { XCTAssertTrue("\($0)".contains("empty"), "\($0)") }
        XCTAssertThrowsError(try WebPassword.hash("\u{0}abcdefghijklmno")) { XCTAssertTrue("\($0)".contains("NUL"), "\($0)") }
        XCTAssertThrowsError(try WebPassword.hash("abcdefgh\u{0}ijklmno"))
        // a hash of the empty password (as the old passwd made) lets no empty or NUL-led password in either
        XCTAssertFalse(WebPassword.verify("", hash: Self.hashOfEmpty))
        XCTAssertFalse(WebPassword.verify("\u{0}whatever", hash: Self.hashOfEmpty))
        // and a file holding it is refused when the page starts, naming the file
        let dir = try TempDir()
        try (Self.hashOfEmpty + "\n").write(toFile: dir.file("old"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try WebPassword.readHash(dir.file("old"))) {
            XCTAssertTrue("\($0)".contains(dir.file("old")) && "\($0)".contains("empty password"), "\($0)")
        }
    }

    /// `head -c 16 /dev/urandom | kiosk passwd FILE` with a NUL first (seeded bytes), a NUL inside, an empty line
    /// and bytes that are not UTF-8: each refused in one line naming why, exit 2, and no file written.
    func testKioskPasswdRefusesNulEmptyAndNonUTF8Input() throws {
        let dir = try TempDir()
        var generator = SeededGenerator(seed: 37)
        let random = (0..<15).map { _ in UInt8.random(in: 1...255, using: &generator) }
        for (input, says) in [([0] + random, "NUL byte"), (Array("abcdefgh".utf8) + [0] + Array("ijklmnop\n".utf8), "NUL byte"),
                              ([10], "no password"), ([0xFF, 0xFE, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 10], "not UTF-8")] {
            let stdin = dir.file("stdin"), file = dir.file("password")
            try Data(input).write(to: URL(fileURLWithPath: stdin))
            let r = try BoundedProcess.run("/bin/sh", ["-c", "\"$1\" passwd \"$2\" < \"$3\"", "sh", CLITests.kiosk, file, stdin], timeout: 30)
            let stderr = String(decoding: r.stderr, as: UTF8.self)
            XCTAssertEqual(r.status, 2, "\(input): \(stderr)")
            XCTAssertTrue(stderr.contains(says), "\(input): \(stderr)")
            XCTAssertEqual(stderr.split(separator: "\n").count, 1, stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: file), "\(input): nothing written")
        }
        // a good password still works, and its hash is what the page accepts
        try Data("correct horse battery\n".utf8).write(to: URL(fileURLWithPath: dir.file("stdin")))
        let ok = try BoundedProcess.run("/bin/sh", ["-c", "\"$1\" passwd \"$2\" < \"$3\"", "sh", CLITests.kiosk, dir.file("password"), dir.file("stdin")],
                                        timeout: 30)
        XCTAssertEqual(ok.status, 0, String(decoding: ok.stderr, as: UTF8.self))
        let hash = try WebPassword.readHash(dir.file("password"))
        XCTAssertTrue(WebPassword.verify("correct horse battery", hash: hash))
    }

    /// crypt(3)'s yescrypt hash of the empty password under a fixed salt, as the old `kiosk passwd` could write it
    /// (made with Python's `crypt.crypt('', '$y$j9T$abcdefghijklmnopqrstu.')`, libxcrypt).
    static let hashOfEmpty = "$y$j9T$abcdefghijklmnopqrstu.$4OlU5fmFx8ZqLCVsJ9SiUjEVNRZ9B1gIFoUS8X4a.87"
}
