import Foundation
import KioskCore
import XCTest

/// What the MQTT fleet tests share: a mosquitto broker per test on 127.0.0.1 (a free port, killed in tearDown), its
/// command-line clients, and kiosks joined to it, each bounded in time and killed in tearDown if still running.
class MQTTFleetTestCase: XCTestCase {
    var dir: TempDir!
    var broker: MQTTBroker!
    var clients: MQTTClients!
    var kiosks: [LiveProcess] = []

    override func setUpWithError() throws {
        dir = try TempDir()
        broker = try MQTTBroker(dir)
        clients = try MQTTClients(broker)
    }

    override func tearDown() {
        for k in kiosks where k.isRunning {
            k.send(SIGKILL)
            _ = k.finish(timeout: 10)
        }
        broker?.stop()
    }

    /// Three one-colour pictures.
    func pictures() throws -> [String] {
        try [("a.png", "red"), ("b.png", "green"), ("c.png", "blue")].map { try ColourPictures.make(dir, $0.0, $0.1) }
    }

    /// Starts kiosk on `files` joined to the broker as `id`, and waits until it is connected and subscribed: its
    /// retained `online` follows its SUBSCRIBE on the same connection, so once the broker holds it, a command
    /// published from now on reaches kiosk (one published between the connect line and the subscription was lost).
    func start(_ id: String, _ files: [String], extra: [String] = []) throws -> LiveProcess {
        let p = try LiveProcess(["play", "--output", "headless", "--size", "320x240", "--duration", "60", "--transition", "none",
                                 "--mqtt", broker.address, "--mqtt-id", id, "--log-level", "debug"] + extra + files)
        kiosks.append(p)
        XCTAssertTrue(p.waitFor("mqtt: connected to \(broker.address) as kiosk/\(id)", timeout: 30), p.stderr)
        let online = try clients.bytes("kiosk/\(id)/availability", seconds: 10)
        XCTAssertEqual(online.map { String(decoding: $0, as: UTF8.self) }, "online", p.stderr)
        return p
    }

    /// Stops kiosk with SIGTERM and expects a clean exit.
    func stop(_ p: LiveProcess) {
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
    }

    func state(_ id: String, seconds: Double = 10, until condition: @escaping (JSONValue) -> Bool) throws -> JSONValue? {
        try clients.wait("kiosk/\(id)/state", seconds: seconds, until: condition)
    }
}
