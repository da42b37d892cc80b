import Foundation
import KioskCore
import KioskMedia
@testable import KioskPlayer
import XCTest

/// Captions belong to their region: a medium's `caption` param drawn at the bottom of its region, read back by
/// tesseract; the region beside it, whose medium has none, shows no text.
final class LayoutCaptionTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    func testACaptionParamIsDrawnInItsRegionAndReadBack() throws {
        let dir = try TempDir()
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=0x303030:s=64x64", "-frames:v", "1", dir.file("grey.png")])
        let smil = dir.file("captions.smil")
        try """
            <smil><head><layout><root-layout width="960" height="540" backgroundColor="#000000"/>
            <region regionName="main" left="0" top="0" width="560" height="540" fit="fill"/>
            <region regionName="side" left="560" top="0" width="400" height="540" fit="fill"/></layout></head>
            <body><par><img src="grey.png" region="main" dur="10s"/>
            <img src="grey.png" region="side" dur="10s"><param name="caption" value="Fresh bread today"/></img></par></body></smil>
            """.write(toFile: smil, atomically: true, encoding: .utf8)
        var config = PlayerConfig()
        config.size = PixelSize(width: 960, height: 540)
        let shot = try LayoutSnapshot.image(file: try SMILFile.load(smil), at: 1, config: config, log: Log(level: .error))
        // side's bottom quarter: the caption, white on its box
        let band = PixelRect(x: 560, y: 405, width: 400, height: 135)
        let keyed = TextTestSupport.keyed(TextTestSupport.crop(shot, band), minimum: 200)
        let page = TextTestSupport.crop(keyed, PixelRect(x: -12, y: -12, width: keyed.size.width + 24, height: keyed.size.height + 24),
                                        fill: 255)
        let png = dir.file("band.png")
        try PNGWriter.write(page, to: png)
        let run = try BoundedProcess.run(TextTestSupport.tesseract, [png, "-", "--psm", "7", "-l", "eng"],
                                         environment: ["OMP_THREAD_LIMIT": "1"], timeout: 60)
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        let read = String(decoding: run.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertLessThanOrEqual(DemoTourTests.editsToFind("Fresh bread today", in: read), 1, "read '\(read)'")
        // main has no caption: no light pixel in it; the caption stays inside side
        var light = 0
        for y in 0..<540 {
            for x in 0..<560 where shot.pixels[(y * 960 + x) * 4] >= 200 { light += 1 }
        }
        XCTAssertEqual(light, 0, "text outside the captioned region")
    }
}
