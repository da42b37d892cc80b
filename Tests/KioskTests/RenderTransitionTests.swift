// Transitions as parts of the picture layers' shaders, against CPU references built from the two items' own
// snapshots (each drawn alone through the same pipeline): crossfade, slide and wipe in all four directions, zoom
// and fade, at p = 0.25, 0.5 and 0.75. The random chooser: seeded, keyed by the change, never twice in a row.
import Foundation
import KioskCore
@testable import KioskPlayer
@testable import KioskRender
import XCTest

final class RenderTransitionTests: RenderTestCase {
    /// p·W and p·H are whole pixels for every p tested.
    let canvas = PixelSize(width: 320, height: 180)
    let background = RGBColor(red: 32 / 255, green: 64 / 255, blue: 96 / 255)

    /// The outgoing item (canvas-sized, shown 1:1) and the incoming one (letterboxed on the background).
    struct Items {
        var old: RGBAImage
        var new: RGBAImage
        var oldPass: FlatPass
        var newPass: FlatPass
    }

    func items() throws -> Items {
        let dir = try RenderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let old = try RenderTestSupport.smoothPicture(size: canvas, in: dir)
        let url = dir.appendingPathComponent("new.rgba")
        try RenderTestSupport.ffmpeg(["-f", "lavfi", "-i", "mandelbrot=size=256x180:end_pts=1,gblur=sigma=1.5",
                                      "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", url.path])
        let new = try RenderTestSupport.loadRawRGBA(url, size: PixelSize(width: 256, height: 180))
        func pass(_ image: RGBAImage) -> FlatPass {
            FlatPass(transform: FlatView(fit: .contain).transform(picture: image.size, canvas: canvas))
        }
        return Items(old: old, new: new, oldPass: pass(old), newPass: pass(new))
    }

    /// Each item drawn alone through the same pipeline.
    func snapshots(_ items: Items) throws -> (old: RGBAImage, new: RGBAImage) {
        (try render([(items.old, items.oldPass, 1)], screen: canvas, background: background),
         try render([(items.new, items.newPass, 1)], screen: canvas, background: background))
    }

    /// The change drawn by the player's TransitionLayers: the outgoing layer, then the incoming one.
    func drawChange(_ items: Items, _ transition: any ShaderTransition, progress: Double) throws -> RGBAImage {
        let gl = try gl()
        let old = RenderLayer(texture: try Texture(context: gl, image: items.old), pass: items.oldPass)
        let new = RenderLayer(texture: try Texture(context: gl, image: items.new), pass: items.newPass)
        let layers = TransitionLayers.layers(outgoing: old, incoming: new, inChange: true, progress: progress,
                                             transition: transition)
        let target = try OffscreenTarget(context: gl, size: canvas)
        try XCTUnwrap(renderer).draw(RenderFrame(background: background, layers: layers), into: target)
        return try target.readPixels()
    }

    /// RGB of `image` at whole pixel (x, y), or nil outside.
    func rgb(_ image: RGBAImage, _ x: Int, _ y: Int) -> [Double]? {
        guard (0..<image.size.width).contains(x), (0..<image.size.height).contains(y) else { return nil }
        return RenderTestSupport.pixel(image, x, y).prefix(3).map(Double.init)
    }

    /// Bilinear RGB of `image` at pixel coordinates (texel centres at integers), clamped to the edges.
    func bilinear(_ image: RGBAImage, _ x: Double, _ y: Double) -> [Double] {
        let w = image.size.width, h = image.size.height
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
        let fx = x - Double(x0), fy = y - Double(y0)
        func px(_ i: Int, _ j: Int) -> [Double] { rgb(image, min(max(i, 0), w - 1), min(max(j, 0), h - 1)) ?? [0, 0, 0] }
        let a = px(x0, y0), b = px(x0 + 1, y0), c = px(x0, y0 + 1), d = px(x0 + 1, y0 + 1)
        return (0..<3).map { a[$0] * (1 - fx) * (1 - fy) + b[$0] * fx * (1 - fy) + c[$0] * (1 - fx) * fy + d[$0] * fx * fy }
    }

    /// The CPU reference of `name` (with `direction`) at `p`, composed from the snapshots by the transition's formula.
    func reference(_ name: String, _ direction: TransitionDirection, p: Double,
                   old: RGBAImage, new: RGBAImage) -> RGBAImage {
        let w = canvas.width, h = canvas.height
        let bg = [background.red, background.green, background.blue].map { $0 * 255 }
        func mix(_ a: [Double], _ b: [Double], _ t: Double) -> [Double] { (0..<3).map { a[$0] * (1 - t) + b[$0] * t } }
        var pixels: [UInt8] = []
        for y in 0..<h {
            for x in 0..<w {
                let o = rgb(old, x, y) ?? bg, n = rgb(new, x, y) ?? bg
                let v: [Double]
                switch name {
                case "crossfade":
                    v = mix(o, n, p)
                case "slide":
                    // Old offset by p·size towards the direction, new by (p - 1)·size.
                    let d = direction.vector
                    let dx = Int((d.x * Double(w) * p).rounded()), dy = Int((d.y * Double(h) * p).rounded())
                    let ex = Int((d.x * Double(w)).rounded()), ey = Int((d.y * Double(h)).rounded())
                    v = rgb(new, x - dx + ex, y - dy + ey) ?? rgb(old, x - dx, y - dy) ?? bg
                case "wipe":
                    let u = (Double(x) + 0.5) / Double(w), t = (Double(y) + 0.5) / Double(h)
                    let along: Double
                    switch direction {
                    case .left: along = u
                    case .right: along = 1 - u
                    case .up: along = t
                    case .down: along = 1 - t
                    }
                    v = along < p ? n : o
                case "zoom":
                    let s = 1 + (ZoomTransition.endScale - 1) * p
                    let sx = Double(w) / 2 + (Double(x) + 0.5 - Double(w) / 2) / s
                    let sy = Double(h) / 2 + (Double(y) + 0.5 - Double(h) / 2) / s
                    v = mix(bilinear(old, sx - 0.5, sy - 0.5), n, p)
                case "fade":
                    v = p < 0.5 ? mix(bg, o, 1 - 2 * p) : mix(bg, n, 2 * p - 1)
                default:
                    v = bg
                }
                pixels += v.map { UInt8(min(255, max(0, $0.rounded()))) } + [255]
            }
        }
        return RGBAImage(size: canvas, pixels: pixels)
    }

    /// Every transition and direction tested, with the direction its reference uses.
    var cases: [(any ShaderTransition, String, TransitionDirection)] {
        [(CrossfadeTransition(), "crossfade", .left), (ZoomTransition(), "zoom", .left), (FadeTransition(), "fade", .left)]
            + TransitionDirection.allCases.map { (SlideTransition(direction: $0), "slide", $0) }
            + TransitionDirection.allCases.map { (WipeTransition(edge: $0), "wipe", $0) }
    }

    func testEveryTransitionMatchesItsCPUReferenceFromTheSnapshots() throws {
        let items = try items()
        let snap = try snapshots(items)
        XCTAssertLessThan(RenderTestSupport.psnr(snap.old, snap.new), 20, "the two items must differ clearly")
        var report: [String] = []
        for (transition, name, direction) in cases {
            let label = name + (name == "slide" || name == "wipe" ? ":\(direction)" : "")
            for p in [0.25, 0.5, 0.75] {
                let out = try drawChange(items, transition, progress: p)
                let db = RenderTestSupport.psnr(out, reference(name, direction, p: p, old: snap.old, new: snap.new))
                XCTAssertGreaterThanOrEqual(db, 40, "\(label) at p = \(p): \(db) dB")
                report.append("\(label)@\(p)=\(db.isInfinite ? "inf" : String(format: "%.1f", db))")
                // A wrong transition would not pass: each differs clearly from a crossfade half way, and a
                // direction from its opposite.
                if p == 0.5, name != "crossfade" {
                    let crossfade = RenderTestSupport.psnr(out, reference("crossfade", .left, p: p, old: snap.old, new: snap.new))
                    XCTAssertLessThan(crossfade, 30, "\(label) looks like a crossfade (\(crossfade) dB)")
                }
                if name == "slide" || name == "wipe" {
                    let opposite: TransitionDirection = [.left: .right, .right: .left, .up: .down, .down: .up][direction] ?? .left
                    let db = RenderTestSupport.psnr(out, reference(name, opposite, p: p, old: snap.old, new: snap.new))
                    XCTAssertLessThan(db, 30, "\(label) at p = \(p) looks like \(name):\(opposite) (\(db) dB)")
                }
            }
        }
        print("transition PSNR (dB): " + report.joined(separator: " "))
    }

    func testSlideLeftAndWipeLeftFollowTheIssuesDefinition() throws {
        let items = try items()
        let snap = try snapshots(items)
        // slide:left at p = 0.25: the old picture offset by -80 px, the new one by +240 px.
        let slide = try drawChange(items, SlideTransition(), progress: 0.25)
        XCTAssertEqual(RenderTestSupport.pixel(slide, 0, 50), RenderTestSupport.pixel(snap.old, 80, 50))
        XCTAssertEqual(RenderTestSupport.pixel(slide, 239, 50), RenderTestSupport.pixel(snap.old, 319, 50))
        XCTAssertEqual(RenderTestSupport.pixel(slide, 240, 50), RenderTestSupport.pixel(snap.new, 0, 50))
        // wipe:left at p = 0.25: the columns x < 80 show the new item, the rest the old one.
        let wipe = try drawChange(items, WipeTransition(), progress: 0.25)
        XCTAssertEqual(RenderTestSupport.pixel(wipe, 79, 90), RenderTestSupport.pixel(snap.new, 79, 90))
        XCTAssertEqual(RenderTestSupport.pixel(wipe, 80, 90), RenderTestSupport.pixel(snap.old, 80, 90))
    }

    func testTransitionNamesAndOptionsAreParsedByTheirDescriptors() throws {
        XCTAssertEqual(PassRegistry.transitionNames, ["none", "crossfade", "slide", "wipe", "zoom", "fade", "random"])
        XCTAssertEqual((try PassRegistry.transition(TransitionSpec.parse("slide")) as? SlideTransition)?.direction, .left)
        XCTAssertEqual((try PassRegistry.transition(TransitionSpec.parse("slide:up")) as? SlideTransition)?.direction, .up)
        XCTAssertEqual((try PassRegistry.transition(TransitionSpec.parse("wipe:down")) as? WipeTransition)?.edge, .down)
        for bad in ["wipe:diagonal", "spin", "zoom:2", "slide:left:right", "crossfade:", "random:3", ":left"] {
            XCTAssertThrowsError(try TransitionChooser(TransitionSpec.parse(bad), seed: 1), bad) {
                XCTAssertTrue("\($0)".hasPrefix("--transition: "), "\($0)")
            }
        }
        // --help lists every transition with its options.
        let help = RenderChoices.documented(CommandSpecs.play).first { $0.name == "transition" }?.help ?? ""
        for usage in PassRegistry.transitionUsages { XCTAssertTrue(help.contains(usage), "--help lacks \(usage): \(help)") }
    }

    func testRandomIsSeededKeyedByTheChangeAndNeverRepeats() throws {
        func picks(seed: UInt64, _ range: some Sequence<Int>) throws -> [String] {
            let chooser = try TransitionChooser(.random, seed: seed)
            return range.map { type(of: chooser.transition(forChange: $0)).name }
        }
        let a = try picks(seed: 7, 0..<200)
        for i in 1..<a.count { XCTAssertNotEqual(a[i], a[i - 1], "change \(i) repeats \(a[i])") }
        XCTAssertEqual(Set(a), ["crossfade", "slide", "wipe", "zoom", "fade"])
        XCTAssertEqual(try picks(seed: 7, 0..<200), a, "the same seed picks the same")
        XCTAssertEqual(try picks(seed: 7, (0..<200).reversed()).reversed(), a, "a change's pick does not depend on the order asked")
        XCTAssertNotEqual(try picks(seed: 8, 0..<200), a, "another seed picks otherwise")
        XCTAssertEqual(try picks(seed: 1, [5, 5, 5]).count, 3)
        // A named transition is always itself.
        let fixed = try TransitionChooser(TransitionSpec.parse("wipe:up"), seed: 3)
        XCTAssertEqual((fixed.transition(forChange: 41) as? WipeTransition)?.edge, .up)
    }
}
