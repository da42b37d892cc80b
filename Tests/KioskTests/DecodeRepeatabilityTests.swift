import Foundation
import KioskCore
import KioskMedia
import XCTest

/// A picture decodes to the same pixels every time. swscale's slice threads raced where slices meet: two pixels
/// of a lomiri wallpaper scaled to 798x540 came out different from one run to the next (one run in six matched).
final class DecodeRepeatabilityTests: XCTestCase {
    func testAPhotoScaledToScreenSizeIsTheSameEveryTime() throws {
        let photo = "/usr/share/backgrounds/Picture_0B_by_freespace.jpg"  // 2572x1740, lomiri-wallpapers-16.04
        XCTAssertTrue(FileManager.default.fileExists(atPath: photo), "\(photo) (Kiosk/setup.sh installs it)")
        var first: [UInt8]?
        for run in 0..<12 {
            let item = try FFmpegImageDecoder.decode(path: photo, targetSize: { _ in PixelSize(width: 798, height: 540) })
            guard case .still(let image) = item.picture else { return XCTFail("not a still") }
            XCTAssertEqual(image.size, PixelSize(width: 798, height: 540))
            if let first {
                let differing = zip(first, image.pixels).enumerated().filter { $0.element.0 != $0.element.1 }.map { $0.offset / 4 }
                XCTAssertTrue(differing.isEmpty, "run \(run): pixels \(Set(differing).sorted().prefix(8).map { ($0 % 798, $0 / 798) }) differ")
            } else {
                first = image.pixels
            }
        }
    }
}
