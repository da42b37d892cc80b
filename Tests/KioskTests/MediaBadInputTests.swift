import Foundation
import KioskCore
import KioskMedia
import XCTest

/// Bad files throw a one-line MediaError naming the file, quickly, from both probe and decode.
final class MediaBadInputTests: XCTestCase {
    /// Checks that decode (and, unless `decodeOnly`, probe) of `path` throws a MediaError containing `words`.
    /// Probe reads headers and file structure only, so damage inside the image data shows at decode.
    private func expectFailure(_ path: String, contains words: String, decodeOnly: Bool = false,
                               file: StaticString = #filePath, line: UInt = #line) {
        var calls: [(String, () throws -> Void)] = [("decode", { _ = try MediaFile.decode(path) { $0 } })]
        if !decodeOnly { calls.append(("probe", { _ = try MediaFile.probe(path) })) }
        for (what, call) in calls {
            let start = Date()
            do {
                try call()
                XCTFail("\(what) of \(path) did not throw", file: file, line: line)
            } catch let error as MediaError {
                XCTAssertEqual(error.path, path, file: file, line: line)
                XCTAssertTrue(error.reason.contains(words), "\(what): \(error)", file: file, line: line)
                XCTAssertFalse(error.description.contains("\n"), file: file, line: line)
            } catch {
                XCTFail("\(what) threw a non-MediaError: \(error)", file: file, line: line)
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 5, "\(what) of \(path) was slow", file: file, line: line)
        }
    }

    func testBadFilesThrowNamingTheFile() throws {
        let dir = try TempDir()
        let jpg = dir.file("good.jpg"), png = dir.file("good.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240", "-frames:v", "1", jpg])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240", "-frames:v", "1", png])
        func write(_ name: String, _ bytes: [UInt8]) throws -> String {
            let path = dir.file(name)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        let jpgBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: jpg)))
        let pngBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: png)))
        let random = AnimationFixtures.randomBytes(count: 4096, seed: 21)  // seeded: the same bytes every run

        expectFailure(try write("empty.jpg", []), contains: "empty file")
        expectFailure(try write("half.jpg", Array(jpgBytes.prefix(jpgBytes.count / 2))), contains: "truncated or corrupt JPEG")
        expectFailure(try write("half.png", Array(pngBytes.prefix(pngBytes.count / 2))), contains: "PNG")
        expectFailure(try write("noise.jpg", random), contains: "unsupported format")
        expectFailure(try write("notes.txt", Array("hello, this is not a picture\n".utf8)), contains: "unsupported format")
        var corrupt = pngBytes
        if let idat = (0..<(corrupt.count - 4)).first(where: { Array(corrupt[$0..<($0 + 4)]) == Array("IDAT".utf8) }) {
            for i in (idat + 6)..<min(idat + 64, corrupt.count - 12) { corrupt[i] = 0 }  // invalid stored deflate block
        }
        expectFailure(try write("corrupt.png", corrupt), contains: "truncated or corrupt PNG", decodeOnly: true)
        expectFailure(dir.file("missing.png"), contains: "no such file")
        expectFailure(dir.path, contains: "directory")
    }
}
