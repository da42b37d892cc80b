import XCTest
@testable import KioskCore
final class CoreSmokeTests: XCTestCase { func testSize() { XCTAssertEqual(PixelSize(parsing: "10x20"), PixelSize(width: 10, height: 20)) } }
