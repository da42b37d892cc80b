import XCTest
@testable import KioskCore
import KioskMedia

/// View maths, orientation and option parsing: pure functions, exact values.
final class CoreGeometryTests: XCTestCase {
    func testContainLetterboxesWidePicture() {
        let t = FlatView(fit: .contain).transform(picture: PixelSize(width: 400, height: 100),
                                                  canvas: PixelSize(width: 200, height: 200))
        // the picture is 1 canvas wide and 0.25 high, centred: canvas y 0.375 -> picture 0, 0.625 -> 1
        XCTAssertEqual(t.apply(UnitPoint(x: 0, y: 0.375)).y, 0, accuracy: 1e-12)
        XCTAssertEqual(t.apply(UnitPoint(x: 1, y: 0.625)).y, 1, accuracy: 1e-12)
        XCTAssertEqual(t.apply(UnitPoint(x: 1, y: 0.5)).x, 1, accuracy: 1e-12)
    }

    func testCoverCropsAndFillStretches() {
        let cover = FlatView(fit: .cover).transform(picture: PixelSize(width: 400, height: 100),
                                                    canvas: PixelSize(width: 200, height: 200))
        XCTAssertEqual(cover.apply(UnitPoint(x: 0, y: 0)).x, 0.375, accuracy: 1e-12)
        XCTAssertEqual(cover.apply(UnitPoint(x: 1, y: 1)).y, 1, accuracy: 1e-12)
        XCTAssertEqual(FlatView(fit: .fill).transform(picture: PixelSize(width: 400, height: 100),
                                                      canvas: PixelSize(width: 200, height: 200)), .identity)
    }

    func testZoomIsClampedSoNoBackgroundShows() {
        let v = FlatView(fit: .contain, zoom: 2, center: UnitPoint(x: 0, y: 0))
        let t = v.transform(picture: PixelSize(width: 100, height: 100), canvas: PixelSize(width: 100, height: 100))
        // zoom 2 at the top-left corner: the canvas shows picture 0..0.5, never beyond the edge
        XCTAssertEqual(t.apply(UnitPoint(x: 0, y: 0)).x, 0, accuracy: 1e-12)
        XCTAssertEqual(t.apply(UnitPoint(x: 1, y: 1)).x, 0.5, accuracy: 1e-12)
        // beyond 4x is clamped to 4x
        let big = FlatView(zoom: 9).transform(picture: PixelSize(width: 100, height: 100), canvas: PixelSize(width: 100, height: 100))
        XCTAssertEqual(big.scaleX, 0.25, accuracy: 1e-12)
        // a letterboxed axis that is still smaller than the canvas stays centred
        let wide = FlatView(fit: .contain, zoom: 2, center: UnitPoint(x: 0.5, y: 0))
            .transform(picture: PixelSize(width: 400, height: 100), canvas: PixelSize(width: 200, height: 200))
        XCTAssertEqual(wide.apply(UnitPoint(x: 0.5, y: 0.5)).y, 0.5, accuracy: 1e-12)
    }

    func testDecodeSizeNeverExceedsPictureAndKeepsAspect() {
        let s = FlatView.decodeSize(picture: PixelSize(width: 6000, height: 4000), canvas: PixelSize(width: 1920, height: 1080), fit: .contain)
        XCTAssertEqual(s, PixelSize(width: 1620, height: 1080))
        let c = FlatView.decodeSize(picture: PixelSize(width: 6000, height: 4000), canvas: PixelSize(width: 1920, height: 1080), fit: .cover)
        XCTAssertEqual(c, PixelSize(width: 1920, height: 1280))
        XCTAssertEqual(FlatView.decodeSize(picture: PixelSize(width: 100, height: 50), canvas: PixelSize(width: 1920, height: 1080), fit: .contain),
                       PixelSize(width: 100, height: 50))
    }

    func testAllEightOrientations() {
        // stored 3x2: pixel value = index
        let stored = RGBAImage(size: PixelSize(width: 3, height: 2), pixels: (0..<6).flatMap { [UInt8($0), 0, 0, 255] })
        func red(_ img: RGBAImage) -> [[Int]] {
            (0..<img.size.height).map { y in (0..<img.size.width).map { x in Int(img.pixels[(y * img.size.width + x) * 4]) } }
        }
        let expect: [Orientation: [[Int]]] = [
            .up: [[0, 1, 2], [3, 4, 5]],
            .upMirrored: [[2, 1, 0], [5, 4, 3]],
            .down: [[5, 4, 3], [2, 1, 0]],
            .downMirrored: [[3, 4, 5], [0, 1, 2]],
            .leftMirrored: [[0, 3], [1, 4], [2, 5]],
            .right: [[3, 0], [4, 1], [5, 2]],
            .rightMirrored: [[5, 2], [4, 1], [3, 0]],
            .left: [[2, 5], [1, 4], [0, 3]],
        ]
        for o in Orientation.allCases {
            XCTAssertEqual(red(o.apply(to: stored)), expect[o], "orientation \(o.rawValue)")
        }
    }

    func testOptionParsingNamesBadFlags() throws {
        let specs = CommandSpecs.play
        let o = try ParsedOptions.parse(["a.jpg", "--duration", "2.5", "--fit=cover", "--no-loop", "dir"], specs: specs, command: "play")
        XCTAssertEqual(o.positional, ["a.jpg", "dir"])
        let c = try CommandSpecs.config(from: o)
        XCTAssertEqual(c.slideshow.duration, 2.5)
        XCTAssertEqual(c.fit, .cover)
        XCTAssertFalse(c.slideshow.loop)
        func usage(_ args: [String]) -> String {
            do { _ = try CommandSpecs.config(from: ParsedOptions.parse(args, specs: specs, command: "play")); return "" } catch { return "\(error)" }
        }
        XCTAssertTrue(usage(["--duration", "abc"]).contains("--duration"))
        XCTAssertTrue(usage(["--duration", "-1"]).contains("out of range"))
        XCTAssertTrue(usage(["--fit", "squash"]).contains("--fit"))
        XCTAssertTrue(usage(["--bogus"]).contains("--bogus"))
        XCTAssertTrue(usage(["--size", "10x"]).contains("--size"))
        XCTAssertTrue(usage(["--background", "red"]).contains("--background"))
        XCTAssertTrue(usage(["--duration"]).contains("needs a value"))
        XCTAssertTrue(usage(["--loop", "--no-loop"]).contains("contradict"))
    }

    func testM3UTextBecomesEntriesWithoutTouchingFiles() {
        let lines = LockedLines()
        let text = "\u{FEFF}#EXTM3U\n#EXTINF:7,Title\nb.jpg\r\n\nfile:///abs/c.gif\n#EXTKIOSK:projection=nonsense\nsub/d.png\n"
        let items = M3U.entries(in: text, base: "/nowhere/lists", source: "x.m3u", log: Log(level: .warn, sink: { lines.append($0) }))
        XCTAssertEqual(items.map(\.path), ["/nowhere/lists/b.jpg", "/abs/c.gif", "/nowhere/lists/sub/d.png"])
        XCTAssertEqual(items.map(\.duration), [7, nil, nil])
        XCTAssertTrue(lines.all.contains { $0.contains("x.m3u: #EXTKIOSK:projection=nonsense: ignored") }, "\(lines.all)")
    }

    func testMediaExtensionsAreOneList() {
        XCTAssertTrue(MediaExtensions.isPicture("/a/B.JPG"))
        XCTAssertFalse(MediaExtensions.isPicture("/a/b.mp4"))
        XCTAssertTrue(MediaExtensions.isMedia("/a/b.mp4") && MediaExtensions.isMedia("x.opus") && MediaExtensions.isMedia("y.apng"))
        XCTAssertFalse(MediaExtensions.isMedia("notes.txt") || MediaExtensions.isMedia("list.m3u"))
        XCTAssertTrue(MediaExtensions.pictures.isDisjoint(with: MediaExtensions.clips.union(MediaExtensions.sounds)))
        XCTAssertTrue(MediaExtensions.clips.isDisjoint(with: MediaExtensions.sounds))
    }

    func testPlaylistExpandsFoldersAndM3U() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-pl-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        for f in ["b.jpg", "a10.png", "a2.png", "sub/c.gif", "notes.txt", ".hidden.jpg"] {
            _ = FileManager.default.createFile(atPath: dir + "/" + f, contents: Data([1]))
        }
        try "#EXTM3U\n#EXTINF:7,Title\nb.jpg\n\nsub/c.gif\n/abs/missing.jpg\n".write(toFile: dir + "/list.m3u", atomically: true, encoding: .utf8)
        let lines = LockedLines()
        let log = Log(level: .warn, sink: { lines.append($0) })
        let loader = PlaylistLoader(log: log)
        XCTAssertEqual(loader.load([dir]).map { ($0.path as NSString).lastPathComponent }, ["a2.png", "a10.png", "b.jpg", "c.gif"])
        let m = loader.load([dir + "/list.m3u", dir + "/nope.jpg"])
        XCTAssertEqual(m.map(\.path), [dir + "/b.jpg", dir + "/sub/c.gif"])
        XCTAssertEqual(m[0].duration, 7)
        XCTAssertNil(m[1].duration)
        XCTAssertTrue(lines.all.contains { $0.contains("missing.jpg") && $0.contains("no such file") })
        XCTAssertTrue(lines.all.contains { $0.contains("nope.jpg") })
    }
}

/// Collects log lines from any thread.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ s: String) { lock.lock(); lines.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}

/// The appliance config file maps onto the same option tables as the command line.
final class ConfigFileTests: XCTestCase {
    func testConfigLinesBecomeOptionsAndPaths() throws {
        let text = """
        # comment
        path = /srv/media   # trailing comment
        duration = 8
        shuffle = true
        ken-burns = no
        background = "#102030"
        path = extra.m3u
        """
        let args = try ConfigFile.arguments(from: text, file: "k.conf")
        XCTAssertEqual(args, ["--duration", "8", "--shuffle", "--background", "#102030", "/srv/media", "extra.m3u"])
        let parsed = try ParsedOptions.parse(args + ["--duration", "3"], specs: CommandSpecs.play, command: "play")
        XCTAssertEqual(try CommandSpecs.config(from: parsed).slideshow.duration, 3, "the command line after --config wins")
        XCTAssertEqual(try ConfigFile.arguments(from: "background = #abcdef # note", file: "k.conf"), ["--background", "#abcdef"])
        XCTAssertThrowsError(try ConfigFile.arguments(from: "duration 8", file: "k.conf")) { e in
            XCTAssertTrue("\(e)".contains("k.conf:1"), "\(e)")
        }
        let expanded = try ConfigFile.expand(["a.jpg", "--config", "k.conf", "--no-loop"], read: { $0 == "k.conf" ? "fit = cover" : nil })
        XCTAssertEqual(expanded, ["a.jpg", "--fit", "cover", "--no-loop"])
        XCTAssertThrowsError(try ConfigFile.expand(["--config", "missing.conf"], read: { _ in nil }))
    }
}
