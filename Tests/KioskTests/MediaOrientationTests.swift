import Foundation
import KioskCore
@testable import KioskMedia
import XCTest

/// All 8 EXIF orientations: displayed size and pixels against ffmpeg's transpose/hflip/vflip of the stored picture.
final class MediaOrientationTests: XCTestCase {
    /// The ffmpeg filter that turns the stored picture upright for each orientation.
    static let filters: [Int: String?] = [
        1: nil, 2: "hflip", 3: "hflip,vflip", 4: "vflip",
        5: "transpose=cclock_flip", 6: "transpose=clock", 7: "transpose=clock_flip", 8: "transpose=cclock",
    ]

    /// An APP1 Exif segment holding only IFD0 tag 0x0112 = `orientation`, in either byte order.
    static func exifSegment(orientation: Int, littleEndian: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { littleEndian ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
        var tiff: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        tiff += u16(42) + u32(8)                                   // header, IFD0 at offset 8
        tiff += u16(2)                                             // two entries
        tiff += u16(0x010F) + u16(2) + u32(4) + Array("Cam\0".utf8) // Make (ASCII, 4 bytes inline)
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0)
        tiff += u32(0)                                             // no next IFD
        let payload = Array("Exif\0\0".utf8) + tiff
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// `jpeg` with an Exif segment spliced in right after SOI.
    static func withOrientation(_ jpeg: [UInt8], _ orientation: Int) -> [UInt8] {
        Array(jpeg[0..<2]) + exifSegment(orientation: orientation, littleEndian: orientation % 2 == 0) + Array(jpeg[2...])
    }

    func testAllEightOrientations() throws {
        let dir = try TempDir()
        let plain = dir.file("plain.jpg")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc=s=320x240", "-frames:v", "1", "-q:v", "2", plain])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain)))
        for orientation in 1...8 {
            let path = dir.file("o\(orientation).jpg")
            try Data(Self.withOrientation(bytes, orientation)).write(to: URL(fileURLWithPath: path))
            let shown = orientation >= 5 ? PixelSize(width: 240, height: 320) : PixelSize(width: 320, height: 240)
            let info = try MediaFile.probe(path)
            XCTAssertEqual(info.orientation, orientation)
            XCTAssertEqual(info.size, shown, "orientation \(orientation)")
            for target in [shown, PixelSize(width: shown.width / 2, height: shown.height / 2)] {
                let item = try MediaFile.decode(path) { _ in target }
                guard case .still(let image) = item.picture else { return XCTFail("not a still") }
                XCTAssertEqual(image.size, target, "orientation \(orientation)")
                let reference = try FFmpegCLI.referenceRGBA(plain, size: target, filter: Self.filters[orientation] ?? nil)
                XCTAssertGreaterThanOrEqual(ImageCompare.psnr(image, reference), 30, "orientation \(orientation) at \(target)")
            }
        }
    }

    func testExifParserReadsBothByteOrders() {
        for orientation in 1...8 {
            for little in [true, false] {
                let seg = Self.exifSegment(orientation: orientation, littleEndian: little)
                XCTAssertEqual(JPEGStructure.exifOrientation(seg[4...]), orientation)
            }
        }
        XCTAssertNil(JPEGStructure.exifOrientation(Array("Exif\0\0MM".utf8)[0...]))
    }
}
