import Foundation
import KioskCore
@testable import KioskRender
import XCTest

/// Two GL contexts on Mesa's one surfaceless EGL display (two players in one process, a screen per output): the
/// display is counted, so the one that goes first leaves the other drawing, and the last one terminates it.
final class GLContextSharingTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    /// Clears an 8x8 target on `gl` (made current) to `colour` and reads its first pixel back.
    private func draw(_ colour: RGBColor, on gl: GLContext) throws -> [UInt8] {
        try gl.makeCurrent()
        let renderer = try Renderer(context: gl)
        let target = try OffscreenTarget(context: gl, size: PixelSize(width: 8, height: 8))
        try renderer.draw(RenderFrame(background: colour, layers: []), into: target)
        return Array(try target.readPixels().pixels.prefix(4))
    }

    func testTheContextThatGoesFirstLeavesTheOtherDrawing() throws {
        let a = try GLContext.headless()
        let display = a.display
        XCTAssertEqual(EGLDisplayReferences.count(display), 1)
        do {
            let b = try GLContext.headless()
            XCTAssertEqual(b.display, display, "EGL hands out the same surfaceless display")
            XCTAssertEqual(EGLDisplayReferences.count(display), 2)
            XCTAssertEqual(try draw(RGBColor(red: 0, green: 0, blue: 1), on: b), [0, 0, 255, 255])
        }
        XCTAssertEqual(EGLDisplayReferences.count(display), 1, "b went; the display stays for a")
        XCTAssertEqual(try draw(RGBColor(red: 1, green: 0, blue: 0), on: a), [255, 0, 0, 255], "a draws on after b went")
    }

    func testTheLastContextTerminatesTheDisplay() throws {
        var display: UInt = 0
        do {
            let only = try GLContext.headless()
            display = UInt(bitPattern: only.display)
            XCTAssertEqual(EGLDisplayReferences.count(only.display), 1)
        }
        let again = try GLContext.headless()  // initialised anew after the last one terminated it
        XCTAssertEqual(UInt(bitPattern: again.display), display)
        XCTAssertEqual(EGLDisplayReferences.count(again.display), 1, "counted from 0 again")
        XCTAssertEqual(try draw(RGBColor(red: 0, green: 1, blue: 0), on: again), [0, 255, 0, 255])
    }
}
