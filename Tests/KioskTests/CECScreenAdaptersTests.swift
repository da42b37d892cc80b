import Foundation
import KioskCEC
import XCTest

/// Which HDMI-CEC adapter each screen of several gets (issue 40), without a device: the one its section names,
/// else with `auto` the one the kernel ties to its connector; an adapter a screen before it took, or none tied, is
/// one line (the screen's power is then DPMS alone); `off` and `auto` on a headless canvas are silent.
final class CECScreenAdaptersTests: XCTestCase {
    /// vc4 on a Raspberry Pi 4: an adapter tied to each HDMI connector of card 1, and a USB adapter tied to none.
    private let pi = [
        CECScreenAdapters.Adapter(path: "/dev/cec0", connector: (1, 32)),
        CECScreenAdapters.Adapter(path: "/dev/cec1", connector: (1, 41)),
        CECScreenAdapters.Adapter(path: "/dev/cec2", connector: nil),
    ]

    private func wish(_ screen: String, _ option: String, _ connector: (UInt32, UInt32)? = nil) -> CECScreenAdapters.Wish {
        CECScreenAdapters.Wish(screen: screen, option: option, connector: connector)
    }

    func testAutoGivesEachScreenTheAdapterTiedToItsConnector() {
        let got = CECScreenAdapters.choose([wish("left", "auto", (1, 41)), wish("right", "auto", (1, 32))], adapters: pi)
        XCTAssertEqual(got, [.adapter("/dev/cec1"), .adapter("/dev/cec0")], "each its own, whatever the order")
    }

    func testANamedAdapterIsTakenAsItIsAndFirstComeFirstServed() {
        let got = CECScreenAdapters.choose([wish("a", "/dev/cec2", (1, 32)), wish("b", "auto", (1, 41)), wish("c", "/dev/cec2")],
                                           adapters: pi)
        XCTAssertEqual(got, [.adapter("/dev/cec2"), .adapter("/dev/cec1"),
                             .refused("cec: /dev/cec2 is screen a's already: the screen's power is DPMS alone")])
    }

    func testAutoTakesNoAdapterAnotherScreenNamed() {
        // b names the adapter tied to a's connector: a, first, has it; b asks for it after and is refused
        let got = CECScreenAdapters.choose([wish("a", "auto", (1, 32)), wish("b", "/dev/cec0", (1, 41))], adapters: pi)
        XCTAssertEqual(got, [.adapter("/dev/cec0"), .refused("cec: /dev/cec0 is screen a's already: the screen's power is DPMS alone")])
        let named = CECScreenAdapters.choose([wish("a", "/dev/cec1", (1, 32)), wish("b", "auto", (1, 41))], adapters: pi)
        XCTAssertEqual(named, [.adapter("/dev/cec1"), .refused("cec: /dev/cec1 is screen a's already: the screen's power is DPMS alone")])
    }

    func testAutoWithNoTiedAdapterIsOneLineAndNeverAGuess() {
        // the USB adapter ties to no connector: with several screens auto does not guess which TV it reaches
        let got = CECScreenAdapters.choose([wish("a", "auto", (1, 32)), wish("b", "auto", (0, 77))], adapters: pi)
        XCTAssertEqual(got, [.adapter("/dev/cec0"),
                             .refused("cec: no HDMI-CEC adapter is tied to its display (card 0, connector 77): the screen's power "
                                      + "is DPMS alone (cec = /dev/cecN in its [screen b] section names one)")])
        let none = CECScreenAdapters.choose([wish("a", "auto", (0, 33)), wish("b", "auto", (0, 34))], adapters: [])
        XCTAssertEqual(none, ["33", "34"].map {
            .refused("cec: no HDMI-CEC adapter (/dev/cec*) for its display (card 0, connector \($0)): the screen's power is DPMS alone")
        })
    }

    func testOffAndAutoWithoutADisplayAreSilent() {
        let got = CECScreenAdapters.choose([wish("a", "off", (1, 32)), wish("b", "auto"), wish("c", "auto", (1, 32))], adapters: pi)
        XCTAssertEqual(got, [.none, .none, .adapter("/dev/cec0")], "an adapter no screen took stays free for the next")
        XCTAssertEqual(CECScreenAdapters.choose([wish("a", "auto"), wish("b", "off")], adapters: nil), [.none, .none])
    }

    func testOneDeviceByTwoNamesIsOneAdapter() throws {
        let dir = try TempDir()
        let device = dir.file("cec7"), link = dir.file("tv-left")
        XCTAssertTrue(FileManager.default.createFile(atPath: device, contents: nil))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: device)
        let got = CECScreenAdapters.choose([wish("a", link), wish("b", device)], adapters: nil)
        XCTAssertEqual(got, [.adapter(link), .refused("cec: \(device) is screen a's already: the screen's power is DPMS alone")])
    }
}
