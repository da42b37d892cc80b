// The pure projection model: file-name detection (tokens, never parts of words), #EXTKIOSK overrides and their
// precedence over metadata and names, the sphere view's rotation and limits, effect specs and eye crops.
import Foundation
import XCTest
@testable import KioskCore
import KioskMedia
import KioskPlayer
import KioskRender

final class CoreProjectionTests: XCTestCase {
    func detect(_ name: String) -> ItemProjection? { ProjectionDetector.detect(path: "/photos/" + name) }

    func testNameTokensDetectProjectionAndStereo() {
        XCTAssertEqual(detect("beach_360.jpg"), ItemProjection(kind: .equirect, inputFOV: 360))
        XCTAssertEqual(detect("Beach-360x180.JPG"), ItemProjection(kind: .equirect, inputFOV: 360))
        XCTAssertEqual(detect("temple_180.jpg"), ItemProjection(kind: .equirect, inputFOV: 180))
        XCTAssertEqual(detect("temple 180x180 SBS.png"), ItemProjection(kind: .equirect, inputFOV: 180, stereo: .sbs))
        XCTAssertEqual(detect("trip_360_tb.jpg"), ItemProjection(kind: .equirect, stereo: .tb))
        XCTAssertEqual(detect("trip_360_ou.jpg")?.stereo, .tb)
        XCTAssertEqual(detect("trip_360_3dv.jpg")?.stereo, .tb)
        XCTAssertEqual(detect("trip_360_3dh.jpg")?.stereo, .sbs)
        XCTAssertEqual(detect("trip_360_lr.jpg")?.stereo, .sbs)
        XCTAssertEqual(detect("trip_360_hsbs.jpg")?.stereo, .hsbs)
        XCTAssertEqual(detect("trip_360_htb.jpg")?.stereo, .htb)
        XCTAssertEqual(detect("trip_360_hou.jpg")?.stereo, .htb)
        XCTAssertEqual(detect("dome_fisheye.jpg"), ItemProjection(kind: .fisheye, inputFOV: 180))
        XCTAssertEqual(detect("dome_fisheye190.jpg"), ItemProjection(kind: .fisheye, inputFOV: 190))
        XCTAssertEqual(detect("dome.FISHEYE220.jpg"), ItemProjection(kind: .fisheye, inputFOV: 220))
        // Stereo alone: the flat crop of one eye.
        XCTAssertEqual(detect("portrait_sbs.jpg"), ItemProjection(kind: .flat, stereo: .sbs))
        XCTAssertEqual(detect("pano_360_mono.jpg"), ItemProjection(kind: .equirect))
        // The folder does not count, the extension does not count.
        XCTAssertNil(ProjectionDetector.detect(path: "/trips_360/sbs/beach.jpg"))
        XCTAssertNil(detect("beach.360"))
    }

    func testWordsContainingTokensAreNotMatches() {
        for name in ["my360party.jpg", "sbsolete.png", "tbone.jpg", "lrdp.jpg", "house1800.jpg", "fisheyes.jpg",
                     "fisheye250.jpg", "fisheye170.jpg", "3601.jpg", "holiday.jpg", "out.png", "x180y.jpg", "ou812.jpg"] {
            XCTAssertNil(detect(name), name)
        }
    }

    func testOverrideParsingNamesTheBadKeyOrValue() throws {
        let o = try ProjectionOverride(parsing: "projection=equirect, input-fov=180,stereo=sbs,eye=right,yaw=30,fov=100x75")
        XCTAssertEqual(o.kind, .equirect)
        XCTAssertEqual(o.inputFOV, 180)
        XCTAssertEqual(o.stereo, .sbs)
        XCTAssertEqual(o.eye, .right)
        XCTAssertEqual(o.yaw, 30)
        XCTAssertEqual(o.fov?.h, 100)
        XCTAssertEqual(o.fov?.v, 75)
        func message(_ text: String) -> String {
            do { _ = try ProjectionOverride(parsing: text); return "" } catch { return "\(error)" }
        }
        XCTAssertTrue(message("projection=cube").contains("projection"))
        XCTAssertTrue(message("pitch=100").contains("pitch"))
        XCTAssertTrue(message("zoom=2").contains("zoom"))
        XCTAssertTrue(message("eye").contains("key=value"))
        XCTAssertTrue(message("fov=10").contains("fov"))
        var fish = ProjectionOverride()
        fish.kind = .fisheye
        fish.inputFOV = 300
        XCTAssertThrowsError(try fish.validate())
    }

    func testOverrideWinsOverMetadataWhichWinsOverTheName() {
        let path = "/p/pano_360.jpg"
        XCTAssertEqual(ProjectionResolver.decide(path: "/p/plain.jpg", metadata: nil, override: nil),
                       ProjectionDecision(projection: .flat, source: .none))
        XCTAssertEqual(ProjectionResolver.decide(path: path, metadata: nil, override: nil).source, .name)
        let meta = ProjectionMetadata(kind: .equirect, inputFOV: 180, stereo: .tb)
        let m = ProjectionResolver.decide(path: path, metadata: meta, override: nil)
        XCTAssertEqual(m, ProjectionDecision(projection: ItemProjection(kind: .equirect, inputFOV: 180, stereo: .tb), source: .metadata))
        var o = ProjectionOverride()
        o.eye = .right
        let r = ProjectionResolver.decide(path: path, metadata: meta, override: o)
        XCTAssertEqual(r, ProjectionDecision(projection: ItemProjection(kind: .equirect, inputFOV: 180, stereo: .tb, eye: .right),
                                             source: .override))
        // A view-only override leaves the decision's source alone; an input FOV alone makes a flat item an equirect.
        var view = ProjectionOverride()
        view.yaw = 20
        XCTAssertEqual(ProjectionResolver.decide(path: path, metadata: nil, override: view).source, .name)
        var half = ProjectionOverride()
        half.inputFOV = 180
        XCTAssertEqual(ProjectionResolver.decide(path: "/p/plain.jpg", metadata: nil, override: half).projection,
                       ItemProjection(kind: .equirect, inputFOV: 180))
        // Unsupported metadata (a cubemap) shows flat and says why.
        let cube = ProjectionResolver.decide(path: path, metadata: ProjectionMetadata(unsupported: "cubemap"), override: nil)
        XCTAssertEqual(cube.projection, .flat)
        XCTAssertEqual(cube.unsupported, "cubemap")
        XCTAssertEqual(cube.source, .metadata)
    }

    func testPlaylistKioskLinesApplyToTheNextEntryOnly() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-proj-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for f in ["a.jpg", "b.jpg", "c.jpg"] { _ = FileManager.default.createFile(atPath: dir + "/" + f, contents: Data([1])) }
        try """
        #EXTM3U
        #EXTKIOSK:projection=equirect,input-fov=180
        #EXTINF:4,
        #EXTKIOSK:stereo=sbs,eye=right,yaw=30
        a.jpg
        b.jpg
        #EXTKIOSK:projection=sphere
        c.jpg
        """.write(toFile: dir + "/list.m3u", atomically: true, encoding: .utf8)
        let lines = LockedLines()
        let items = PlaylistLoader(log: Log(level: .warn, sink: { lines.append($0) })).load([dir + "/list.m3u"])
        XCTAssertEqual(items.count, 3)
        var expected = try ProjectionOverride(parsing: "projection=equirect,input-fov=180,stereo=sbs,eye=right,yaw=30")
        XCTAssertEqual(items[0].override, expected)
        XCTAssertEqual(items[0].duration, 4)
        XCTAssertNil(items[1].override)
        XCTAssertNil(items[2].override)
        XCTAssertTrue(lines.all.contains { $0.contains("list.m3u") && $0.contains("projection=sphere") && $0.contains("ignored") },
                      "\(lines.all)")
        expected.yaw = nil
        XCTAssertNotEqual(items[0].override, expected)
    }

    func testSphereViewRotationFollowsV360() {
        // Yaw 90: the view centre looks along +x (right); pitch 90: along -y (up); roll turns the picture.
        let right = SphereView(yaw: 90).direction(u: 0.5, v: 0.5)
        XCTAssertEqual(right.x, 1, accuracy: 1e-12)
        XCTAssertEqual(right.z, 0, accuracy: 1e-12)
        let up = SphereView(pitch: 90).direction(u: 0.5, v: 0.5)
        XCTAssertEqual(up.y, -1, accuracy: 1e-12)
        // Roll 90: the canvas' right edge point looks down (+y).
        let rolled = SphereView(roll: 90, hFOV: 90, vFOV: 90).direction(u: 1, v: 0.5)
        XCTAssertEqual(rolled.y, 1 / 2.0.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(rolled.x, 0, accuracy: 1e-12)
        // Order: yaw after pitch (Ry·Rx): pitch 90 then yaw 90 still looks straight up.
        let upThenTurn = SphereView(yaw: 90, pitch: 90).direction(u: 0.5, v: 0.5)
        XCTAssertEqual(upThenTurn.y, -1, accuracy: 1e-12)
        // The column-major form is the transpose of the row-major one.
        let v = SphereView(yaw: 12, pitch: 34, roll: 56)
        XCTAssertEqual(v.rotationColumnMajor[1], v.rotation[3], accuracy: 1e-15)
    }

    func testSphereViewLimitsPanDragAndPinch() {
        let v = SphereView(yaw: 190, pitch: 120, roll: -200, hFOV: 150, vFOV: 10).clamped
        XCTAssertEqual(v.yaw, -170, accuracy: 1e-9)
        XCTAssertEqual(v.pitch, 90)
        XCTAssertEqual(v.roll, 160, accuracy: 1e-9)
        XCTAssertEqual(v.hFOV, 120)
        XCTAssertEqual(v.vFOV, 20)
        XCTAssertEqual(SphereView(yaw: 179).panned(yawBy: 3).yaw, -178, accuracy: 1e-9)
        XCTAssertEqual(SphereView(yaw: 10).panned(yawBy: -3 * 10).yaw, -20, accuracy: 1e-9)
        let canvas = PixelSize(width: 1600, height: 900)
        let start = SphereView(hFOV: 90, canvas: canvas)
        XCTAssertEqual(start.vFOV, atan(tan(.pi / 4) * 9 / 16) * 360 / .pi, accuracy: 1e-9)
        // Dragging right by the canvas width turns left by the field of view; dragging can't pass the pole.
        XCTAssertEqual(start.dragged(dx: 1600, dy: 0, canvas: canvas).yaw, -90, accuracy: 1e-9)
        XCTAssertEqual(start.dragged(dx: 0, dy: 900 * 5, canvas: canvas).pitch, 90)
        // Pinching narrows both axes together and stops at the limits.
        let z = start.zoomed(by: 2)
        XCTAssertEqual(tan(z.hFOV * .pi / 360) / tan(z.vFOV * .pi / 360), 16 / 9, accuracy: 1e-9)
        XCTAssertEqual(tan(z.hFOV * .pi / 360), 0.5, accuracy: 1e-9)
        let most = start.zoomed(by: 1000)
        XCTAssertEqual(min(most.hFOV, most.vFOV), 20, accuracy: 1e-9)
        let least = start.zoomed(by: 0.001)
        XCTAssertEqual(max(least.hFOV, least.vFOV), 120, accuracy: 1e-9)
        XCTAssertEqual(start.zoomed(by: -1), start)
    }

    func testEffectSpecsAndTheirErrorsNameTheFlag() throws {
        /// The effect a command line names, through the renderer's registry (the descriptor parses its options).
        func parse(_ text: String) throws -> MosaicSettings? {
            (try PassRegistry.effect(PieceSpec.split(text, flag: "--effect")) as? MosaicEffect)?.settings
        }
        XCTAssertEqual(try parse("mosaic"), MosaicSettings(tile: 16, split: 0.5))
        XCTAssertEqual(try parse("mosaic:tile=8:split=1"), MosaicSettings(tile: 8, split: 1))
        for bad in ["blur", "mosaic:tile=0", "mosaic:split=2", "mosaic:size=3", "mosaic:tile", "mosaic:tile=x", ":tile=3", "mosaic::"] {
            XCTAssertThrowsError(try parse(bad), bad) { XCTAssertTrue("\($0)".hasPrefix("--effect: "), "\($0)") }
        }
    }

    func testCommandLineViewOptions() throws {
        func config(_ args: [String]) throws -> PlayerConfig {
            try CommandSpecs.config(from: ParsedOptions.parse(args, specs: CommandSpecs.play, command: "play"))
        }
        let c = try config(["--projection", "fisheye", "--input-fov", "190", "--yaw", "-30", "--fov", "100", "--pan-speed", "0",
                            "--effect", "mosaic:tile=4"])
        XCTAssertEqual(c.projection.kind, .fisheye)
        XCTAssertEqual(c.projection.inputFOV, 190)
        XCTAssertEqual(c.projection.startView(canvas: PixelSize(width: 100, height: 100)), SphereView(yaw: -30, hFOV: 100, vFOV: 100))
        XCTAssertEqual(c.panSpeed, 0)
        XCTAssertEqual(c.effect, PieceSpec(name: "mosaic", options: ["tile=4"]))
        XCTAssertEqual(try config([]).panSpeed, 3)
        XCTAssertThrowsError(try config(["--fov", "10x10"])) { XCTAssertTrue("\($0)".contains("--fov")) }
        XCTAssertThrowsError(try config(["--projection", "fisheye", "--input-fov", "300"])) { XCTAssertTrue("\($0)".contains("--input-fov")) }
        XCTAssertThrowsError(try RenderChoices.validate(config(["--effect", "mosaic:tile=-1"]))) { XCTAssertTrue("\($0)".contains("--effect")) }
    }

    func testEyeRectsAndCrops() {
        XCTAssertEqual(StereoLayout.sbs.eyeRect(.right), UnitRect(x: 0.5, y: 0, width: 0.5, height: 1))
        XCTAssertEqual(StereoLayout.htb.eyeRect(.left), UnitRect(x: 0, y: 0, width: 1, height: 0.5))
        XCTAssertEqual(StereoLayout.hsbs.eyeDisplaySize(picture: PixelSize(width: 1920, height: 1080)), PixelSize(width: 1920, height: 1080))
        XCTAssertEqual(StereoLayout.sbs.eyeDisplaySize(picture: PixelSize(width: 1920, height: 1080)), PixelSize(width: 960, height: 1080))
        XCTAssertEqual(StereoLayout.htb.unsqueezed(eye: PixelSize(width: 100, height: 50)), PixelSize(width: 100, height: 100))
        var pixels: [UInt8] = []
        for y in 0..<2 { for x in 0..<4 { pixels += [UInt8(x), UInt8(y), 0, 255] } }
        let image = RGBAImage(size: PixelSize(width: 4, height: 2), pixels: pixels)
        let right = image.cropped(to: StereoLayout.sbs.eyeRect(.right))
        XCTAssertEqual(right.size, PixelSize(width: 2, height: 2))
        XCTAssertEqual(Array(right.pixels[0..<4]), [2, 0, 0, 255])
        XCTAssertEqual(Array(right.pixels[12..<16]), [3, 1, 0, 255])
        XCTAssertEqual(image.cropped(to: .full), image)
        XCTAssertEqual(ItemProjection.decodeSize(picture: PixelSize(width: 16384, height: 8192)), PixelSize(width: 8192, height: 4096))
        XCTAssertEqual(ItemProjection.decodeSize(picture: PixelSize(width: 512, height: 256)), PixelSize(width: 512, height: 256))
    }
}
