import Foundation
import KioskCore
import XCTest

/// `kiosk snapshot PATH... --grid`: each tile against ffmpeg's own cover-cropped thumbnail of its item (one eye of
/// stereo, the equirect of a 360, a clip's frame at 10 %, a GIF's first frame, a song's cover art), the filter
/// chips against each item's kind, and the flags' errors.
final class GridSnapshotTests: XCTestCase {
    /// Test media of every kind, made with ffmpeg, and how ffmpeg itself makes each one's square thumbnail of side S
    /// (input options, the filter before the cover crop).
    struct Sample {
        var path: String
        var kind: String
        var input: [String] = []
        var eye = ""
        var map: [String] = []
    }

    private func samples(_ dir: TempDir) throws -> [Sample] {
        func make(_ name: String, _ args: [String]) throws -> String {
            let path = dir.file(name)
            try FFmpegCLI.ffmpeg(args + [path])
            return path
        }
        let land = try make("land.jpg", ["-f", "lavfi", "-i", "testsrc2=size=1600x900,gblur=sigma=3", "-frames:v", "1", "-q:v", "2"])
        let port = try make("port.png", ["-f", "lavfi", "-i", "testsrc2=size=600x900,hue=h=90,gblur=sigma=2", "-frames:v", "1"])
        // Stereo pairs whose eyes differ: the thumbnail must show the left (top) one only.
        let sbs = try make("pair_sbs.jpg", ["-f", "lavfi", "-i", "testsrc2=size=800x600,gblur=sigma=2", "-f", "lavfi", "-i",
                                            "color=c=0x2060c0:size=800x600", "-filter_complex", "hstack", "-frames:v", "1", "-q:v", "2"])
        let tb = try make("pair_tb.png", ["-f", "lavfi", "-i", "testsrc2=size=900x500,hue=h=200,gblur=sigma=2", "-f", "lavfi", "-i",
                                          "color=c=0xc03010:size=900x500", "-filter_complex", "vstack", "-frames:v", "1"])
        let pano = try make("pano_360.jpg", ["-f", "lavfi", "-i", "testsrc2=size=2000x1000,gblur=sigma=3", "-frames:v", "1", "-q:v", "2"])
        let clip = try make("clip.mp4", ["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=2,gblur=sigma=1.5",
                                         "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "10"])
        let gif = try make("anim.gif", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=5:duration=0.6,gblur=sigma=1.5"])
        let cover = try make("cover.png", ["-f", "lavfi", "-i", "testsrc2=size=500x500,hue=h=300,gblur=sigma=2", "-frames:v", "1"])
        let song = try make("song.mp3", ["-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-i", cover, "-map", "0", "-map", "1",
                                         "-c:a", "libmp3lame", "-c:v", "mjpeg", "-q:v", "2", "-disposition:v", "attached_pic"])
        return [Sample(path: land, kind: "image"), Sample(path: port, kind: "image"),
                Sample(path: sbs, kind: "image", eye: "crop=iw/2:ih:0:0,"), Sample(path: tb, kind: "image", eye: "crop=iw:ih/2:0:0,"),
                Sample(path: pano, kind: "image"), Sample(path: clip, kind: "video", input: ["-ss", "0.2"]),
                Sample(path: gif, kind: "animation"), Sample(path: song, kind: "audio", map: ["-map", "0:v"])]
    }

    /// ffmpeg's thumbnail of `s`: one eye, scaled to cover S×S with its area filter, centre-cropped.
    private func reference(_ s: Sample, side: Int) throws -> [UInt8] {
        let vf = "\(s.eye)scale=\(side):\(side):force_original_aspect_ratio=increase:flags=area+accurate_rnd+full_chroma_int,crop=\(side):\(side)"
        let data = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin"] + s.input + ["-i", s.path] + s.map
                                     + ["-frames:v", "1", "-vf", vf, "-pix_fmt", "rgba", "-f", "rawvideo", "-"])
        return [UInt8](data)
    }

    /// A PNG as RGBA.
    private func load(_ png: String, _ size: PixelSize) throws -> RGBAImage {
        let data = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", png, "-pix_fmt", "rgba", "-f", "rawvideo", "-"])
        return RGBAImage(size: size, pixels: [UInt8](data))
    }

    /// The layout's lines as objects.
    private func layout(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    private func rect(_ o: [String: Any]) -> PixelRect {
        PixelRect(x: o["x"] as? Int ?? -1, y: o["y"] as? Int ?? -1, width: o["width"] as? Int ?? 0, height: o["height"] as? Int ?? 0)
    }

    /// The tile's pixels in `shot`, with the badges drawn over it replaced by the reference's pixels there (a badge
    /// is text, not the thumbnail).
    private func tilePixels(_ shot: RGBAImage, _ r: PixelRect, badges: [[Int]], reference: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: r.width * r.height * 4)
        for y in 0..<r.height {
            for x in 0..<r.width {
                let cx = r.x + x, cy = r.y + y
                let covered = badges.contains { b in b.count == 4 && cx >= b[0] && cx < b[0] + b[2] && cy >= b[1] && cy < b[1] + b[3] }
                for c in 0..<4 {
                    out[(y * r.width + x) * 4 + c] = covered ? reference[(y * r.width + x) * 4 + c]
                        : shot.pixels[(cy * shot.size.width + cx) * 4 + c]
                }
            }
        }
        return out
    }

    /// Each tile's least PSNR (RGB) against ffmpeg's thumbnail: what it measured on 2026-12-03 (57.8, 50.1, 26.8,
    /// 53.2, 58.2, 37.9, 30.9, 52.8 dB) less 1 dB. A single 25 dB floor let a wrong crop or scaler pass on most tiles.
    static let tileFloors: [String: Double] = ["land.jpg": 56.8, "port.png": 49.1, "pair_sbs.jpg": 25.8, "pair_tb.png": 52.2,
                                               "pano_360.jpg": 57.2, "clip.mp4": 36.9, "anim.gif": 29.9, "song.mp3": 51.8]

    func testEveryTileMatchesFFmpegsCoverCroppedThumbnail() throws {
        let dir = try TempDir()
        let media = try samples(dir)
        let size = PixelSize(width: 1920, height: 1080)
        let shot = dir.file("grid.png"), json = dir.file("grid.jsonl")
        let r = try CLITests.run(["snapshot", "--grid", "--size", "\(size)", "--layout-json", json, "--output", shot]
                                 + media.map(\.path), timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        let picture = try load(shot, size)
        let lines = try layout(json)
        let tiles = lines.filter { $0["path"] != nil }
        XCTAssertEqual(tiles.count, media.count, "every item has a tile on a 1920x1080 grid (5 columns, 2 rows)")
        XCTAssertEqual(lines.filter { $0["chip"] != nil }.map { $0["chip"] as? String }, GridFilter.allCases.map(\.rawValue))
        for sample in media {
            let tile = try XCTUnwrap(tiles.first { $0["path"] as? String == sample.path }, sample.path)
            XCTAssertEqual(tile["kind"] as? String, sample.kind, sample.path)
            let r = rect(tile)
            XCTAssertEqual(r.width, r.height, "tiles are square")
            let want = try reference(sample, side: r.width)
            let got = tilePixels(picture, r, badges: tile["badges"] as? [[Int]] ?? [], reference: want)
            let db = ImageCompare.psnrRGB(got, want)
            print("grid tile \((sample.path as NSString).lastPathComponent): \(String(format: "%.1f", db)) dB against ffmpeg")
            let name = (sample.path as NSString).lastPathComponent
            let floor = try XCTUnwrap(Self.tileFloors[name], "no floor for \(name)")
            XCTAssertGreaterThanOrEqual(db, floor, "\(sample.path): \(db) dB against ffmpeg's thumbnail")
        }
        // The stereo tiles show one eye: the right half's flat blue is nowhere in the SBS tile's right edge.
        let sbs = rect(try XCTUnwrap(tiles.first { ($0["path"] as? String)?.hasSuffix("pair_sbs.jpg") == true }))
        let edge = (sbs.y + sbs.height / 2) * size.width + sbs.maxX - 3
        XCTAssertFalse(abs(Int(picture.pixels[edge * 4 + 2]) - 0xc0) < 12 && abs(Int(picture.pixels[edge * 4]) - 0x20) < 12,
                       "the left eye only")
        // The clip, the GIF and the song carry badges (length, play mark); the still does not.
        XCTAssertFalse((tiles.first { $0["kind"] as? String == "video" }?["badges"] as? [[Int]] ?? []).isEmpty)
        XCTAssertEqual((tiles.first { ($0["path"] as? String)?.hasSuffix("land.jpg") == true }?["badges"] as? [[Int]])?.count, 0)
    }

    func testFiltersPickTheirKindsAndScrollMovesTheRows() throws {
        let dir = try TempDir()
        let media = try samples(dir)
        let want: [String: Set<String>] = [
            "images": ["land.jpg", "port.png", "pair_sbs.jpg", "pair_tb.png", "pano_360.jpg"], "videos": ["clip.mp4"],
            "audio": ["song.mp3"], "animated": ["anim.gif"], "360": ["pano_360.jpg"],
        ]
        for (filter, names) in want {
            let json = dir.file("\(filter).jsonl")
            let r = try CLITests.run(["snapshot", "--grid", "--filter", filter, "--size", "640x360", "--layout-json", json,
                                      "--output", dir.file("\(filter).png")] + media.map(\.path), timeout: 120)
            XCTAssertEqual(r.status, 0, r.stderr)
            let lines = try layout(json)
            let shown = Set(lines.compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } })
            XCTAssertEqual(shown, names, filter)
            XCTAssertEqual(lines.first { $0["active"] as? Bool == true }?["chip"] as? String, filter)
        }
        // Scrolling one row down moves every tile up by one row's height.
        let top = dir.file("top.jsonl"), down = dir.file("down.jsonl")
        for (json, rows) in [(top, "0"), (down, "1")] {
            let r = try CLITests.run(["snapshot", "--grid", "--grid-columns", "3", "--grid-scroll", rows, "--size", "640x640",
                                      "--layout-json", json, "--output", dir.file("s.png")] + media.map(\.path) + media.map(\.path),
                                     timeout: 120)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let a = try layout(top).filter { $0["index"] as? Int == 4 }.first.map(rect)
        let b = try layout(down).filter { $0["index"] as? Int == 4 }.first.map(rect)
        let first = try layout(top).filter { $0["index"] as? Int == 1 }.first.map(rect)
        let row = try XCTUnwrap(a).y - XCTUnwrap(first).y
        XCTAssertGreaterThan(row, 0)
        XCTAssertEqual(try XCTUnwrap(b).y, try XCTUnwrap(a).y - row, "one row up")
    }

    func testBadFlagsAndFilesGetOneLine() throws {
        let dir = try TempDir()
        let good = dir.file("a.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=200x100", "-frames:v", "1", good])
        let broken = dir.file("broken.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46]).write(to: URL(fileURLWithPath: broken))
        let cases: [([String], String)] = [
            (["--grid", "--filter", "films", good], "--filter"),
            (["--filter", "videos", good], "--filter goes with --grid"),
            (["--grid"], "at least one PATH"),
            (["--grid", "--grid-columns", "0", good], "--grid-columns"),
        ]
        for (args, text) in cases {
            let r = try CLITests.run(["snapshot", "--output", dir.file("x.png"), "--size", "320x180"] + args, timeout: 60)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(text), "\(args): \(r.stderr)")
        }
        // A broken file gets a dark tile and one warning naming it; the good one is drawn.
        let r = try CLITests.run(["snapshot", "--grid", "--output", dir.file("b.png"), "--size", "320x180", good, broken], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("broken.jpg") }
        XCTAssertEqual(lines.count, 1, r.stderr)
    }
}
