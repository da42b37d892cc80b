import Foundation
import KioskCore
@testable import KioskMedia
import XCTest

/// Each kind of item's grid tile against ffmpeg's own cover-cropped thumbnail of the same file.
final class ThumbnailerTests: XCTestCase {
    let side = 160

    /// ffmpeg's tile: the eye cut out (`eye`, a crop filter's arguments), unsqueezed (`unsqueeze`, a scale's),
    /// scaled to cover `side`×`side` with area averaging and cut to the centred square; `seek` seconds in.
    func reference(_ path: String, eye: String? = nil, unsqueeze: String? = nil, seek: Double? = nil) throws -> RGBAImage {
        var vf: [String] = []
        if let eye { vf.append("crop=\(eye)") }
        if let unsqueeze { vf.append("scale=\(unsqueeze)") }
        vf += ["scale=\(side):\(side):force_original_aspect_ratio=increase:flags=area+accurate_rnd+full_chroma_int", "crop=\(side):\(side)"]
        let data = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin"] + (seek.map { ["-ss", "\($0)"] } ?? [])
                                     + ["-i", path, "-frames:v", "1", "-vf", vf.joined(separator: ","),
                                        "-pix_fmt", "rgba", "-f", "rawvideo", "-"])
        return RGBAImage(size: PixelSize(width: side, height: side), pixels: [UInt8](data))
    }

    /// The tile of `path`, checked to be `side`×`side` and opaque.
    func tile(_ path: String, _ override: String? = nil) throws -> Thumbnail {
        let o = try override.map { try ProjectionOverride(parsing: $0) }
        let t = try Thumbnailer.thumbnail(path: path, override: o, side: side)
        XCTAssertEqual(t.image.size, PixelSize(width: side, height: side), path)
        XCTAssertTrue(stride(from: 3, to: t.image.pixels.count, by: 4).allSatisfy { t.image.pixels[$0] == 255 }, "opaque: \(path)")
        XCTAssertTrue(t.facts.probed)
        return t
    }

    func assertClose(_ t: Thumbnail, _ ref: RGBAImage, _ what: String, atLeast db: Double = 25) {
        let p = ImageCompare.psnr(t.image, ref)
        XCTAssertGreaterThanOrEqual(p, db, "\(what): PSNR \(p) dB against ffmpeg")
    }

    func testLandscapeJPEGAndPortraitPNGMatchFFmpegCoverCrop() throws {
        let dir = try TempDir()
        let jpeg = dir.file("wide.jpg"), png = dir.file("tall.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=1600x900", "-frames:v", "1", "-q:v", "2", jpeg])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=600x900", "-frames:v", "1", png])
        let wide = try tile(jpeg)
        XCTAssertEqual(wide.facts, TileFacts(kind: .image))
        assertClose(wide, try reference(jpeg), "landscape JPEG")
        let tall = try tile(png)
        assertClose(tall, try reference(png), "portrait PNG")
        // The square is the centre: against the top square the picture differs.
        XCTAssertLessThan(ImageCompare.psnr(tall.image, try reference(png, eye: "600:600:0:0")), 20, "not the top of the picture")
    }

    func testSideBySideStereoShowsTheLeftEye() throws {
        let dir = try TempDir()
        let path = dir.file("pair.jpg")
        // Eyes of 800x640 scale to the tile by exactly 1/4: both sides cut the same pixels (the test pattern's
        // hard edges would make a half-pixel difference in rounding look like a different picture).
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=800x640", "-f", "lavfi", "-i", "mandelbrot=s=800x640",
                              "-filter_complex", "[0][1]hstack", "-frames:v", "1", "-q:v", "2", path])
        let t = try tile(path, "stereo=sbs")
        XCTAssertEqual(t.facts.stereo, .sbs)
        XCTAssertEqual(t.facts.projection, .flat)
        assertClose(t, try reference(path, eye: "iw/2:ih:0:0"), "left eye")
        XCTAssertLessThan(ImageCompare.psnr(t.image, try reference(path, eye: "iw/2:ih:iw/2:0")), 20, "not the right eye")
    }

    func testHalfTopBottomStereoIsUnsqueezedBeforeTheCrop() throws {
        let dir = try TempDir()
        let path = dir.file("htb.png")
        // Each eye squeezed to half height: 1600x450 stored, shown 1600x900.
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=1600x900", "-f", "lavfi", "-i", "mandelbrot=s=1600x450",
                              "-filter_complex", "[0]scale=1600:450[top];[top][1]vstack", "-frames:v", "1", path])
        let t = try tile(path, "stereo=htb")
        XCTAssertEqual(t.facts.stereo, .htb)
        assertClose(t, try reference(path, eye: "iw:ih/2:0:0", unsqueeze: "iw:ih*2"), "unsqueezed top eye")
        XCTAssertLessThan(ImageCompare.psnr(t.image, try reference(path, eye: "iw:ih/2:0:0")), 20, "not the squeezed eye")
    }

    func testEquirectShowsItsFlatPicture() throws {
        let dir = try TempDir()
        let path = dir.file("pano.jpg")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=2000x1000", "-frames:v", "1", "-q:v", "2", path])
        let t = try tile(path, "projection=equirect")
        XCTAssertEqual(t.facts.projection, .equirect)
        XCTAssertTrue(t.facts.isSphere)
        assertClose(t, try reference(path), "equirect source")
    }

    func testClipShowsItsFrameAtTenPercent() throws {
        let dir = try TempDir()
        let path = dir.file("clip.mp4")
        // Red for the first 0.2 s, so the first frame is plainly not the one at 0.4 s.
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=4,drawbox=c=red:t=fill:enable='lt(t,0.2)'",
                              "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "50", path])
        let t = try tile(path)
        XCTAssertEqual(t.facts.kind, .video)
        XCTAssertEqual(t.facts.duration ?? 0, 4, accuracy: 0.1)
        assertClose(t, try reference(path, seek: 0.4), "frame at 10 %")
        XCTAssertLessThan(ImageCompare.psnr(t.image, try reference(path)), 20, "not the first (red) frame")
    }

    func testAnimationShowsItsFirstFrameAndOnePassLength() throws {
        let dir = try TempDir()
        let path = dir.file("anim.gif")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc=s=480x320:r=10", "-frames:v", "5", path])  // 1/2 to the tile
        let t = try tile(path)
        XCTAssertEqual(t.facts.kind, .animation)
        XCTAssertEqual(t.facts.duration ?? 0, 0.5, accuracy: 0.01)
        assertClose(t, try reference(path), "first frame")
    }

    func testSoundShowsItsCoverArtElseThePlaceholder() throws {
        let dir = try TempDir()
        let cover = try CardPictureFixtures.testCover(dir, "cover.png", size: "400x300")
        let song = try CardPictureFixtures.song(dir, "song.mp3", cover: cover)
        let t = try tile(song)
        XCTAssertEqual(t.facts.kind, .audio)
        XCTAssertEqual(t.facts.duration ?? 0, 1, accuracy: 0.1)
        assertClose(t, try reference(cover), "cover art")
        let bare = try tile(try CardPictureFixtures.song(dir, "bare.mp3", cover: nil))
        XCTAssertEqual(bare.facts.kind, .audio)
        XCTAssertEqual(bare.image, SoundPicture.placeholder(size: PixelSize(width: side, height: side)))
    }

    func testLargeJPEGIsDecodedAtAReducedDCTSize() throws {
        // 6000x4000 for a 360 px tile: the square is 4000 px, so 540x360 is decoded, from a 1/8 DCT (750x500).
        let crop = ThumbnailCrop(stereo: .mono, eye: .left)
        let full = PixelSize(width: 6000, height: 4000)
        let target = crop.decodeSize(full: full, side: 360)
        XCTAssertEqual(target, PixelSize(width: 540, height: 360))
        XCTAssertEqual(FFmpegImageDecoder.lowresFactor(stored: full, target: target), 3)
        // A side-by-side pair's eye is 3000 wide, so its square is 3000 px: 720x480 is decoded, still from 1/8.
        let sbs = ThumbnailCrop(stereo: .sbs, eye: .left).decodeSize(full: full, side: 360)
        XCTAssertEqual(sbs, PixelSize(width: 720, height: 480))
        XCTAssertEqual(FFmpegImageDecoder.lowresFactor(stored: full, target: sbs), 3)
        let hsbs = ThumbnailCrop(stereo: .hsbs, eye: .left).decodeSize(full: full, side: 360)
        XCTAssertEqual(hsbs, PixelSize(width: 1080, height: 720), "a half-width eye keeps twice the columns")
        XCTAssertEqual(FFmpegImageDecoder.lowresFactor(stored: full, target: hsbs), 2)

        let dir = try TempDir()
        let path = dir.file("big.jpg")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=6000x4000", "-frames:v", "1", "-q:v", "3", path])
        let t = try tile(path)
        assertClose(t, try reference(path), "reduced-size decode")
    }

    func testCancelledBeforeDecodingAndGarbageNamesTheFile() throws {
        let dir = try TempDir()
        let path = dir.file("a.jpg")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240", "-frames:v", "1", path])
        XCTAssertThrowsError(try Thumbnailer.thumbnail(path: path, override: nil, side: 64, isCancelled: { true })) { error in
            XCTAssertEqual(error as? ThumbnailError, .cancelled(path: path))
        }
        let junk = dir.file("junk.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]).write(to: URL(fileURLWithPath: junk))
        XCTAssertThrowsError(try Thumbnailer.thumbnail(path: junk, override: nil, side: 64)) { error in
            XCTAssertEqual((error as? MediaError)?.path, junk, "\(error)")
        }
    }
}
