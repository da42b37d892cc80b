import Foundation
import KioskCore
import KioskMedia
import XCTest

/// `brush`: a solid colour in its region for its duration. Read from SMIL, listed by `check-config`, and drawn by
/// `kiosk snapshot` as ffmpeg composes the same screen from colour sources (a half-opaque region included).
final class SMILBrushTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    private let layout = """
        <smil><head><layout><root-layout width="160" height="90" backgroundColor="#000000"/>
        <region regionName="main" left="0" top="0" width="100" height="90"/>
        <region regionName="band" left="100" top="0" width="60" height="90" z-index="2" opacity="0.5"/></layout></head>
        <body><par><seq><brush color="#3366CC" dur="2s" region="main"/><brush id="late" color="red" dur="2s" region="main"/></seq>
        <brush color="yellow" region="band" dur="4s"/></par></body></smil>
        """

    func testBrushesAreReadWithTheirColours() throws {
        let doc = try SMILReader.read(try MarkupReader.parse(Array(layout.utf8), file: "b.smil"), file: "b.smil")
        let brushes = doc.mediaInDocumentOrder
        XCTAssertEqual(brushes.map(\.kind), [.brush, .brush, .brush])
        XCTAssertEqual(brushes[0].color, LayoutColor(red: 0x33 / 255.0, green: 0x66 / 255.0, blue: 0xCC / 255.0))
        XCTAssertEqual(brushes[1].id, "late")
        XCTAssertEqual(doc.warnings, [])
        // a colour that is none is a warning, and the brush is SMIL's default black (as the signage players take it)
        let bad = layout.replacingOccurrences(of: "color=\"red\"", with: "color=\"reddish\"")
        let lenient = try SMILReader.read(try MarkupReader.parse(Array(bad.utf8), file: "b.smil"), file: "b.smil")
        XCTAssertEqual(lenient.warnings, ["b.smil:4: color=\"reddish\" is not a colour; black is used"])
        XCTAssertEqual(lenient.mediaInDocumentOrder[1].color, .black)
    }

    func testASnapshotMatchesFFmpegsScreenAndCheckConfigListsThem() throws {
        let dir = try TempDir()
        let smil = dir.file("brush.smil")
        try layout.write(toFile: smil, atomically: true, encoding: .utf8)
        let check = try CLITests.run(["check-config", smil], timeout: 30)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stdout.contains("main    0:00.0-0:02.0  brush #3366CC\nmain    0:02.0-0:04.0  brush #FF0000"), check.stdout)
        for (t, main) in [(1.0, "0x3366CC"), (3.0, "0xFF0000")] {
            let out = dir.file("at\(t).png")
            let r = try CLITests.run(["snapshot", smil, "--at", "\(t)", "--size", "160x90", "--output", out], timeout: 60)
            XCTAssertEqual(r.status, 0, r.stderr)
            let ref = dir.file("ref\(t).rgba")
            let graph = "color=c=black:s=160x90:d=1,format=rgba[root];color=c=\(main):s=100x90:d=1,format=rgba[m];"
                + "color=c=yellow:s=60x90:d=1,format=rgba,colorchannelmixer=aa=0.5[b];[root][m]overlay=0:0[r1];[r1][b]overlay=100:0,format=rgba"
            try FFmpegCLI.ffmpeg(["-filter_complex", graph, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", ref])
            let want = try RenderTestSupport.loadRawRGBA(URL(fileURLWithPath: ref), size: PixelSize(width: 160, height: 90))
            let got = try OverlayOCR.load(out, size: PixelSize(width: 160, height: 90))
            XCTAssertGreaterThan(RenderTestSupport.psnr(got, want), 40, "at \(t) s")
        }
    }
}
