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
            "color=c=0x203040:s=1280x720:d=1,format=rgba[root]",
            "color=c=0x802020:s=800x720:d=1,format=rgba[mainbg]",
            "[0:v]scale=800:600:flags=bicubic[a]",
            "[1:v]scale=480:720:flags=bicubic,crop=480:360:0:180[b]",
            "color=c=0x30c030:s=160x240:d=1,format=rgba[badge]",
            "[root][mainbg]overlay=0:0:format=rgb[s1]", "[s1][a]overlay=0:60:format=rgb[s2]", "[s2][b]overlay=800:0:format=rgb[s3]",
            "[s3][badge]overlay=1120:280:format=rgb,format=rgba",
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

    /// fill stretches; hidden keeps the picture's own size (centred here); meetBest never enlarges; a region
    /// above the others at z-index 2 with opacity 0.5 blends over both. Root 400x200 on a 400x200 screen.
    func testFillHiddenMeetBestAndOpacityOverOtherRegions() throws {
        let dir = try TempDir()
        let p1 = dir.file("p1.png"), p2 = dir.file("p2.png"), p3 = dir.file("p3.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=100x50:r=1,gblur=sigma=1.5", "-frames:v", "1", p1])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=100x50:r=1,gblur=sigma=1.5,hue=h=90", "-frames:v", "1", p2])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=50x50:r=1,gblur=sigma=1.5,hue=h=200", "-frames:v", "1", p3])
        let m = [SMILMedia(index: 0, kind: .image, src: "p1", region: "a", source: here),
                 SMILMedia(index: 1, kind: .image, src: "p2", region: "b", source: here),
                 SMILMedia(index: 2, kind: .image, src: "p3", region: "c", source: here)]
        let a = SMILRegion(name: "a", left: .pixels(0), top: .pixels(0), width: .pixels(200), height: .pixels(200), fit: .fill, source: here)
        var b = SMILRegion(name: "b", left: .pixels(200), top: .pixels(0), width: .pixels(200), height: .pixels(200),
                           backgroundColor: color(0x404000), fit: .hidden, source: here)
        b.mediaAlign = .center
        let c = SMILRegion(name: "c", left: .pixels(150), top: .pixels(50), width: .pixels(100), height: .pixels(100), zIndex: 2,
                           fit: .meetBest, opacity: 0.5, source: here)
        let doc = SMILDocument(file: "t.smil", rootLayout: SMILRootLayout(width: 400, height: 200, backgroundColor: color(0x000040)),
                               regions: [c, a, b], body: SMILContainer(kind: .par, children: m.map { .media($0) }, source: here))
        var config = PlayerConfig()
        config.size = PixelSize(width: 400, height: 200)
        let showings = Dictionary(uniqueKeysWithValues: m.map { ($0.region ?? "", RegionShowing(current: .init(media: $0, activation: $0.index, offset: 0))) })
        let shot = try LayoutSnapshot.image(document: doc, paths: [0: p1, 1: p2, 2: p3], showings: showings, config: config,
                                            log: Log(level: .error))
        let reference = dir.file("ref.rgba")
        let graph = [
            "color=c=0x000040:s=400x200:d=1,format=rgba[root]", "color=c=0x404000:s=200x200:d=1,format=rgba[bbg]",
            "[0:v]scale=200:200:flags=bicubic[a]", "[2:v]format=rgba,colorchannelmixer=aa=0.5[c]",
            "[root][a]overlay=0:0:format=rgb[s1]", "[s1][bbg]overlay=200:0:format=rgb[s2]", "[1:v]format=rgba[b]", "[s2][b]overlay=250:75:format=rgb[s3]",
            "[s3][c]overlay=150:50:format=rgb,format=rgba",
        ].joined(separator: ";")
        try FFmpegCLI.ffmpeg(["-i", p1, "-i", p2, "-i", p3, "-filter_complex", graph, "-frames:v", "1", "-f", "rawvideo",
                              "-pix_fmt", "rgba", reference])
        let ref = try RenderTestSupport.loadRawRGBA(URL(fileURLWithPath: reference), size: config.size)
        for (name, rect) in [("fill", PixelRect(x: 0, y: 0, width: 150, height: 200)),
                             ("hidden, centred", PixelRect(x: 250, y: 75, width: 100, height: 50)),
                             ("meetBest at half opacity over both", PixelRect(x: 150, y: 50, width: 50, height: 50))] {
            let p = RenderTestSupport.psnr(Self.crop(shot, rect), Self.crop(ref, rect))
            XCTAssertGreaterThan(p, 30, "\(name): \(p) dB")
        }
        XCTAssertEqual(RenderTestSupport.pixel(shot, 220, 20), [0x40, 0x40, 0x00, 255], "b's background around its hidden picture")
        XCTAssertEqual(RenderTestSupport.pixel(shot, 225, 125), [0x40, 0x40, 0x00, 255], "c shows nothing past its 50x50 picture")
        let whole = RenderTestSupport.psnr(shot, ref)
        XCTAssertGreaterThan(whole, 30, "the whole screen: \(whole) dB")
    }

    /// fadeToColor half way: both pictures are gone (the fade's alpha is 0 at its middle) and the region shows
    /// the transition's fadeColor, not its own background.
    func testFadeToColorShowsTheFadeColorHalfWay() throws {
        let dir = try TempDir()
        let p1 = dir.file("p1.png"), p2 = dir.file("p2.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=white:s=64x64", "-frames:v", "1", p1])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=blue:s=64x64", "-frames:v", "1", p2])
        let a = SMILMedia(index: 0, kind: .image, src: "p1", region: "main", source: here)
        let b = SMILMedia(index: 1, kind: .image, src: "p2", region: "main", transIn: "dip", source: here)
        let dip = SMILTransition(id: "dip", type: "fade", subtype: "fadeToColor", duration: 1, fadeColor: color(0xc00000), source: here)
        let region = SMILRegion(name: "main", left: .pixels(0), top: .pixels(0), width: .pixels(200), height: .pixels(100),
                                backgroundColor: color(0x00ff00), fit: .fill, source: here)
        let doc = SMILDocument(file: "t.smil", rootLayout: SMILRootLayout(width: 200, height: 100), regions: [region],
                               transitions: ["dip": dip], body: SMILContainer(kind: .seq, children: [.media(a), .media(b)], source: here))
        var config = PlayerConfig()
        config.size = PixelSize(width: 200, height: 100)
        let half = RegionShowing(current: .init(media: b, activation: 2, offset: 0.5),
                                 outgoing: .init(media: a, activation: 1, offset: 5, frozen: true), progress: 0.5, transition: dip)
        let shot = try LayoutSnapshot.image(document: doc, paths: [0: p1, 1: p2], showings: ["main": half], config: config,
                                            log: Log(level: .error))
        XCTAssertEqual(RenderTestSupport.pixel(shot, 100, 50), [0xc0, 0x00, 0x00, 255], "the fadeColor at the middle")
        let quarter = RegionShowing(current: half.current, outgoing: half.outgoing, progress: 0.25, transition: dip)
        let early = try LayoutSnapshot.image(document: doc, paths: [0: p1, 1: p2], showings: ["main": quarter], config: config,
                                             log: Log(level: .error))
        // a quarter in: the white picture at half alpha over the red (255 * 0.5 + 192 * 0.5)
        let px = RenderTestSupport.pixel(early, 100, 50)
        XCTAssertEqual(Double(px[0]), 223.5, accuracy: 3, "\(px)")
        XCTAssertEqual(Double(px[1]), 127.5, accuracy: 3, "\(px)")
    }
}
