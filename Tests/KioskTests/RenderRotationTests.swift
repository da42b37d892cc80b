// The output rotation: its pure maths, and the final pass putting canvas pixels where the maths says.
import KioskCore
@testable import KioskRender
import XCTest

final class RenderRotationTests: RenderTestCase {
    func testRotationMathsRoundTripsAndTurnsClockwise() {
        let corner = UnitPoint(x: 0, y: 0)
        XCTAssertEqual(Rotation.clockwise90.screenPoint(fromCanvas: corner), UnitPoint(x: 1, y: 0))
        XCTAssertEqual(Rotation.clockwise180.screenPoint(fromCanvas: corner), UnitPoint(x: 1, y: 1))
        XCTAssertEqual(Rotation.clockwise270.screenPoint(fromCanvas: corner), UnitPoint(x: 0, y: 1))
        let p = UnitPoint(x: 0.25, y: 0.75)
        for r in Rotation.allCases {
            XCTAssertEqual(r.canvasPoint(fromScreen: r.screenPoint(fromCanvas: p)), p, "\(r)")
        }
        XCTAssertEqual(Rotation.clockwise90.canvasSize(forScreen: PixelSize(width: 1080, height: 1920)),
                       PixelSize(width: 1920, height: 1080))
        XCTAssertEqual(Rotation(degrees: 270), .clockwise270)
        XCTAssertNil(Rotation(degrees: 45))
    }

    func testRotation90PutsTheTopLeftCornerAtTheTopRight() throws {
        var picture = RGBAImage(size: PixelSize(width: 32, height: 24), fill: (0, 0, 0, 255))
        picture.pixels.replaceSubrange(0..<4, with: [255, 0, 0, 255])
        let screen = PixelSize(width: 24, height: 32)
        let out = try render([(picture, FlatPass(transform: .identity), 1)], screen: screen, rotation: .clockwise90)
        XCTAssertEqual(RenderTestSupport.pixel(out, 23, 0), [255, 0, 0, 255])
        XCTAssertEqual(RenderTestSupport.pixel(out, 0, 0), [0, 0, 0, 255])
    }

    func testEveryRotationMovesEachPixelWhereTheMathsSays() throws {
        let picture = RenderTestSupport.noisePicture(size: PixelSize(width: 20, height: 12), seed: 7)
        for rotation in Rotation.allCases {
            let screen = rotation.screenSize(forCanvas: picture.size)
            let out = try render([(picture, FlatPass(transform: .identity), 1)], screen: screen, rotation: rotation)
            for y in 0..<screen.height {
                for x in 0..<screen.width {
                    let s = UnitPoint(x: (Double(x) + 0.5) / Double(screen.width),
                                      y: (Double(y) + 0.5) / Double(screen.height))
                    let c = rotation.canvasPoint(fromScreen: s)
                    let cx = Int(c.x * Double(picture.size.width)), cy = Int(c.y * Double(picture.size.height))
                    XCTAssertEqual(RenderTestSupport.pixel(out, x, y), RenderTestSupport.pixel(picture, cx, cy),
                                   "\(rotation) screen (\(x), \(y))")
                }
            }
        }
    }
}
