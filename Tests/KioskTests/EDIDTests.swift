import Foundation
import KioskCore
import XCTest

/// The EDID parser's identity (manufacturer, product code, serial number, monitor name, serial text) against
/// `edid-decode` (Debian) on the same blob: two real EDIDs made by QEMU's generator, and blobs made here with the
/// fields a real monitor fills (a name and a serial as text, a 13-character name with no line feed, no name at all).
final class EDIDTests: XCTestCase {
    /// QEMU 7.2's EDIDs (`-device VGA,edid=on,xres=1280,yres=800` and `xres=1920,yres=1080`), read from the VGA
    /// device's MMIO BAR with the monitor's `xp /256bx` after SeaBIOS mapped it: the base block and a CTA-861 block.
    static let qemuBlobs = [
        "00ffffffffffff0049143412000000002a180104a520147806ee91a3544c99260f5054210800e1c0d1c0d100a940b300950081808140ea2900c051201c304026444045cb10000018000000f7000a004082002820000000000000000000fd00327d1ea0ff010a202020202020000000fc0051454d55204d6f6e69746f720a013a02030b00467d6560591f6100000010000000000000000000000000000000000010000000000000000000000000000000000010000000000000000000000000000000000010000000000000000000000000000000000010000000000000000000000000000000000010000000000000000000000000000000000000000000002f",
        "00ffffffffffff0049143412000000002a180104a5301b7806ee91a3544c99260f5054210800e1c0d1c0d100a940b300950081808140d25480a072382540e0395540e71211000018000000f7000a004082002820000000000000000000fd00327d1ea0ff010a202020202020000000fc0051454d55204d6f6e69746f720a01b002030b00467d6560591f6100000010000000000000000000000000000000000010000000000000000000000000000000000010000000000000000000000000000000000010000000000000000000000000000000000010000000000000000000000000000000000010000000000000000000000000000000000000000000002f",
    ]

    /// What edid-decode says of a blob.
    struct Reference: Equatable {
        var manufacturer: String?
        var model: UInt16?
        var serial: UInt32 = 0  // edid-decode leaves the line out for 0
        var name: String?
        var serialText: String?
    }

    func testQEMUBlobsMatchEdidDecode() throws {
        for hex in Self.qemuBlobs {
            let bytes = try XCTUnwrap(Self.bytes(hex))
            let identity = try EDIDIdentity(parsing: bytes)
            XCTAssertEqual(identity.manufacturer, "RHT")
            XCTAssertEqual(identity.name, "QEMU Monitor")
            try check(bytes)
        }
    }

    func testMadeBlobsMatchEdidDecode() throws {
        let blobs = [
            Self.blob(manufacturer: "DEL", product: 0xA0C1, serial: 0x3041_424C, name: "DELL U2415", serialText: "7MT0184R0XYL"),
            Self.blob(manufacturer: "SAM", product: 0x0F35, serial: 1, name: "SyncMaster 24"),  // 13 bytes: no line feed
            Self.blob(manufacturer: "ZZZ", product: 0xFFFF, serial: 0xFFFF_FFFF, name: nil, serialText: "A"),
            Self.blob(manufacturer: "AAA", product: 0, serial: 0, name: "x"),
        ]
        for bytes in blobs { try check(bytes) }
    }

    func testBadBlobsAreRefusedWithOneLine() throws {
        let good = Self.blob(manufacturer: "DEL", product: 1, serial: 2, name: "n")
        XCTAssertThrowsError(try EDIDIdentity(parsing: Array(good.prefix(100)))) { XCTAssertEqual($0 as? EDIDIdentity.ParseError, .tooShort(100)) }
        var header = good
        header[1] = 0
        XCTAssertThrowsError(try EDIDIdentity(parsing: header)) { XCTAssertEqual($0 as? EDIDIdentity.ParseError, .badHeader) }
        var sum = good
        sum[20] &+= 1
        XCTAssertThrowsError(try EDIDIdentity(parsing: sum)) { XCTAssertEqual($0 as? EDIDIdentity.ParseError, .badChecksum) }
        var letters = good
        letters[8] = 0x7F  // a 5-bit letter of 31
        letters[127] = 0
        letters[127] = 0 &- letters[0..<128].reduce(0, &+)
        XCTAssertThrowsError(try EDIDIdentity(parsing: letters)) { error in
            guard case .badManufacturer = error as? EDIDIdentity.ParseError else { return XCTFail("\(error)") }
        }
    }

    /// Parses `bytes` and compares its identity with edid-decode's reading of the same file.
    private func check(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = try TempDir()
        let path = dir.file("edid.bin")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let r = try BoundedProcess.run("/usr/bin/edid-decode", [path], timeout: 30)
        let text = String(decoding: r.stdout, as: UTF8.self)
        let reference = Self.reference(text)
        XCTAssertNotNil(reference.manufacturer, "edid-decode gave no manufacturer: \(text)", file: file, line: line)
        let identity = try EDIDIdentity(parsing: bytes)
        let ours = Reference(manufacturer: identity.manufacturer, model: identity.productCode, serial: identity.serialNumber,
                             name: identity.name, serialText: identity.serialText)
        XCTAssertEqual(ours, reference, "edid-decode says:\n\(text)", file: file, line: line)
    }

    /// The identity lines of edid-decode's output (`Manufacturer: DEL`, `Model: 41153`, `Serial Number: 809583180`,
    /// `Display Product Name: 'DELL U2415'`, `Display Product Serial Number: '7MT0184R0XYL'`).
    static func reference(_ text: String) -> Reference {
        var r = Reference()
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            func after(_ prefix: String) -> String? { line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : nil }
            func quoted(_ s: String) -> String { s.hasPrefix("'") && s.hasSuffix("'") && s.count >= 2 ? String(s.dropFirst().dropLast()) : s }
            if let v = after("Manufacturer: ") { r.manufacturer = v }
            if let v = after("Model: ") { r.model = UInt16(v.prefix { $0.isNumber }) }
            if let v = after("Serial Number: ") { r.serial = UInt32(v.prefix { $0.isNumber }) ?? 0 }
            if let v = after("Display Product Name: ") { r.name = quoted(v) }
            if let v = after("Display Product Serial Number: ") { r.serialText = quoted(v) }
        }
        return r
    }

    /// A hex string's bytes.
    static func bytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        return stride(from: 0, to: digits.count, by: 2).map { i in
            UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16)
        }.reduce(into: [UInt8]?([])) { out, b in
            guard let b else { out = nil; return }
            out?.append(b)
        }
    }

    /// A base block as a monitor gives one: EDID 1.4, digital, a 1920x1080@60 detailed timing, the name and the
    /// serial as text (when given), range limits, then dummy descriptors, and the checksum.
    static func blob(manufacturer: String, product: UInt16, serial: UInt32, name: String?, serialText: String? = nil) -> [UInt8] {
        var b = [UInt8](repeating: 0, count: 128)
        b[0..<8] = [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]
        let letters = manufacturer.utf8.map { UInt16($0 - 64) }
        let id = letters[0] << 10 | letters[1] << 5 | letters[2]
        b[8] = UInt8(id >> 8)
        b[9] = UInt8(id & 0xFF)
        b[10] = UInt8(product & 0xFF)
        b[11] = UInt8(product >> 8)
        for i in 0..<4 { b[12 + i] = UInt8((serial >> (8 * UInt32(i))) & 0xFF) }
        b[16] = 12
        b[17] = 30
        b[18] = 1
        b[19] = 4
        b[20] = 0xA0
        b[21] = 52
        b[22] = 29
        b[23] = 120
        b[24] = 0x0A
        b[54..<72] = [0x02, 0x3A, 0x80, 0x18, 0x71, 0x38, 0x2D, 0x40, 0x58, 0x2C, 0x45, 0x00, 0x09, 0x25, 0x21, 0x00, 0x00, 0x1E][...]
        var descriptors: [[UInt8]] = []
        func text(_ tag: UInt8, _ s: String) -> [UInt8] {
            var t = Array(s.utf8.prefix(13))
            if t.count < 13 { t += [0x0A] + [UInt8](repeating: 0x20, count: 12 - t.count) }
            return [0, 0, 0, tag, 0] + t
        }
        if let name { descriptors.append(text(0xFC, name)) }
        if let serialText { descriptors.append(text(0xFF, serialText)) }
        descriptors.append([0, 0, 0, 0xFD, 0, 0x38, 0x4C, 0x1E, 0x53, 0x11, 0, 0x0A, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20])
        while descriptors.count < 3 { descriptors.append([0, 0, 0, 0x10] + [UInt8](repeating: 0, count: 14)) }
        for (i, d) in descriptors.prefix(3).enumerated() { b[72 + 18 * i..<90 + 18 * i] = d[...] }
        b[127] = 0 &- b[0..<127].reduce(0, &+)
        return b
    }
}
