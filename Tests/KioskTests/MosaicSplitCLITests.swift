// Bad mosaic options from the command line: refused before anything plays, exit 2, one line naming the option
// and the reason; a right-to-left sweep and a recoloured bar are taken. The bar drawn by `snapshot` sits on the split.
import Foundation
import KioskCore
import KioskMedia
import XCTest

final class MosaicSplitCLITests: XCTestCase {
    func testBadMosaicOptionsExitTwoWithOneLine() throws {
        let dir = try TempDir()
        let png = dir.file("p.png")
        try PNGWriter.write(RenderMosaicBarTests.noRedPicture(PixelSize(width: 40, height: 20)), to: png)
        let cases = [
            ("mosaic:split=2", "split=2 is out of range 0...1"),
            ("mosaic:bar-color=#GGG", "bar-color=#GGG is not a colour #RRGGBB"),
            ("mosaic:split=0.2..0.8:period=-1", "period=-1 is not a number of seconds above 0"),
            ("mosaic:period=4", "period=4 needs a sweep: split=A..B"),
        ]
        for (spec, reason) in cases {
            let r = try CLITests.run(["snapshot", png, "--effect", spec, "--output", dir.file("o.png")], timeout: 60)
            XCTAssertEqual(r.status, 2, spec)
            let lines = r.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("--effect: mosaic: \(reason)"), r.stderr)
        }
        let out = dir.file("ok.png")
        let ok = try CLITests.run(["snapshot", png, "--effect", "mosaic:split=0.8..0.2:bar-color=#FFC000", "--size", "40x20",
                                   "--output", out], timeout: 60)
        XCTAssertEqual(ok.status, 0, ok.stderr)
        let shot = try ProjectionCLITests.Runner().load(out, PixelSize(width: 40, height: 20))
        XCTAssertEqual(RenderMosaicBarTests.columns(shot, [255, 192, 0]), [31, 32], "a snapshot draws the sweep's start, 0.8")
    }
}
