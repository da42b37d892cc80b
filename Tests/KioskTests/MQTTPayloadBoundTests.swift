import Foundation
import KioskCore
import XCTest

/// Issue 23 item 6: a 50 MB payload on a command topic must not cost kiosk its size in memory. kiosk speaks
/// MQTT 5 and sets the CONNECT property Maximum Packet Size, so the real mosquitto broker never sends it; before,
/// libmosquitto buffered it whole and kiosk copied it again (293 MB of peak RSS) only to refuse it after.
final class MQTTPayloadBoundTests: MQTTFleetTestCase {
    /// The peak resident size of process `pid` (VmHWM), in MiB; fails the test when it cannot be read.
    private func peakMiB(_ pid: Int32, file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let row = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kB = Double(row.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else {
            XCTFail("no VmHWM in /proc/\(pid)/status", file: file, line: line)
            return .infinity
        }
        return kB / 1024
    }

    /// A 50 MB `volume` payload at QoS 0 and at QoS 1, then a normal `volume 37`: kiosk's peak RSS (read while it
    /// runs) grows by less than 64 MiB, and the command after it is applied.
    func testA50MBPayloadCostsLessThan64MiB() throws {
        let p = try start("big", try pictures())
        _ = try state("big") { $0["volume"] != nil }
        let before = try peakMiB(p.pid)
        let big = dir.file("big.bin")
        try Data(repeating: UInt8(ascii: "7"), count: 50 * 1_000_000).write(to: URL(fileURLWithPath: big))
        for qos in ["0", "1"] {
            let r = try BoundedProcess.run(clients.pub, ["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", qos,
                                                         "-t", "kiosk/big/cmd/volume", "-f", big], timeout: 60)
            XCTAssertEqual(r.status, 0, String(decoding: r.stderr, as: UTF8.self))
        }
        try clients.publish("kiosk/big/cmd/volume", "37")
        let applied = try state("big", seconds: 20) { $0["volume"] == .int(37) }
        XCTAssertNotNil(applied, "the command after the big payload: \(p.stderr.suffix(2000))")
        XCTAssertTrue(p.isRunning, p.stderr)
        let grown = try peakMiB(p.pid) - before
        print("MQTTPayloadBoundTests: peak RSS grew \(String(format: "%.1f", grown)) MiB (from \(String(format: "%.1f", before)) MiB)")
        XCTAssertLessThan(grown, 64, "peak RSS grew by \(grown) MiB for a 50 MB payload")
        stop(p)
    }
    /// A broker that speaks only MQTT 3.1.1 (so it is never told the largest packet) and sends a 50 MB `volume`
    /// payload, then `volume 37`: kiosk falls back to 3.1.1 in one line, refuses the payload in one line naming the
    /// topic and its size before copying it, and applies the next command. Its peak RSS grows by less than 2.5
    /// times the payload: libmosquitto's packet and message buffers, which only the broker can spare. Before: three
    /// copies (kiosk copied the payload before refusing it).
    func testAPayloadFromABrokerThatIgnoresTheBoundIsRefusedBeforeItIsCopied() throws {
        let port = MQTTTools.freePort()
        let size = 50 * 1_000_000
        let script = dir.file("broker311.py")
        try Self.broker311.write(toFile: script, atomically: true, encoding: .utf8)
        let python = try IPCTools.python3()
        let fake = try LiveProcess([script, "\(port)", "kiosk/old/cmd/volume", "\(size)"], executable: python)
        defer { if fake.isRunning { fake.send(SIGKILL) }; _ = fake.finish(timeout: 10) }
        XCTAssertTrue(fake.waitForOutput("listening", timeout: 10), fake.stderr)
        let p = try LiveProcess(["play", "--output", "headless", "--size", "320x240", "--duration", "60",
                                 "--mqtt", "127.0.0.1:\(port)", "--mqtt-id", "old", "--log-level", "debug"] + (try pictures()))
        kiosks.append(p)
        XCTAssertTrue(fake.waitForOutput("subscribed", timeout: 30), "kiosk never subscribed: \(fake.stdout) \(p.stderr)")
        let before = try peakMiB(p.pid)
        XCTAssertTrue(fake.waitForOutput("\"volume\":37", timeout: 30), "the command after it: \(p.stderr.suffix(3000))")
        let grown = try peakMiB(p.pid) - before
        let payloadMiB = Double(size) / 1_048_576
        print("MQTTPayloadBoundTests (3.1.1 broker): peak RSS grew \(String(format: "%.1f", grown)) MiB for \(String(format: "%.1f", payloadMiB)) MiB")
        XCTAssertLessThan(grown, 2.5 * payloadMiB, "peak RSS grew by \(grown) MiB")
        XCTAssertTrue(fake.stdout.contains("connect 5") && fake.stdout.contains("connect 4"), fake.stdout)
        let lines = p.stderr.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains("does not speak MQTT 5: trying MQTT 3.1.1") }.count, 1, p.stderr)
        let refusals = lines.filter { $0.contains("refused") && $0.contains("kiosk/old/cmd/volume") }
        XCTAssertEqual(refusals.count, 1, p.stderr)
        XCTAssertTrue(refusals.first?.contains("a payload of \(size) bytes is over 64 KiB") == true, p.stderr)
        stop(p)
    }

    /// A minimal MQTT 3.1.1 broker for one kiosk: it refuses MQTT 5, acknowledges the subscription, then sends a
    /// payload of the size given on the topic given and `37` after it, and prints what kiosk publishes.
    private static let broker311 = #"""
import socket, sys
port, topic, size = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])

def varint(n):
    out = bytearray()
    while True:
        b, n = n % 128, n // 128
        out.append(b | (128 if n else 0))
        if not n:
            return bytes(out)

def read_exact(c, n):
    data = bytearray()
    while len(data) < n:
        chunk = c.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return bytes(data)

def read_packet(c):
    head = read_exact(c, 1)[0]
    length, mult = 0, 1
    while True:
        b = read_exact(c, 1)[0]
        length += (b & 127) * mult
        mult *= 128
        if b < 128:
            break
    return head, read_exact(c, length)

def publish(c, t, payload):
    body = len(t).to_bytes(2, "big") + t.encode() + payload
    c.sendall(b"\x30" + varint(len(body)) + body)

server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", port))
server.listen(4)
print("listening", flush=True)
while True:
    c, _ = server.accept()
    try:
        while True:
            head, body = read_packet(c)
            kind = head >> 4
            if kind == 1:  # CONNECT: the protocol level follows the name "MQTT"
                level = body[6]
                print("connect", level, flush=True)
                if level != 4:
                    c.sendall(b"\x20\x02\x00\x01")  # 3.1.1: unacceptable protocol version
                    break
                c.sendall(b"\x20\x02\x00\x00")
            elif kind == 8:  # SUBSCRIBE: SUBACK, then the big payload and a normal command
                c.sendall(b"\x90\x03" + body[:2] + b"\x01")
                print("subscribed", flush=True)
                publish(c, topic, b"7" * size)
                publish(c, topic, b"37")
                print("sent", flush=True)
            elif kind == 3:  # PUBLISH from kiosk: told on stdout, acknowledged at QoS 1
                n = int.from_bytes(body[:2], "big")
                t = body[2:2 + n].decode()
                rest = body[2 + n:]
                if (head >> 1) & 3:
                    c.sendall(b"\x40\x02" + rest[:2])
                    rest = rest[2:]
                print("publish", t, rest.decode(errors="replace").replace("\n", " "), flush=True)
            elif kind == 12:
                c.sendall(b"\xd0\x00")
            elif kind == 14:
                break
    except (EOFError, ConnectionError):
        pass
    c.close()
"""#
}
