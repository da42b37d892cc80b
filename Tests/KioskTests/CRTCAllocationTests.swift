import KioskCore
import XCTest
@testable import KioskOutput

/// Handing out one card's CRTCs to the connectors shown at once, on made-up candidate lists.
final class CRTCAllocationTests: XCTestCase {
    func testEachConnectorGetsItsFirstCandidateWhenFree() {
        XCTAssertEqual(CRTCAllocation.assign([[40, 41], [41, 40]]), [40, 41])
    }

    func testOverlappingCandidatesGetDistinctCRTCs() {
        // virtio-gpu with two heads: every encoder can use both CRTCs, and both connectors list the first first.
        XCTAssertEqual(CRTCAllocation.assign([[40, 41], [40, 41]]), [40, 41])
    }

    func testAConnectorWithOneCRTCGetsItFromAnEarlierOneThatHasAnother() {
        // A could take 40 or 41, B only 40: taking A's first candidate would leave B nothing.
        XCTAssertEqual(CRTCAllocation.assign([[40, 41], [40]]), [41, 40])
    }

    func testALongerChainOfMovesIsFound() {
        XCTAssertEqual(CRTCAllocation.assign([[1, 2], [2, 3], [1]]), [2, 3, 1])
    }

    func testTooFewCRTCsIsNil() {
        XCTAssertNil(CRTCAllocation.assign([[40], [40]]))
        XCTAssertNil(CRTCAllocation.assign([[40, 41], [40, 41], [41, 40]]))
        XCTAssertNil(CRTCAllocation.assign([[40], []]))
    }

    func testNoConnectorsIsEmpty() {
        XCTAssertEqual(CRTCAllocation.assign([]), [])
    }

    func testSeededRandomListsGiveValidAssignmentsWheneverOneExists() {
        var rng = SeededGenerator(seed: 40)
        for _ in 0..<300 {
            let crtcs = UInt32(Int.random(in: 1...4, using: &rng))
            let lists = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                (1...crtcs).filter { _ in Bool.random(using: &rng) }.shuffled(using: &rng)
            }
            let got = CRTCAllocation.assign(lists)
            XCTAssertEqual(got != nil, Self.someAssignmentExists(lists), "\(lists)")
            if let got {
                XCTAssertEqual(Set(got).count, got.count, "\(lists) -> \(got)")
                for (i, crtc) in got.enumerated() { XCTAssertTrue(lists[i].contains(crtc), "\(lists) -> \(got)") }
            }
        }
    }

    /// Brute force: tries every way of giving each list one of its CRTCs.
    private static func someAssignmentExists(_ lists: [[UInt32]], taken: Set<UInt32> = []) -> Bool {
        guard let first = lists.first else { return true }
        return first.contains { !taken.contains($0) && someAssignmentExists(Array(lists.dropFirst()), taken: taken.union([$0])) }
    }
}
