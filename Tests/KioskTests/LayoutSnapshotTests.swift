import Foundation
import KioskCore
@testable import KioskPlayer
import XCTest

/// A whole layout drawn by kiosk's renderer (real shaders on llvmpipe, read back) against the same screen
/// composed by ffmpeg: each picture scaled by ffmpeg's scaler to the size its fit gives, cut, and overlaid at its
/// region's rectangle over the region and root backgrounds.
final class LayoutSnapshotTests: XCTestCase {
    private let here = SourceLine(file: "t.smil", line: 1)

    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    private func color(_ hex: UInt32) -> LayoutColor {
        LayoutColor(red: Double(hex >> 16 & 0xff) / 255, green: Double(hex >> 8 & 0xff) / 255, blue: Double(hex & 0xff) / 255)
    }

    /// Root 640x360 (#203040) on a 1280x720 screen (scale 2):
    /// - main: 0,0 400x360, background #802020, fit meet, centred: a 320x240 picture becomes 400x300 at y 30
    ///   (screen: 800x600 at 0,60, the background above and below);
    /// - side: 400,0 240x180, slice, centred: a 200x300 picture, factor max(240/200, 180/300) = 1.2, becomes
    ///   240x360 at y -90 (screen: 480x720 at 800,-180, cut to 480x360 at 800,0);
    /// - badge: 560,140 120x120, z-index 5, background #30c030, nothing in it: over side, and cut by the root's
    ///   right edge at 640 (screen: 1120,280 160x240);
    /// - the rest of the root shows #203040.
    private func document() -> SMILDocument {
        let main = SMILMedia(index: 0, kind: .image, src: "a.png", region: "main", source: here)
        let side = SMILMedia(index: 1, kind: .image, src: "b.png", region: "side", source: here)
        var mainRegion = SMILRegion(name: "main", left: .pixels(0), top: .pixels(0), width: .pixels(400), height: .pixels(360),
                                    backgroundColor: color(0x802020), fit: .meet, source: here)
        mainRegion.mediaAlign = .center
        var sideRegion = SMILRegion(name: "side", left: .pixels(400), top: .pixels(0), width: .pixels(240), height: .pixels(180),
                                    fit: .slice, source: here)
        sideRegion.mediaAlign = .center
        let badge = SMILRegion(name: "badge", left: .pixels(560), top: .pixels(140), width: .pixels(120), height: .pixels(120),
                               zIndex: 5, backgroundColor: color(0x30c030), source: here)
        return SMILDocument(file: "t.smil", rootLayout: SMILRootLayout(width: 640, height: 360, backgroundColor: color(0x203040)),
                            regions: [badge, mainRegion, sideRegion],
                            body: SMILContainer(kind: .par, children: [.media(main), .media(side)], source: here))
    }

    func testThreeRegionsMatchTheScreenFFmpegComposes() throws {
        let dir = try TempDir()
        let a = dir.file("a.png"), b = dir.file("b.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240:r=1,gblur=sigma=2", "-frames:v", "1", a])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=200x300:r=1,gblur=sigma=2,hue=h=120", "-frames:v", "1", b])
        let doc = document()
        let media = doc.mediaInDocumentOrder
        var config = PlayerConfig()
        config.size = PixelSize(width: 1280, height: 720)
        let showings = [
            "main": RegionShowing(current: .init(media: media[0], activation: 1, offset: 0)),
            "side": RegionShowing(current: .init(media: media[1], activation: 2, offset: 0)),
        ]
        let shot = try LayoutSnapshot.image(document: doc, paths: [0: a, 1: b], showings: showings, config: config,
                                            log: Log(level: .error))
        let reference = dir.file("ref.rgba")
        let graph = [
            "color=c=0x203040:s=1280x720:d=1[root]",
            "color=c=0x802020:s=800x720:d=1[mainbg]",
            "[0:v]scale=800:600:flags=bicubic[a]",
            "[1:v]scale=480:720:flags=bicubic,crop=480:360:0:180[b]",
            "color=c=0x30c030:s=160x240:d=1[badge]",
            "[root][mainbg]overlay=0:0[s1]", "[s1][a]overlay=0:60[s2]", "[s2][b]overlay=800:0[s3]",
            "[s3][badge]overlay=1120:280,format=rgba",
        ].joined(separator: ";")
        try FFmpegCLI.ffmpeg(["-i", a, "-i", b, "-filter_complex", graph, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba",
                              reference])
        let ref = try RenderTestSupport.loadRawRGBA(URL(fileURLWithPath: reference), size: config.size)
        let psnr = RenderTestSupport.psnr(shot, ref)
        XCTAssertGreaterThan(psnr, 32, "kiosk's layout against ffmpeg's composition: \(psnr) dB")
        // The flat parts exactly: root, the main region's background above its picture, the badge over side.
        XCTAssertEqual(RenderTestSupport.pixel(shot, 1000, 600), [0x20, 0x30, 0x40, 255], "root background")
        XCTAssertEqual(RenderTestSupport.pixel(shot, 400, 20), [0x80, 0x20, 0x20, 255], "main's background above the picture")
        XCTAssertEqual(RenderTestSupport.pixel(shot, 1200, 300), [0x30, 0xc0, 0x30, 255], "the badge is over side (z-index)")
        // Each picture lands where its fit says: compare each rectangle on its own.
        for (name, rect) in [("main", PixelRect(x: 0, y: 60, width: 800, height: 600)),
                             ("side", PixelRect(x: 800, y: 0, width: 320, height: 280))] {
            let p = RenderTestSupport.psnr(Self.crop(shot, rect), Self.crop(ref, rect))
            XCTAssertGreaterThan(p, 30, "\(name): \(p) dB")
        }
    }

    /// The pixels of `rect`.
    private static func crop(_ image: RGBAImage, _ rect: PixelRect) -> RGBAImage {
        var out: [UInt8] = []
        for y in rect.y..<rect.maxY {
            let row = (y * image.size.width + rect.x) * 4
            out += image.pixels[row..<row + rect.width * 4]
        }
        return RGBAImage(size: rect.size, pixels: out)
    }

    func testAMediumWithoutAFileShowsItsRegionsBackground() throws {
        let doc = document()
        let media = doc.mediaInDocumentOrder
        var config = PlayerConfig()
        config.size = PixelSize(width: 640, height: 360)
        let shot = try LayoutSnapshot.image(document: doc, paths: [:],
                                            showings: ["main": RegionShowing(current: .init(media: media[0], activation: 1, offset: 0))],
                                            config: config, log: Log(level: .error))
        XCTAssertEqual(RenderTestSupport.pixel(shot, 200, 180), [0x80, 0x20, 0x20, 255], "main's background, no picture")
        XCTAssertEqual(RenderTestSupport.pixel(shot, 500, 90), [0x20, 0x30, 0x40, 255], "side has no background: the root's")
    }
}
