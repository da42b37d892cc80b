import Foundation
import KioskCore
@testable import KioskMedia
import KioskPlayer
import XCTest

/// The picture behind a sound file's now-playing card (`SoundPicture` with `.card`, `CardPicture`): the artwork
/// or the placeholder in the layout's square over a blurred, darkened copy filling the canvas; today's fitted
/// picture with overlays off; the placeholder card for covers that cannot be read. Files are made with ffmpeg.
final class NowPlayingCardPictureTests: XCTestCase {
    private typealias F = CardPictureFixtures
    private let landscape = PixelSize(width: 640, height: 360)
    private let portrait = PixelSize(width: 360, height: 640)

    func testCoverArtFillsTheSquareOverABlurredDarkenedCopy() throws {
        let dir = try TempDir()
        for (name, coverSize) in [("square", "300x300"), ("wide", "120x80")] {
            let cover = try F.testCover(dir, "\(name).png", size: coverSize)
            let song = try F.song(dir, "\(name).mp3", cover: cover)
            let picture = SoundPicture(path: song, length: 1, canvas: landscape, look: .card(safeArea: .canvas))
            XCTAssertTrue(picture.hasCoverArt, name)
            XCTAssertEqual(picture.image.size, landscape, "\(name): one picture the size of the canvas")
            let square = F.square(landscape, safeArea: .canvas)
            XCTAssertEqual(square, PixelRect(x: 73, y: 90, width: 180, height: 180), "half the height, left of the text")
            let full = try XCTUnwrap(PixelSize(parsing: coverSize))
            let fit = CardPicture.fitted(full, in: square.size)
            let place = PixelRect(x: square.x + (square.width - fit.width) / 2, y: square.y + (square.height - fit.height) / 2,
                                  width: fit.width, height: fit.height)
            let reference = try FFmpegCLI.referenceRGBA(cover, size: fit)
            let psnr = ImageCompare.psnrRGB(F.crop(picture.image, place), reference.pixels)
            print("card \(name) cover \(coverSize) -> \(fit) at \(place): PSNR \(String(format: "%.1f", psnr)) dB")
            XCTAssertGreaterThanOrEqual(psnr, 30, "\(name): the cover scaled to fit the square, as ffmpeg scales it")
            let background = F.Stats(picture.image, outside: F.grown(square, by: F.reach(square)))
            let art = F.Stats(reference, outside: nil)
            print("card \(name): art mean \(art.meanText), background mean \(background.meanText), "
                  + "neighbour difference mean \(String(format: "%.2f", background.roughness)) max \(background.steepest)")
            XCTAssertLessThan(background.luma, art.luma * 0.6, "\(name): the background is darker than the art")
            XCTAssertLessThan(background.roughness, 0.5, "\(name): the background is smooth")
            XCTAssertLessThanOrEqual(background.steepest, 3, "\(name): no edge or block step in the background")
            XCTAssertTrue(background.opaque)
        }
    }

    func testTheBackgroundTracksTheCoversColourDarkened() throws {
        let dir = try TempDir()
        let covers = [("red", "200+55*random(1)", "30*random(2)", "20+30*random(3)"),
                      ("blue", "20*random(1)", "40+40*random(2)", "170+80*random(3)")]
        var means: [String: [Double]] = [:]
        for (name, r, g, b) in covers {
            let cover = dir.file("\(name).png")
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "nullsrc=s=256x256,geq=r='\(r)':g='\(g)':b='\(b)'",
                                  "-frames:v", "1", "-pix_fmt", "rgb24", cover])
            let song = try F.song(dir, "\(name).m4a", cover: cover)
            let picture = SoundPicture(path: song, length: 1, canvas: landscape, look: .card(safeArea: .canvas))
            XCTAssertTrue(picture.hasCoverArt)
            let square = F.square(landscape, safeArea: .canvas)
            let art = F.Stats(try FFmpegCLI.referenceRGBA(cover, size: PixelSize(width: 256, height: 256)), outside: nil)
            let background = F.Stats(picture.image, outside: F.grown(square, by: F.reach(square)))
            print("card \(name): art mean \(art.meanText), background \(background.meanText), "
                  + "ratio \(String(format: "%.3f", background.luma / art.luma)), roughness \(String(format: "%.2f", background.roughness))")
            for c in 0..<3 {
                XCTAssertEqual(background.mean[c], art.mean[c] * CardPicture.darkening, accuracy: 4, "\(name) channel \(c)")
            }
            XCTAssertLessThan(background.roughness, 1.0, name)
            means[name] = background.mean
        }
        let red = try XCTUnwrap(means["red"]), blue = try XCTUnwrap(means["blue"])
        XCTAssertGreaterThan(red[0], 2 * max(red[1], red[2]), "a red cover gives a reddish background")
        XCTAssertGreaterThan(blue[2], 2 * max(blue[0], blue[1]), "a blue one a bluish background")
    }

    func testWithoutCoverArtThePlaceholderFillsTheSquare() throws {
        let dir = try TempDir()
        let song = try F.song(dir, "plain.mp3", cover: nil)
        let picture = SoundPicture(path: song, length: 1, canvas: landscape, look: .card(safeArea: .canvas))
        XCTAssertFalse(picture.hasCoverArt)
        XCTAssertEqual(picture.image.size, landscape)
        let square = F.square(landscape, safeArea: .canvas)
        let placeholder = SoundPicture.placeholder(size: square.size, softEdge: true)
        XCTAssertEqual(F.crop(picture.image, square), placeholder.pixels, "the placeholder, whole, in the square")
        let background = F.Stats(picture.image, outside: F.grown(square, by: F.reach(square)))
        let art = F.Stats(placeholder, outside: nil)
        print("card placeholder: mean \(art.meanText), background \(background.meanText), "
              + "roughness \(String(format: "%.2f", background.roughness)) max \(background.steepest)")
        XCTAssertLessThan(background.luma, art.luma * 0.6, "darker than the placeholder")
        XCTAssertGreaterThan(background.luma, art.luma * 0.2, "a darkened copy, not black")
        XCTAssertGreaterThan(background.mean[2], background.mean[0], "blue-grey like the placeholder")
        XCTAssertLessThan(background.roughness, 0.5)
        XCTAssertLessThanOrEqual(background.steepest, 3, "the disc is blurred to a glow")
    }

    func testLandscapeAndPortraitPutTheSquareWhereTheLayoutSays() throws {
        let dir = try TempDir()
        let cover = dir.file("green.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=0x20E040:s=100x100", "-frames:v", "1", "-pix_fmt", "rgb24", cover])
        let song = try F.song(dir, "green.mp3", cover: cover)
        var settings = OverlaySettings()
        settings.overscan = 5
        for canvas in [landscape, portrait, PixelSize(width: 1280, height: 720)] {
            let safe = settings.safeArea
            let layouts = (1...5).map { NowPlayingCard.Layout(lineCount: $0, canvas: canvas, safeArea: safe) }
            XCTAssertEqual(Set(layouts.map(\.artwork.description)).count, 1, "the square does not depend on the lines")
            let layout = try XCTUnwrap(layouts.last)
            XCTAssertEqual(layout.portrait, canvas.height > canvas.width)
            XCTAssertEqual(NowPlayingCard.Layout.artwork(canvas: canvas, safeArea: safe), layout.artwork)
            let r = layout.artwork
            let square = PixelRect(x: Int((r.x * Double(canvas.width)).rounded()), y: Int((r.y * Double(canvas.height)).rounded()),
                                   width: Int((r.maxX * Double(canvas.width)).rounded()) - Int((r.x * Double(canvas.width)).rounded()),
                                   height: Int((r.maxY * Double(canvas.height)).rounded()) - Int((r.y * Double(canvas.height)).rounded()))
            XCTAssertEqual(F.square(canvas, safeArea: safe), square, "\(canvas)")
            XCTAssertEqual(abs(square.width - square.height) <= 1, true, "\(canvas): a square in pixels: \(square)")
            let picture = SoundPicture(path: song, length: 1, canvas: canvas, look: SoundPicture.Look(overlays: settings))
            XCTAssertEqual(picture.image.size, canvas)
            let inside = F.Stats(picture.image, in: square.insetBy(1))
            XCTAssertEqual(inside.mean[0], 32, accuracy: 3, "\(canvas): the cover fills the square")
            XCTAssertEqual(inside.mean[1], 224, accuracy: 3, "\(canvas)")
            XCTAssertEqual(inside.mean[2], 64, accuracy: 3, "\(canvas)")
            // Just outside each edge, beyond the shadow: the darkened copy, not the cover.
            let gap = F.reach(square) + 2
            for probe in [PixelRect(x: square.x - gap - 4, y: square.y, width: 4, height: square.height),
                          PixelRect(x: square.maxX + gap, y: square.y, width: 4, height: square.height),
                          PixelRect(x: square.x, y: square.y - gap - 4, width: square.width, height: 4),
                          PixelRect(x: square.x, y: square.maxY + gap, width: square.width, height: 4)] {
                let outside = F.Stats(picture.image, in: probe)
                XCTAssertEqual(outside.mean[1], 224 * CardPicture.darkening, accuracy: 6, "\(canvas) \(probe)")
            }
            let edges = [F.Stats(picture.image, in: PixelRect(x: square.x, y: square.y, width: 1, height: square.height)),
                         F.Stats(picture.image, in: PixelRect(x: square.maxX - 1, y: square.y, width: 1, height: square.height))]
            for edge in edges { XCTAssertEqual(edge.mean[1], 224, accuracy: 3, "\(canvas): the square's edge is the cover's") }
        }
        let wide = F.square(landscape, safeArea: settings.safeArea), tall = F.square(portrait, safeArea: settings.safeArea)
        XCTAssertLessThan(wide.maxX, landscape.width / 2 + 10, "landscape: the square left of the text column")
        XCTAssertEqual(Double(tall.x + tall.width / 2), Double(portrait.width) / 2, accuracy: 1, "portrait: centred across")
        XCTAssertLessThan(tall.maxY, portrait.height * 3 / 5, "portrait: the square above the text")
    }

    func testWithOverlaysOffThePictureIsTodays() throws {
        let dir = try TempDir()
        var off = OverlaySettings()
        off.enabled = false
        XCTAssertEqual(SoundPicture.Look(overlays: off), .fitted)
        XCTAssertEqual(SoundPicture.Look(overlays: OverlaySettings()), .card(safeArea: .canvas))
        let small = try F.testCover(dir, "small.png", size: "300x300")
        let big = try F.testCover(dir, "big.png", size: "800x600")
        for (cover, size) in [(small, PixelSize(width: 300, height: 300)), (big, PixelSize(width: 480, height: 360))] {
            let song = try F.song(dir, "off-\(size.width).mp3", cover: cover)
            let picture = SoundPicture(path: song, length: 1, canvas: landscape, look: SoundPicture.Look(overlays: off))
            XCTAssertTrue(picture.hasCoverArt)
            XCTAssertEqual(picture.image.size, size, "the cover fitted to the canvas, never enlarged")
            XCTAssertEqual(picture.image, SoundPicture(path: song, length: 1, canvas: landscape).image, "the default look")
            if size == PixelSize(width: 300, height: 300) {
                XCTAssertEqual(picture.image.pixels, try FFmpegCLI.referenceRGBA(cover, size: size).pixels, "the cover as decoded")
            } else {
                XCTAssertGreaterThanOrEqual(ImageCompare.psnrRGB(picture.image.pixels, try FFmpegCLI.referenceRGBA(cover, size: size).pixels), 30)
            }
        }
        let plain = SoundPicture(path: try F.song(dir, "plain.mp3", cover: nil), length: 1, canvas: landscape,
                                 look: SoundPicture.Look(overlays: off))
        XCTAssertFalse(plain.hasCoverArt)
        XCTAssertEqual(plain.image, SoundPicture.placeholder(size: PixelSize(width: 480, height: 270)), "today's placeholder")
        // The player's decoder takes the look from the config.
        var config = PlayerConfig()
        config.size = landscape
        let song = try F.song(dir, "decoded.mp3", cover: small)
        XCTAssertEqual(try F.decodedPicture(song, config: config).image.size, landscape, "overlays on: the card")
        config.overlays = off
        XCTAssertEqual(try F.decodedPicture(song, config: config).image.size, PixelSize(width: 300, height: 300), "off: fitted")
    }

    func testHostileCoversGiveThePlaceholderCard() throws {
        let dir = try TempDir()
        let noise = dir.file("noise.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "nullsrc=s=200x200,geq=random(1)*255:random(2)*255:random(3)*255",
                              "-frames:v", "1", "-pix_fmt", "rgb24", noise])
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: noise)))
        let covers: [(String, [UInt8])] = [("one byte", [0x89]), ("truncated PNG", Array(png.prefix(png.count / 2))),
                                           ("PNG header only", Array(png.prefix(33)))]
        let square = F.square(landscape, safeArea: .canvas)
        let placeholder = SoundPicture.placeholder(size: square.size, softEdge: true)
        for (index, (name, bytes)) in covers.enumerated() {
            let song = try F.songWithID3Picture(dir, "hostile\(index).mp3", picture: bytes)
            let lines = LogLines()
            let picture = SoundPicture(path: song, length: 1, canvas: landscape, look: .card(safeArea: .canvas), log: lines.log)
            let logged = lines.matching("kiosk:")  // every line starts so
            print("card \(name): hasCoverArt \(picture.hasCoverArt), log \(logged)")
            XCTAssertFalse(picture.hasCoverArt, name)
            XCTAssertEqual(picture.image.size, landscape, name)
            XCTAssertEqual(F.crop(picture.image, square), placeholder.pixels, "\(name): the placeholder card")
            XCTAssertEqual(logged.count, 1, "\(name): one log line, naming the file: \(logged)")
            XCTAssertTrue(logged.first?.contains(song) ?? false, "\(logged)")
            let fitted = SoundPicture(path: song, length: 1, canvas: landscape, log: lines.log)
            XCTAssertEqual(fitted.image, SoundPicture.placeholder(size: PixelSize(width: 480, height: 270)), name)
        }
        // The same cover whole is shown: the hostile files differ only in the picture's bytes.
        let whole = SoundPicture(path: try F.songWithID3Picture(dir, "whole.mp3", picture: png), length: 1, canvas: landscape,
                                 look: .card(safeArea: .canvas))
        XCTAssertTrue(whole.hasCoverArt, "a whole PNG in the same tag is read")
    }

    /// Build times of the card picture (printed, not asserted: debug builds on shared cores vary).
    func testCardBuildTimesAtHDAnd4K() throws {
        let dir = try TempDir()
        let cover = try F.testCover(dir, "cover.png", size: "1000x1000")
        let song = try F.song(dir, "timed.mp3", cover: cover)
        let plain = try F.song(dir, "plain.mp3", cover: nil)
        for canvas in [PixelSize(width: 1920, height: 1080), PixelSize(width: 3840, height: 2160), PixelSize(width: 1080, height: 1920)] {
            for (name, path) in [("cover 1000x1000", song), ("placeholder", plain)] {
                var best = Double.infinity
                var picture: SoundPicture?
                for _ in 0..<2 {
                    let start = Date()
                    picture = SoundPicture(path: path, length: 1, canvas: canvas, look: .card(safeArea: .canvas))
                    best = min(best, Date().timeIntervalSince(start))
                }
                XCTAssertEqual(picture?.image.size, canvas)
                print(String(format: "kiosk-bench card-picture %@ %@: %.0f ms (whole SoundPicture, best of 2)",
                             canvas.description, name, best * 1000))
            }
            let art = try XCTUnwrap(try MediaFile.coverArt(song) { $0 })
            let square = F.square(canvas, safeArea: .canvas)
            let start = Date()
            _ = try CardPicture.make(art: art, canvas: canvas, square: square, path: song)
            print(String(format: "kiosk-bench card-picture %@ compose only: %.0f ms", canvas.description,
                         Date().timeIntervalSince(start) * 1000))
        }
    }
}
