// Sphere projections against ffmpeg's v360 filter: the same picture from `kiosk snapshot --projection ...` as
// from `ffmpeg -vf v360=...:output=flat:interp=linear`, PSNR ≥ 45 dB in the visible area, over a grid of views, on
// a blurred fractal and on an equirect of a real photo. Set KIOSK_V360_ERRORS=DIR to get each view's error image.
import Foundation
import KioskCore
@testable import KioskPlayer
import XCTest

final class ProjectionV360Tests: XCTestCase {
    static let out = PixelSize(width: 160, height: 120)
    /// The figures of a run, printed at the end for the report.
    nonisolated(unsafe) static var figures: [String] = []

    override class func tearDown() {
        if !figures.isEmpty { print("v360 PSNR (dB):\n  " + figures.joined(separator: "\n  ")) }
        super.tearDown()
    }

    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    /// A photographic-ish picture: a blurred Mandelbrot rendering with a hue turn, as a lossless PNG.
    func source(_ dir: TempDir, _ name: String, size: String, filter: String = "null") throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "mandelbrot=size=\(size):end_pts=1", "-frames:v", "1",
                              "-vf", "gblur=sigma=1.2,\(filter)", path])
        return path
    }

    /// A photo from Debian's lomiri-wallpapers-16.04 (Kiosk/setup.sh installs it): rock, snow, grass and sky.
    static let photo = "/usr/share/backgrounds/picosdeeuropa_by_Aitzol_Berasategi.jpg"

    /// An equirect of a real photo, made by v360 itself: six crops of the photo as a 3x2 cubemap (each face 1/6 of
    /// the photo, so every direction sees photographic detail), turned into a 360x180 equirect of `size`.
    /// 2048x1024: a sphere view minifies it, where a tenth of a texel of sampling error shows (38-46 dB before the
    /// shader filtered exactly; 51-52 dB after).
    func photoEquirect(_ dir: TempDir, size: String = "2048x1024") throws -> String {
        XCTAssertTrue(FileManager.default.fileExists(atPath: Self.photo), "\(Self.photo) missing: run Kiosk/setup.sh")
        let path = dir.file("photo_360.png")
        let wh = size.split(separator: "x").compactMap { Int($0) }
        let face = try XCTUnwrap(wh.first) * 3 / 8  // about the equirect's sampling density
        try FFmpegCLI.ffmpeg(["-i", Self.photo, "-frames:v", "1", "-vf",
                              "scale=\(3 * face):\(2 * face):flags=lanczos,format=gbrp,"
                              + "v360=input=c3x2:output=e:w=\(wh[0]):h=\(wh[1]):interp=lanczos,format=rgb24", path])
        return path
    }

    /// Writes kiosk's view, v360's and their error (|difference| x 8, grey where masked) as PNGs into
    /// $KIOSK_V360_ERRORS when it is set, to look at where the two disagree.
    func writeErrorImages(_ label: String, _ k: RGBAImage, _ ref: RGBAImage) throws {
        guard let dir = ProcessInfo.processInfo.environment["KIOSK_V360_ERRORS"] else { return }
        let name = label.replacingOccurrences(of: "[^A-Za-z0-9.-]+", with: "_", options: .regularExpression)
        var err = [UInt8](repeating: 255, count: k.pixels.count)
        for i in stride(from: 0, to: k.pixels.count, by: 4) {
            for c in 0..<3 {
                err[i + c] = ref.pixels[i + 3] == 255 ? UInt8(min(255, 8 * abs(Int(k.pixels[i + c]) - Int(ref.pixels[i + c])))) : 128
            }
        }
        for (suffix, pixels) in [("kiosk", k.pixels), ("v360", ref.pixels), ("error", err)] {
            let raw = "\(dir)/\(name)-\(suffix).rgba"
            try Data(pixels).write(to: URL(fileURLWithPath: raw))
            try FFmpegCLI.ffmpeg(["-f", "rawvideo", "-pix_fmt", "rgba", "-s", Self.out.description, "-i", raw,
                                  "\(dir)/\(name)-\(suffix).png"])
            try FileManager.default.removeItem(atPath: raw)
        }
    }

    /// ffmpeg's v360 view of `input` (RGB kept out of chroma subsampling) with its coverage mask in alpha.
    func v360(_ input: String, _ options: String, prefilter: String = "") throws -> RGBAImage {
        let size = Self.out
        let vf = "\(prefilter)format=gbrap,v360=\(options):output=flat:w=\(size.width):h=\(size.height):interp=linear:alpha_mask=1,format=rgba"
        let data = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", input, "-frames:v", "1", "-vf", vf,
                                                "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        return RGBAImage(size: size, pixels: [UInt8](data))
    }

    /// kiosk's snapshot of `input` with command-line `args`, in process (the same path as the CLI).
    func kiosk(_ input: String, _ args: [String]) throws -> RGBAImage {
        let o = try ParsedOptions.parse(args + ["--size", Self.out.description, "--output", "unused.png"],
                                        specs: CommandSpecs.snapshot, command: "snapshot")
        let config = try CommandSpecs.config(from: o)
        return try PlayJob.snapshotImage(input: input, config: config, at: 0, view: FlatView(fit: config.fit, zoom: o.number("zoom") ?? 1,
                                                                        center: o.point("center") ?? .center),
                                         log: Log(level: .error))
    }

    /// PSNR over RGB where `visible` holds and ffmpeg's mask is set.
    func maskedPSNR(_ a: RGBAImage, _ b: RGBAImage, visible: (Int, Int) -> Bool = { _, _ in true }) -> (Double, Int) {
        var sum = 0.0, n = 0
        for y in 0..<a.size.height {
            for x in 0..<a.size.width where visible(x, y) {
                let i = (y * a.size.width + x) * 4
                guard b.pixels[i + 3] == 255 else { continue }
                for c in 0..<3 { let d = Double(a.pixels[i + c]) - Double(b.pixels[i + c]); sum += d * d }
                n += 3
            }
        }
        let mse = n > 0 ? sum / Double(n) : 0
        return (mse == 0 ? 99 : 10 * log10(255 * 255 / mse), n / 3)
    }

    /// The view a case uses, to know which canvas pixels a source of limited coverage sees.
    func direction(_ args: [String], x: Int, y: Int) -> (x: Double, y: Double, z: Double) {
        func value(_ flag: String) -> Double { args.firstIndex(of: flag).flatMap { Double(args[$0 + 1]) } ?? 0 }
        let fov = args.firstIndex(of: "--fov").flatMap { ProjectionOverride.parseFOV(args[$0 + 1]) }
        let view = SphereView(yaw: value("--yaw"), pitch: value("--pitch"), roll: value("--roll"),
                              hFOV: fov?.h ?? 90, vFOV: fov?.v ?? 90)
        return view.direction(u: (Double(x) + 0.5) / Double(Self.out.width), v: (Double(y) + 0.5) / Double(Self.out.height))
    }

    /// The view grid: yaw, pitch, roll, h×v field of view.
    static let views: [(Double, Double, Double, String)] = [
        (0, 0, 0, "90x70"), (30, 20, 10, "100x75"), (-120, -40, 25, "60x45"), (170, 60, -30, "120x90"),
        (-175, -85, 0, "80x60"), (90, 0, 90, "40x30"),
    ]

    func args(_ v: (Double, Double, Double, String)) -> [String] {
        ["--yaw", "\(v.0)", "--pitch", "\(v.1)", "--roll", "\(v.2)", "--fov", v.3]
    }

    func ffView(_ v: (Double, Double, Double, String)) -> String {
        let f = v.3.split(separator: "x")
        return "yaw=\(v.0):pitch=\(v.1):roll=\(v.2):h_fov=\(f[0]):v_fov=\(f[1])"
    }

    func check(_ label: String, _ k: RGBAImage, _ ref: RGBAImage, floor: Double = 45, visible: (Int, Int) -> Bool = { _, _ in true },
               file: StaticString = #filePath, line: UInt = #line) {
        let (db, n) = maskedPSNR(k, ref, visible: visible)
        Self.figures.append(String(format: "%@: %.1f (%d px)", label, db, n))
        XCTAssertNoThrow(try writeErrorImages(label, k, ref), file: file, line: line)
        XCTAssertGreaterThan(n, Self.out.width * Self.out.height / 4, "\(label): too little compared", file: file, line: line)
        XCTAssertGreaterThanOrEqual(db, floor, "\(label): \(db) dB", file: file, line: line)
    }

    /// The photo views: the view grid plus a narrow (magnifying) and a wide (minifying) field of view.
    static let photoViews: [(Double, Double, Double, String)] = views + [(45, 10, 0, "30x22.5"), (-60, 30, -15, "120x90")]

    func testEquirectOfARealPhotoMatchesV360At45dB() throws {
        let dir = try TempDir()
        let eq = try photoEquirect(dir)
        for v in Self.photoViews {
            let k = try kiosk(eq, ["--projection", "equirect", "--input-fov", "360"] + args(v))
            check("photo equirect \(ffView(v))", k, try v360(eq, "input=e:" + ffView(v)))
        }
    }

    func testEquirect360MatchesV360OverAViewGrid() throws {
        let dir = try TempDir()
        let eq = try source(dir, "pano_360.png", size: "512x256")
        for v in Self.views {
            let k = try kiosk(eq, ["--projection", "equirect", "--input-fov", "360"] + args(v))
            check("equirect 360 \(ffView(v))", k, try v360(eq, "input=e:" + ffView(v)))
        }
        // Detected from the name alone: the same picture.
        let named = try kiosk(eq, args(Self.views[1]))
        check("equirect 360 by name", named, try v360(eq, "input=e:" + ffView(Self.views[1])))
    }

    func testHalfEquirectMatchesV360WhereCoveredAndIsBackgroundBehind() throws {
        let dir = try TempDir()
        let he = try source(dir, "half.png", size: "256x256")
        let views: [(Double, Double, Double, String)] = [(0, 0, 0, "90x70"), (30, 20, 10, "100x75"), (-50, -30, 20, "60x45")]
        for v in views {
            let a = args(v)
            let k = try kiosk(he, ["--input-fov", "180"] + a)
            check("half equirect \(ffView(v))", k, try v360(he, "input=hequirect:" + ffView(v))) { x, y in
                let d = self.direction(a, x: x, y: y)
                return abs(atan2(d.x, d.z)) < 88 * .pi / 180
            }
        }
        let behind = try kiosk(he, ["--input-fov", "180", "--yaw", "180", "--fov", "60x45"])
        XCTAssertTrue(behind.pixels.enumerated().allSatisfy { $0.offset % 4 == 3 || $0.element == 0 },
                      "looking backwards at a 180 source shows only the background")
    }

    func testFisheyeMatchesV360ForInputFieldsOfView() throws {
        let dir = try TempDir()
        let eq = try source(dir, "eq.png", size: "512x256")
        for fov in [180.0, 200, 220] {
            // A fisheye photo made from the equirect by v360 (black outside its circle).
            let fish = dir.file("fish\(Int(fov)).png")
            try FFmpegCLI.ffmpeg(["-i", eq, "-vf", "v360=input=e:output=fisheye:h_fov=\(fov):v_fov=\(fov):w=256:h=256", fish])
            for v in [(0.0, 0.0, 0.0, "90x70"), (40, 30, 15, "100x75"), (-60, -20, -10, "60x45")] {
                let a = args(v)
                let k = try kiosk(fish, ["--projection", "fisheye", "--input-fov", "\(fov)"] + a)
                let ref = try v360(fish, "input=fisheye:ih_fov=\(fov):iv_fov=\(fov):" + ffView(v))
                check("fisheye \(Int(fov)) \(ffView(v))", k, ref) { x, y in
                    let d = self.direction(a, x: x, y: y)
                    return atan2((d.x * d.x + d.y * d.y).squareRoot(), d.z) < (fov / 2 - 3) * .pi / 180
                }
            }
        }
    }

    func testStereoPackingsShowTheChosenEye() throws {
        let dir = try TempDir()
        let left = try source(dir, "l.png", size: "512x256")
        let right = try source(dir, "r.png", size: "512x256", filter: "hue=h=120")
        let sbs = dir.file("pair_sbs.png"), tb = dir.file("pair_tb.png")
        try FFmpegCLI.ffmpeg(["-i", left, "-i", right, "-filter_complex", "hstack", sbs])
        try FFmpegCLI.ffmpeg(["-i", left, "-i", right, "-filter_complex", "vstack", tb])
        let v = Self.views[1]
        let leftRef = try v360(left, "input=e:" + ffView(v))
        let rightRef = try v360(right, "input=e:" + ffView(v))
        // v360 in_stereo shows the first eye.
        check("sbs (v360 in_stereo=sbs)", try kiosk(sbs, ["--projection", "equirect", "--stereo", "sbs"] + args(v)),
              try v360(sbs, "input=e:in_stereo=sbs:" + ffView(v)))
        check("tb (v360 in_stereo=tb)", try kiosk(tb, ["--projection", "equirect", "--stereo", "tb"] + args(v)),
              try v360(tb, "input=e:in_stereo=tb:" + ffView(v)))
        check("sbs left eye", try kiosk(sbs, ["--projection", "equirect", "--stereo", "sbs", "--eye", "left"] + args(v)), leftRef)
        check("sbs right eye", try kiosk(sbs, ["--projection", "equirect", "--stereo", "sbs", "--eye", "right"] + args(v)), rightRef)
        check("tb right eye", try kiosk(tb, ["--projection", "equirect", "--stereo", "tb", "--eye", "right"] + args(v)), rightRef)
        // The half-resolution layouts sample the same rectangles; names decide when no flag does.
        check("hsbs right eye", try kiosk(sbs, ["--projection", "equirect", "--stereo", "hsbs", "--eye", "right"] + args(v)), rightRef)
        let named = dir.file("trip_360_tb.png")
        try FileManager.default.copyItem(atPath: tb, toPath: named)
        check("by name _360_tb", try kiosk(named, args(v)), leftRef)
    }

    func testPicturesBeyondTheTextureLimitAreScaledDownNotRefused() throws {
        var config = PlayerConfig()
        config.projection.kind = .equirect
        let item = ItemView(path: "/p/a.jpg", metadata: nil, itemOverride: nil, config: config)
        let image = RGBAImage(size: PixelSize(width: 256, height: 128), fill: (10, 20, 30, 255))
        XCTAssertEqual(try item.picture(image, maxSide: 64).size, PixelSize(width: 64, height: 32))
        XCTAssertEqual(try item.picture(image, maxSide: 4096).size, image.size)
        var stereo = ProjectionOverride()
        stereo.stereo = .tb
        let crop = ItemView(path: "/p/b.jpg", metadata: nil, itemOverride: stereo, config: PlayerConfig())
        XCTAssertEqual(try crop.picture(image, maxSide: 4096).size, PixelSize(width: 256, height: 64), "the flat crop of one eye")
    }

    func testFlatCropOfOneEyeIsThatEyeFlatAndZoomsLikeIt() throws {
        let dir = try TempDir()
        let left = try source(dir, "l.png", size: "320x240")
        let right = try source(dir, "r.png", size: "320x240", filter: "hue=h=120")
        let sbs = dir.file("photo_sbs.png")
        try FFmpegCLI.ffmpeg(["-i", left, "-i", right, "-filter_complex", "hstack", sbs])
        let whole = try kiosk(right, [])
        let crop = try kiosk(sbs, ["--eye", "right"])
        XCTAssertGreaterThan(ImageCompare.psnrRGB(whole.pixels, crop.pixels), 40, "flat crop of the right eye")
        let zoomedEye = try kiosk(right, ["--zoom", "2", "--center", "0.3,0.4"])
        let zoomedCrop = try kiosk(sbs, ["--eye", "right", "--zoom", "2", "--center", "0.3,0.4"])
        XCTAssertGreaterThan(ImageCompare.psnrRGB(zoomedEye.pixels, zoomedCrop.pixels), 40, "zoomed flat crop")
    }
}
