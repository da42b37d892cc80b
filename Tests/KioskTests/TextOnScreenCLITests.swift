import Foundation
import KioskCore
import XCTest

/// Text on screen end to end, read back by tesseract: `kiosk snapshot` and `kiosk record` of real photos (Debian's
/// lomiri wallpapers) with captions from a sidecar and from EXIF through a FORMAT, and the clock in simulated
/// time. What kiosk drew is found as the difference from the same frame with `--no-overlays`, then read.
final class TextOnScreenCLITests: XCTestCase {
    private let photos = ["Bridge_by_Sander_Klootwijk.jpg", "Dragonfly_by_Bolly.jpg", "Picture_0B_by_freespace.jpg"]
        .map { "/usr/share/backgrounds/" + $0 }

    /// `kiosk snapshot` of `photo` with `flags`, and without overlays; both as pictures.
    private func snapshots(_ photo: String, _ size: PixelSize, _ flags: [String], dir: TempDir, name: String)
        throws -> (overlaid: RGBAImage, plain: RGBAImage) {
        var out: [RGBAImage] = []
        for (suffix, extra) in [("on", flags), ("off", flags + ["--no-overlays"])] {
            let png = dir.file("\(name)-\(suffix).png")
            let r = try CLITests.run(["snapshot", photo, "--size", "\(size.width)x\(size.height)", "--output", png] + extra,
                                     timeout: 60)
            XCTAssertEqual(r.status, 0, r.stderr)
            out.append(try OverlayOCR.load(png, size: size))
        }
        return (out[0], out[1])
    }

    func testCaptionsAreReadBackFromSnapshotsOfBusyPhotosAtSeveralSizesAndPlaces() throws {
        for p in photos { XCTAssertTrue(FileManager.default.fileExists(atPath: p), "\(p) (lomiri-wallpapers-16.04, Kiosk/setup.sh)") }
        let dir = try TempDir()
        let cases: [(photo: Int, caption: String, position: String, size: Double, canvas: PixelSize)] = [
            (0, "Harbour at dawn 2026", "bottom", 0.05, PixelSize(width: 960, height: 540)),
            (1, "Dragonfly by the pond", "top", 0.07, PixelSize(width: 960, height: 540)),
            (2, "Museum opens at 10:00", "bottom", 0.04, PixelSize(width: 1280, height: 720)),
            (0, "Market square in May", "top", 0.09, PixelSize(width: 1280, height: 720)),
        ]
        for (n, c) in cases.enumerated() {
            let photo = dir.file("photo\(n).jpg")
            try FileManager.default.copyItem(atPath: photos[c.photo], toPath: photo)
            try c.caption.write(toFile: dir.file("photo\(n).txt"), atomically: true, encoding: .utf8)  // the sidecar
            let shots = try snapshots(photo, c.canvas, ["--captions", "--caption-position", c.position,
                                                        "--caption-size", "\(c.size)"], dir: dir, name: "case\(n)")
            let half = PixelRect(x: 0, y: c.position == "top" ? 0 : c.canvas.height / 2, width: c.canvas.width,
                                 height: c.canvas.height / 2)
            guard let box = OverlayOCR.drawnBox(shots.overlaid, shots.plain, within: half) else {
                XCTFail("case \(n): no caption drawn at the \(c.position)")
                continue
            }
            XCTAssertNil(OverlayOCR.drawnBox(shots.overlaid, shots.plain,
                                             within: PixelRect(x: 0, y: c.position == "top" ? c.canvas.height / 2 : 0,
                                                               width: c.canvas.width, height: c.canvas.height / 2)),
                         "case \(n): nothing is drawn in the other half")
            XCTAssertEqual(Double(box.height), c.size * Double(c.canvas.height) * 1.7, accuracy: c.size * Double(c.canvas.height),
                           "case \(n): the caption's box is about its size")
            XCTAssertEqual(try OverlayOCR.read(shots.overlaid, box, name: "case\(n)", in: dir.path), c.caption, "case \(n)")
        }
    }

    /// `--text-box 0` leaves the box out: the caption changes only its letters, their outline and shadow (and is
    /// still read back); the default box darkens the whole rectangle behind it.
    func testTheBoxBehindTextIsOptional() throws {
        let dir = try TempDir()
        let photo = dir.file("photo.jpg")
        try FileManager.default.copyItem(atPath: photos[0], toPath: photo)
        try "Harbour at dawn 2026".write(toFile: dir.file("photo.txt"), atomically: true, encoding: .utf8)
        let size = PixelSize(width: 960, height: 540)
        func changedShare(_ shots: (overlaid: RGBAImage, plain: RGBAImage), _ box: PixelRect) -> Double {
            var changed = 0
            for y in box.y..<box.maxY {
                for x in box.x..<box.maxX {
                    let i = (y * size.width + x) * 4
                    if (0..<3).contains(where: { abs(Int(shots.overlaid.pixels[i + $0]) - Int(shots.plain.pixels[i + $0])) > 8 }) {
                        changed += 1
                    }
                }
            }
            return Double(changed) / Double(box.width * box.height)
        }
        let boxed = try snapshots(photo, size, ["--captions"], dir: dir, name: "boxed")
        let bare = try snapshots(photo, size, ["--captions", "--text-box", "0"], dir: dir, name: "bare")
        let boxedArea = try XCTUnwrap(OverlayOCR.drawnBox(boxed.overlaid, boxed.plain))
        let bareArea = try XCTUnwrap(OverlayOCR.drawnBox(bare.overlaid, bare.plain))
        let withBox = changedShare(boxed, boxedArea), without = changedShare(bare, bareArea)
        XCTAssertGreaterThan(withBox, 0.97, "the box darkens the whole rectangle")
        XCTAssertLessThan(without, 0.85, "without it only the letters, their outline and soft shadow change")
        XCTAssertEqual(try OverlayOCR.read(bare.overlaid, bareArea, name: "bare", in: dir.path), "Harbour at dawn 2026")
    }

    /// `--caption FORMAT` with the file's name and its EXIF date (written by exiftool), drawn and read back.
    func testAFormatWithTheFileNameAndItsExifDate() throws {
        let dir = try TempDir()
        let photo = dir.file("Lisbon.jpg")
        try FileManager.default.copyItem(atPath: photos[1], toPath: photo)
        try CaptionFixtures.exiftool(photo, ["-EXIF:DateTimeOriginal=2026:12:24 08:30:00"])
        let size = PixelSize(width: 960, height: 540)
        let shots = try snapshots(photo, size, ["--caption", "{filename} {date:%d %B %Y}"], dir: dir, name: "format")
        let box = try XCTUnwrap(OverlayOCR.drawnBox(shots.overlaid, shots.plain))
        XCTAssertEqual(try OverlayOCR.read(shots.overlaid, box, name: "format", in: dir.path), "Lisbon 24 December 2026")
    }

    /// The clock follows `--start-time`: a snapshot at 08:59:50 Berlin time shows 08:59 top right, and a
    /// recording's seconds count on from there.
    func testTheClockInSimulatedTime() throws {
        let dir = try TempDir()
        let size = PixelSize(width: 960, height: 540)
        let shots = try snapshots(photos[2], size, ["--clock", "%H:%M", "--start-time", "2026-12-24T08:59:50",
                                                    "--timezone", "Europe/Berlin"], dir: dir, name: "clock")
        let corner = PixelRect(x: size.width / 2, y: 0, width: size.width / 2, height: size.height / 4)
        let box = try XCTUnwrap(OverlayOCR.drawnBox(shots.overlaid, shots.plain, within: corner), "no clock top right")
        XCTAssertNil(OverlayOCR.drawnBox(shots.overlaid, shots.plain,
                                         within: PixelRect(x: 0, y: size.height / 4, width: size.width, height: size.height * 3 / 4)))
        XCTAssertEqual(try OverlayOCR.read(shots.overlaid, box, name: "clock", in: dir.path), "08:59")

        var frames: [[RGBAImage]] = []
        for (name, extra) in [("on", [String]()), ("off", ["--no-overlays"])] {
            let out = dir.file("clock-\(name).y4m")
            let r = try CLITests.run(["record", photos[2], "--clock", "%H:%M:%S", "--start-time", "2026-12-24T08:59:58",
                                      "--timezone", "Europe/Berlin", "--size", "960x540", "--fps", "2", "--length", "3",
                                      "--output", out] + extra, timeout: 120)
            XCTAssertEqual(r.status, 0, r.stderr)
            frames.append(try FFmpegCLI.referenceFrames(out, size: size))
        }
        XCTAssertEqual(frames[0].count, 6)
        for (i, want) in [(0, "08:59:58"), (2, "08:59:59"), (4, "09:00:00"), (5, "09:00:00")] {
            guard i < frames[0].count, i < frames[1].count,
                  let box = OverlayOCR.drawnBox(frames[0][i], frames[1][i], within: corner) else {
                XCTFail("frame \(i): no clock")
                continue
            }
            XCTAssertEqual(try OverlayOCR.read(frames[0][i], box, name: "rec\(i)", in: dir.path), want, "frame \(i) (\(Double(i) / 2) s)")
        }
    }
}
