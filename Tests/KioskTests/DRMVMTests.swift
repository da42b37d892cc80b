import Foundation
import XCTest
import KioskCore
import KioskOutput
import KioskRender

/// End to end on a real kernel's DRM/KMS: runs only inside the VM harness (`Kiosk/vm/vm-test.sh`), which sets
/// KIOSK_DRM_TEST=1, KIOSK_VM_RES (the resolution given to QEMU) and KIOSK_VM_IO (where screendumps are
/// acknowledged with the centre pixel's colour).
final class DRMVMTests: XCTestCase {
    private var env: [String: String] { ProcessInfo.processInfo.environment }

    override func setUpWithError() throws {
        try XCTSkipUnless(env["KIOSK_DRM_TEST"] == "1",
                          "DRM/KMS test: runs in the QEMU VM only (Kiosk/vm/vm-test.sh sets KIOSK_DRM_TEST=1)")
    }

    func testConnectorsModesFlipsScreenPowerAndRestore() throws {
        let report = DRMDevice.report()
        say("report:\n\(report)")
        let card = try XCTUnwrap(report.cards.first)
        XCTAssertEqual(card.path, "/dev/dri/card0")
        let connector = try XCTUnwrap(card.firstConnected, "no connected connector")
        XCTAssertEqual(connector.name, "Virtual-1")
        let res = try XCTUnwrap(env["KIOSK_VM_RES"].flatMap(ModeRequest.init(parsing:)))
        let preferred = try XCTUnwrap(connector.preferredMode)
        XCTAssertTrue(preferred.preferred)
        XCTAssertEqual("\(preferred.width)x\(preferred.height)", res.description)
        let before = try screendump("before")

        // Default options: atomic commits (both drivers accept them), preferred mode, one colour.
        let atomic = try showSolidColour(DRMOutputOptions(), rgb: (0.25, 0.5, 0.75),
                                         shot: "atomic", power: true)
        XCTAssertEqual(atomic, [64, 128, 191])
        // bochs: QEMU's VGA clears video memory (the console's buffer too) whenever the driver enables the
        // display (DPMS on, mode change) and fbcon does not redraw, so only the console's mode comes back.
        let keepsText = card.driver != "bochs-drm"
        try assertConsole(try screendump("restored-atomic"), equals: before, content: keepsText)
        // Legacy commits, in a mode the connector offers that is not the preferred one (640x480 when offered, else
        // the smallest such), another colour: a connector offering no other mode fails, never passes unchecked.
        let others = connector.modes.filter { $0.width != preferred.width || $0.height != preferred.height }
        let vga = others.first { $0.width == 640 && $0.height == 480 }
        let other = try XCTUnwrap(vga ?? others.min(by: { $0.width * $0.height < $1.width * $1.height }),
                                  "no mode besides the preferred one: \(connector.modes)")
        let small = ModeRequest(width: other.width, height: other.height)
        XCTAssertTrue(connector.modes.contains(where: { small.matches($0) }), "\(small) in \(connector.modes)")
        let legacy = try showSolidColour(DRMOutputOptions(mode: small, commit: .legacy), rgb: (1, 0.5, 0),
                                         shot: "legacy", power: false, size: small.description)
        XCTAssertEqual(legacy, [255, 128, 0])
        try assertConsole(try screendump("restored"), equals: before, content: keepsText)
    }

    private func assertConsole(_ shot: (size: String, centre: [Int], uniform: Double),
                               equals before: (size: String, centre: [Int], uniform: Double), content: Bool,
                               line: UInt = #line) throws {
        XCTAssertEqual(shot.size, before.size, "console mode not restored", line: line)
        if content {
            XCTAssertEqual(shot.centre, before.centre, "console not restored", line: line)
            XCTAssertEqual(shot.uniform, before.uniform, accuracy: 0.0001, "console not restored", line: line)
        }
    }

    func testOpeningWithoutPermissionNamesTheVideoGroup() throws {
        try XCTSkipIf(getuid() == 0, "needs an unprivileged user (vm-test.sh runs it as nobody)")
        XCTAssertThrowsError(try DRMDevice(path: "/dev/dri/card0")) {
            XCTAssertEqual("\($0)", "open on /dev/dri/card0: permission denied: the user needs the `video` group or a logind seat session")
        }
    }

    /// Shows one colour for 12 frames through `options`, checks the flip times, screendumps; returns the
    /// centre pixel. With `power`, also turns the screen off and on through DPMS.
    private func showSolidColour(_ options: DRMOutputOptions, rgb: (Float, Float, Float), shot: String, power: Bool,
                                 size: String? = nil) throws -> [Int] {
        let t0 = Date()
        let output = try DRMOutput(options: options)
        defer { output.close() }
        XCTAssertEqual(output.commitName, options.commit == .legacy ? "legacy" : "atomic")
        let gl = try GLContext(gbmDevice: output.gbmDeviceHandle, owner: output)
        try gl.makeWindowSurface(gbmSurface: output.gbmSurfaceHandle, format: output.gbmFormat)
        output.attach(swapBuffers: { [weak gl] in try gl?.swapBuffers() })
        let renderer = try Renderer(context: gl)
        let screen = DefaultTarget(size: PixelSize(width: output.mode.width, height: output.mode.height))
        func clear(red: Float, green: Float, blue: Float) throws {
            try renderer.draw(RenderFrame(background: RGBColor(red: Double(red), green: Double(green), blue: Double(blue)),
                                          layers: []), into: screen)
        }
        var times: [Double] = []
        for _ in 0..<12 {
            try clear(red: rgb.0, green: rgb.1, blue: rgb.2)
            if let t = try output.presentFrame() { times.append(t) }
        }
        let intervals = zip(times.dropFirst(), times).map { $0 - $1 }
        say("\(shot): \(output.commitName) \(output.mode.name) renderer \(gl.renderer); setup+12 frames "
            + String(format: "%.2f s, mean flip interval %.1f ms", Date().timeIntervalSince(t0),
                     1000 * intervals.reduce(0, +) / Double(max(1, intervals.count))))
        XCTAssertTrue(intervals.allSatisfy { $0 > 0 }, "flip times not increasing: \(times)")
        let second = try DRMDevice(path: output.selection.path)
        XCTAssertThrowsError(try second.becomeMaster()) {
            XCTAssertEqual("\($0)", "drmSetMaster on /dev/dri/card0: not DRM master: another program (a compositor, X, another kiosk) drives the display")
        }
        second.close()
        let probed = try output.readConnector()
        XCTAssertEqual(probed.status, .connected)
        XCTAssertEqual(probed.name, output.selection.connector.name)
        XCTAssertEqual(output.refreshInterval, 1 / output.mode.refreshHz, accuracy: 1e-9)
        let shown = try screendump(shot)
        XCTAssertEqual(shown.size, size ?? "\(output.mode.width)x\(output.mode.height)")
        XCTAssertGreaterThan(shown.uniform, 0.999, "\(shot): screen not one colour")
        if power {
            XCTAssertTrue(try output.screenPowerIsOn())
            try output.setScreenPower(on: false)
            XCTAssertFalse(try output.screenPowerIsOn())
            XCTAssertNotEqual(try screendump(shot + "-off").centre, shown.centre, "DPMS off still shows the frame")
            try clear(red: 0, green: 1, blue: 0)
            _ = try output.presentFrame()   // screen off: accepted, not shown
            try output.setScreenPower(on: true)
            XCTAssertTrue(try output.screenPowerIsOn())
            for _ in 0..<3 {
                try clear(red: rgb.0, green: rgb.1, blue: rgb.2)
                _ = try output.presentFrame()
            }
            XCTAssertEqual(try screendump(shot + "-power").centre, shown.centre)
        }
        return shown.centre
    }

    /// Asks the harness for a screendump and waits for its answer: size, centre pixel, uniform fraction.
    private func screendump(_ name: String) throws -> (size: String, centre: [Int], uniform: Double) {
        let io = try XCTUnwrap(env["KIOSK_VM_IO"])
        let ack = "\(io)/ack-\(name)"
        say("KIOSK-VM screendump \(name)")
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: ack) {
            if Date() > deadline { throw DRMError(call: "screendump \(name)", path: io, reason: "no answer from the harness in 60 s") }
            usleep(50_000)
        }
        let fields = try String(contentsOfFile: ack, encoding: .utf8).split(separator: " ")
            .compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        XCTAssertEqual(fields.count, 6, "ack-\(name) malformed")
        guard fields.count == 6 else { return ("", [], 0) }
        say("screendump \(name): \(fields)")
        return ("\(Int(fields[0]))x\(Int(fields[1]))", fields[2...4].map { Int($0) }, fields[5])
    }

    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
