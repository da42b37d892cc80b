// The renderer's fit modes compared with ffmpeg's own scaler (+ pad / crop) on a smooth picture: PSNR >= 30 dB.
import Foundation
import KioskCore
@testable import KioskRender
import XCTest

final class RenderScalerTests: RenderTestCase {
    private var dir: URL?
    private var picture: RGBAImage?
    private let background = "#204060"

    override func setUpWithError() throws {
        try super.setUpWithError()
        let made = try RenderTestSupport.temporaryDirectory()
        dir = made
        picture = try RenderTestSupport.smoothPicture(size: PixelSize(width: 640, height: 480), in: made)
    }

    override func tearDown() {
        if let dir { try? FileManager.default.removeItem(at: dir) }
        super.tearDown()
    }

    /// Renders with `fit` on `canvas` and compares with ffmpeg running `filter`.
    /// The issue asks for 30 dB; `tight` is the floor measured to catch a half-pixel misplacement
    /// (about 8 dB lower than a correct render on this picture).
    private func compare(fit: FitMode, canvas: PixelSize, filter: String, tight: Double,
                         file: StaticString = #filePath, line: UInt = #line) throws {
        let picture = try XCTUnwrap(picture), dir = try XCTUnwrap(dir)
        let ours = try render(picture, fit: fit, canvas: canvas, background: RGBColor(hex: background) ?? .black)
        let reference = try RenderTestSupport.ffmpegFilter(picture, filter: filter, outSize: canvas, in: dir)
        let db = RenderTestSupport.psnr(ours, reference)
        XCTAssertGreaterThanOrEqual(db, max(30, tight), "\(fit) on \(canvas): PSNR \(db) dB",
                                    file: file, line: line)
    }

    func testContainTallCanvasMatchesFfmpegScaleAndPad() throws {
        try compare(fit: .contain, canvas: PixelSize(width: 320, height: 400),
                    filter: "scale=320:240,pad=320:400:0:80:color=0x204060", tight: 45)
    }

    func testContainWideCanvasMatchesFfmpegScaleAndPad() throws {
        try compare(fit: .contain, canvas: PixelSize(width: 400, height: 240),
                    filter: "scale=320:240,pad=400:240:40:0:color=0x204060", tight: 45)
    }

    func testCoverSquareCanvasMatchesFfmpegScaleAndCrop() throws {
        try compare(fit: .cover, canvas: PixelSize(width: 240, height: 240),
                    filter: "scale=320:240,crop=240:240:40:0", tight: 45)
    }

    func testCoverWideCanvasMatchesFfmpegScaleAndCrop() throws {
        try compare(fit: .cover, canvas: PixelSize(width: 320, height: 180),
                    filter: "scale=320:240,crop=320:180:0:30", tight: 45)
    }

    func testFillMatchesFfmpegScale() throws {
        try compare(fit: .fill, canvas: PixelSize(width: 400, height: 300), filter: "scale=400:300", tight: 38)
        try compare(fit: .fill, canvas: PixelSize(width: 300, height: 400), filter: "scale=300:400", tight: 38)
    }
}
