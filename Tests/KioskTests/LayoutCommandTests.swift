import Foundation
import KioskCore
import XCTest

/// `kiosk check-config FILE.smil` and `kiosk snapshot FILE.smil`: the built binary on real files.
final class LayoutCommandTests: XCTestCase {
    private let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Kiosk/examples/shop-window.smil").path

    /// A PNG kiosk wrote, decoded by ffmpeg into RGBA.
    private func load(_ png: String, _ size: PixelSize) throws -> RGBAImage {
        let data = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", png, "-pix_fmt", "rgba", "-f", "rawvideo", "-"])
        return RGBAImage(size: size, pixels: [UInt8](data))
    }

    func testCheckConfigListsEachRegionsFirstMinute() throws {
        let r = try CLITests.run(["check-config", example], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "\(example): ok")
        XCTAssertEqual(lines[1], "3 regions, 7 media, for ever (it loops); the first minute:")
        // main: the 6 s clip twice, two 6 s photos: a 24 s loop; offers 8 s each; the logo for each 24 s loop
        XCTAssertTrue(lines.contains("main    0:06.0-0:12.0  ../demo/03-sunrise.mp4"), r.stdout)
        XCTAssertTrue(lines.contains("main    0:18.0-0:24.0  ../demo/06-forest-stream.jpg"), r.stdout)
        XCTAssertTrue(lines.contains("offers  0:16.0-0:24.0  offer-3.png"), r.stdout)
        XCTAssertTrue(lines.contains("logo    0:24.0-0:48.0  logo.png"), r.stdout)
        XCTAssertEqual(lines.filter { $0.hasPrefix("main ") }.count, 10)
    }

    func testABrokenLayoutIsOneLineNamingItsLineAndExit2() throws {
        let dir = try TempDir()
        let smil = dir.file("bad.smil")
        try "<smil><head><layout><region regionName=\"main\"/></layout></head><body>\n<img src=\"a.png\" region=\"side\"/>\n</body></smil>"
            .write(toFile: smil, atomically: true, encoding: .utf8)
        for args in [["check-config", smil], ["snapshot", smil, "--output", dir.file("o.png"), "--size", "64x36"]] {
            let r = try CLITests.run(args, timeout: 60)
            XCTAssertEqual(r.status, 2, "\(args[0]): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("kiosk: \(smil):2: region=\"side\" is not a region of the layout"), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("o.png")))
        }
        // a missing medium: check-config counts it as a problem; snapshot draws the region's background and says so
        try "<smil><head><layout><region regionName=\"main\" backgroundColor=\"#ff0000\"/></layout></head><body>\n<img src=\"gone.png\"/>\n</body></smil>"
            .write(toFile: smil, atomically: true, encoding: .utf8)
        let check = try CLITests.run(["check-config", smil], timeout: 60)
        XCTAssertEqual(check.status, 2)
        XCTAssertTrue(check.stderr.contains("\(smil):2: src \"gone.png\": "), check.stderr)
        let shot = try CLITests.run(["snapshot", smil, "--output", dir.file("o.png"), "--size", "64x36"], timeout: 60)
        XCTAssertEqual(shot.status, 0, shot.stderr)
        XCTAssertEqual(shot.stderr.components(separatedBy: "gone.png").count - 1, 1, "one line: \(shot.stderr)")
        let png = try load(dir.file("o.png"), PixelSize(width: 64, height: 36))
        XCTAssertEqual(Array(png.pixels[0..<4]), [255, 0, 0, 255], "the region's background")
    }

    func testSnapshotDrawsTheLayoutAtItsTime() throws {
        let dir = try TempDir()
        let out = dir.file("shop.png")
        // at 13.4 s: the picos photo in main (from 12 s, its 0.8 s fade done), offer-2 (8-16 s) in offers
        let r = try CLITests.run(["snapshot", example, "--at", "13.4", "--size", "640x360", "--output", out], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        let shot = try load(out, PixelSize(width: 640, height: 360))
        // offers: 1440,200 480x880 of 1920x1080 -> 480,67 160x293 at a third; offer-2's blue is 0x0d47a1
        let i = (300 * 640 + 490) * 4
        // (within 2 levels: the card is minified to a third by the GPU's filtering)
        for (got, want) in zip(shot.pixels[i..<i + 3], [0x0d, 0x47, 0xa1] as [UInt8]) {
            XCTAssertLessThanOrEqual(abs(Int(got) - Int(want)), 2, "offer-2's blue")
        }
        // main holds the photo: compare with ffmpeg's scale of it (slice into 480x360, centred: 480x360 from 1920x1440)
        let photo = URL(fileURLWithPath: example).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("demo/02-picos-de-europa.jpg").path
        let ref = try FFmpegCLI.referenceRGBA(photo, size: PixelSize(width: 480, height: 360))
        var main: [UInt8] = []
        for y in 0..<360 { main += shot.pixels[(y * 640 * 4)..<(y * 640 * 4 + 480 * 4)] }
        let psnr = ImageCompare.psnrRGB(main, ref.pixels)
        XCTAssertGreaterThan(psnr, 28, "main region against ffmpeg's scale of the photo: \(psnr) dB")
    }

    /// `<param name="projection">` takes what `#EXTKIOSK:` takes: a region showing an equirectangular picture
    /// through it is the view ffmpeg's v360 gives; a bad value is one FILE:LINE problem and the picture shows flat.
    func testAProjectionParamShowsTheRegionAsV360Does() throws {
        let dir = try TempDir()
        let eq = dir.file("eq.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "mandelbrot=s=512x256:end_pts=1,format=rgb24", "-frames:v", "1", eq])
        let smil = dir.file("sphere.smil")
        func write(_ value: String) throws {
            try """
                <smil><head><layout><root-layout width="320" height="120" backgroundColor="#000000"/>
                <region regionName="sphere" left="0" top="0" width="160" height="120"/></layout></head><body>
                <img src="eq.png" region="sphere" dur="10s">
                <param name="projection" value="\(value)"/></img></body></smil>
                """.write(toFile: smil, atomically: true, encoding: .utf8)
        }
        try write("equirect,yaw=45,pitch=-10,fov=60x45")
        let out = dir.file("o.png")
        let r = try CLITests.run(["snapshot", smil, "--size", "320x120", "--pan-speed", "0", "--output", out], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        let shot = try load(out, PixelSize(width: 320, height: 120))
        var region: [UInt8] = []
        for y in 0..<120 { region += shot.pixels[(y * 320 * 4)..<(y * 320 * 4 + 160 * 4)] }
        let ref = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", eq, "-vf",
                                               "format=gbrp,v360=input=e:output=flat:yaw=45:pitch=-10:h_fov=60:v_fov=45:w=160:h=120:interp=linear,format=rgba",
                                               "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        let db = ImageCompare.psnrRGB(region, [UInt8](ref))
        XCTAssertGreaterThanOrEqual(db, 30, "the region against v360's view: \(db) dB")
        try write("equirect,yaw=500")
        let check = try CLITests.run(["check-config", smil], timeout: 60)
        XCTAssertEqual(check.status, 2, check.stderr)
        XCTAssertTrue(check.stderr.contains("\(smil):3: param projection=\"equirect,yaw=500\": "), check.stderr)
    }

    /// `<param name="ken-burns" value="on">` moves that still slowly (its region differs between two times) while a
    /// still without it stays the same; a value other than on or off is one FILE:LINE problem.
    func testAKenBurnsParamMovesOnlyItsStill() throws {
        let dir = try TempDir()
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=1", "-frames:v", "1", dir.file("p.png")])
        let smil = dir.file("kb.smil")
        func write(_ value: String) throws {
            try """
                <smil><head><layout><root-layout width="640" height="180"/>
                <region regionName="moving" left="0" top="0" width="320" height="180" fit="meet"/>
                <region regionName="still" left="320" top="0" width="320" height="180" fit="meet"/></layout></head>
                <body><par><img src="p.png" region="moving" dur="10s">
                <param name="ken-burns" value="\(value)"/></img><img src="p.png" region="still" dur="10s"/></par></body></smil>
                """.write(toFile: smil, atomically: true, encoding: .utf8)
        }
        try write("on")
        var halves: [[UInt8]] = []
        for t in ["0.5", "8"] {
            let out = dir.file("kb-\(t).png")
            let r = try CLITests.run(["snapshot", smil, "--at", t, "--size", "640x180", "--output", out], timeout: 60)
            XCTAssertEqual(r.status, 0, r.stderr)
            halves.append(try load(out, PixelSize(width: 640, height: 180)).pixels)
        }
        func half(_ px: [UInt8], right: Bool) -> [UInt8] {
            (0..<180).flatMap { y in px[(y * 640 + (right ? 320 : 0)) * 4..<(y * 640 + (right ? 640 : 320)) * 4] }
        }
        let moved = ImageCompare.psnrRGB(half(halves[0], right: false), half(halves[1], right: false))
        XCTAssertLessThan(moved, 30, "the ken-burns still moved between 0.5 s and 8 s (\(moved) dB)")
        XCTAssertEqual(half(halves[0], right: true), half(halves[1], right: true), "the other still stays")
        try write("sometimes")
        let check = try CLITests.run(["check-config", smil], timeout: 60)
        XCTAssertEqual(check.status, 2, check.stderr)
        XCTAssertTrue(check.stderr.contains("\(smil):4: param ken-burns=\"sometimes\": not on or off"), check.stderr)
    }
}
