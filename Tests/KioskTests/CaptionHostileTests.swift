import Foundation
import XCTest
@testable import KioskCore
@testable import KioskMedia

/// Hostile and broken inputs to the caption reader: files cut inside a metadata segment, EXIF and IPTC with
/// huge counts and pointer loops, a 10 MB sidecar, a FIFO for a sidecar, random bytes. Nothing crashes, blocks
/// or reads past its bounds.
final class CaptionHostileTests: XCTestCase {
    /// A JPEG with EXIF, XMP and IPTC written by exiftool.
    private func richJPEG(_ dir: TempDir) throws -> String {
        let photo = try CaptionFixtures.jpeg(dir, "rich.jpg")
        try CaptionFixtures.exiftool(photo, ["-XMP-dc:Description=from XMP", "-IPTC:Caption-Abstract=from IPTC",
                                             "-EXIF:ImageDescription=from EXIF", "-EXIF:DateTimeOriginal=2026:12:24 08:30:00"])
        return photo
    }

    func testFilesCutInsideMetadataSegments() throws {
        let dir = try TempDir()
        let bytes = try CaptionFixtures.bytes(try richJPEG(dir))
        let exif = try XCTUnwrap(CaptionFixtures.findSegment(bytes, marker: 0xE1, prefix: Array("Exif\0\0".utf8)))
        let xmp = try XCTUnwrap(CaptionFixtures.findSegment(bytes, marker: 0xE1, prefix: XMPText.jpegHeader))
        let iptc = try XCTUnwrap(CaptionFixtures.findSegment(bytes, marker: 0xED, prefix: IPTCText.photoshopHeader))
        let cut = dir.file("cut.jpg")
        func caption(cutAt n: Int) throws -> ItemMetadata? {
            try CaptionFixtures.write(Array(bytes[0..<n]), to: cut)
            return CaptionFixtures.read(cut).metadata
        }
        // Cut in the middle of each segment: the segments wholly before the cut are read, the cut one is not.
        let segments: [(offset: Int, length: Int, caption: String, rank: Int)] = [
            (exif.offset, exif.length, "from EXIF", 2), (xmp.offset, xmp.length, "from XMP", 0),
            (iptc.offset, iptc.length, "from IPTC", 1),
        ]
        for segment in segments {
            for n in [segment.offset + 3, segment.offset + segment.length / 2, segment.offset + segment.length - 1] {
                let whole = segments.filter { $0.offset + $0.length <= n }.sorted { $0.rank < $1.rank }
                XCTAssertEqual(try caption(cutAt: n)?.caption, whole.first?.caption, "cut at \(n), inside \(segment.caption)")
            }
        }
        XCTAssertEqual(try caption(cutAt: xmp.offset + xmp.length / 2)?.date?.description, "2026-12-24 08:30:00")
        // Every cut through the metadata: no crash, and nothing it reports that the whole file lacks.
        for n in stride(from: 0, through: max(xmp.offset + xmp.length, iptc.offset + iptc.length) + 8, by: 13) {
            let m = try caption(cutAt: n)
            XCTAssertTrue([nil, "from EXIF", "from XMP", "from IPTC"].contains(m?.caption), "cut at \(n): \(m?.caption ?? "-")")
        }
    }

    /// A TIFF whose IFD0 claims 65535 entries, points its Exif sub-IFD back at itself, and has text values with
    /// huge counts and offsets past the end; one real description among them is still found.
    func testEXIFCountsAndLoops() throws {
        func tiff(littleEndian: Bool) -> [UInt8] {
            func u16(_ v: Int) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] : [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
            func u32(_ v: Int) -> [UInt8] { littleEndian ? u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) : u16(v >> 16 & 0xFFFF) + u16(v & 0xFFFF) }
            func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) -> [UInt8] { u16(tag) + u16(type) + u32(count) + u32(value) }
            var t: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
            t += u16(0xFFFF)                                   // 65535 entries claimed; five present
            t += entry(0x013B, 2, 0xFFFF_FFFF, 0x7FFF_FFF0)    // artist: huge count and offset
            t += entry(0x0132, 2, 20, 0xFFFF_FFF0)             // date: offset past the end
            t += entry(0x8769, 4, 1, 8)                        // Exif sub-IFD: IFD0 again
            t += u16(0x010E) + u16(2) + u32(4) + [0x48, 0x69, 0x21, 0x00]  // description inline: "Hi!"
            t += entry(0x9003, 2, 20, 8)                       // DateTimeOriginal in IFD0: not where it belongs
            t += u32(8)                                        // next IFD: IFD0 again
            return t
        }
        for little in [true, false] {
            let t = tiff(littleEndian: little)
            let start = MonotonicClock.seconds()
            let exif = EXIFText(tiff: t)
            XCTAssertLessThan(MonotonicClock.seconds() - start, 1)
            XCTAssertEqual(exif.imageDescription, "Hi!")
            XCTAssertNil(exif.artist)
            XCTAssertNil(exif.dateTime)
            XCTAssertNil(exif.dateTimeOriginal, "not in IFD0, and the sub-IFD pointing at IFD0 is not followed")
        }
        // IPTC: a dataset with an extended length past the end, a resource block with a huge size.
        XCTAssertNil(IPTCText(iim: [0x1C, 2, 120, 0x80, 0x04, 0x7F, 0xFF, 0xFF, 0xFF, 0x41]).caption)
        XCTAssertNil(IPTCText(iim: [0x1C, 2, 120, 0xFF, 0xFF, 0x41]).caption)
        XCTAssertEqual(IPTCText(iim: [0x1C, 2, 120, 0x80, 0x02, 0x00, 0x02, 0x4F, 0x4B]).caption, "OK", "an extended length")
        let block = Array("8BIM".utf8) + [0x04, 0x04, 0, 0, 0xFF, 0xFF, 0xFF, 0xF0] + [0x1C, 2, 120, 0, 1, 0x41]
        XCTAssertNil(IPTCText(photoshopResources: block).caption)
        // A JPEG of nothing but thousands of empty APP segments: the walk stops, quickly.
        let dir = try TempDir()
        let base = try CaptionFixtures.bytes(try CaptionFixtures.jpeg(dir, "base.jpg"))
        let many = CaptionFixtures.inserting(Array(repeating: CaptionFixtures.segment(0xE5, [1, 2]), count: 20_000)
                                             + [CaptionFixtures.segment(0xE1, Array("Exif\0\0".utf8) + [0x49])], into: base)
        try CaptionFixtures.write(many, to: dir.file("many.jpg"))
        let start = MonotonicClock.seconds()
        XCTAssertNil(CaptionFixtures.read(dir.file("many.jpg")).metadata?.caption)
        XCTAssertLessThan(MonotonicClock.seconds() - start, 5)
    }

    /// Packets built to make a naive scan quadratic, and a JPEG of fill bytes: each read stays quick.
    func testPathologicalXMPAndFillBytesStayQuick() throws {
        let unit = ["<dc:description ", "<dc:description><rdf:li ", " dc:description=", "<dc:description>&#x41"]
        for piece in unit {
            let packet = Array(String(repeating: piece, count: 64 * 1024 / piece.utf8.count).utf8)
            let start = MonotonicClock.seconds()
            _ = XMPText(packet: packet)
            XCTAssertLessThan(MonotonicClock.seconds() - start, 2, "'\(piece)' repeated")
        }
        let dir = try TempDir()
        let fill = [0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 3_000_000) + [0xE1, 0x00, 0x10] + [UInt8](repeating: 0, count: 14)
        try CaptionFixtures.write(fill, to: dir.file("fill.jpg"))
        let before = try bytesRead()
        XCTAssertNil(CaptionFixtures.read(PlaylistItem(path: dir.file("fill.jpg")), timeout: 5).metadata?.caption)
        XCTAssertLessThan(try bytesRead() - before, 256 * 1024, "the walk gives up on endless fill bytes")
    }

    /// Bytes this process has read through read(2)/pread(2) so far (/proc/self/io `rchar`).
    private func bytesRead() throws -> Int {
        let io = try String(contentsOfFile: "/proc/self/io", encoding: .utf8)
        let line = try XCTUnwrap(io.split(separator: "\n").first { $0.hasPrefix("rchar:") })
        return try XCTUnwrap(Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)))
    }

    func testHugeSidecarIsReadOnlyToItsCap() throws {
        let dir = try TempDir()
        let photo = try CaptionFixtures.jpeg(dir)
        let first = String(repeating: "a", count: CaptionSidecar.maxBytes - 1) + "é"  // é straddles the cap
        try CaptionFixtures.write(first + String(repeating: "x", count: 10_000_000), to: dir.file("photo.txt"))
        let before = try bytesRead()
        let m = try XCTUnwrap(CaptionFixtures.read(photo).metadata)
        let read = try bytesRead() - before
        XCTAssertLessThan(read, 256 * 1024, "only the cap of a 10 MB sidecar is read")
        XCTAssertEqual(m.captionSource, .sidecar)
        XCTAssertEqual(m.caption, String(repeating: "a", count: CaptionSidecar.maxBytes - 1), "the cut character is dropped")
    }

    func testFIFOSidecarIsRefusedWithoutBlocking() throws {
        let dir = try TempDir()
        let photo = try CaptionFixtures.jpeg(dir)
        try CaptionFixtures.exiftool(photo, ["-XMP-dc:Description=from XMP"])
        XCTAssertEqual(mkfifo(dir.file("photo.jpg.txt"), 0o600), 0, "mkfifo")
        XCTAssertEqual(mkfifo(dir.file("photo.txt"), 0o600), 0, "mkfifo")
        let start = MonotonicClock.seconds()
        let (m, log) = CaptionFixtures.read(PlaylistItem(path: photo), timeout: 5)
        XCTAssertLessThan(MonotonicClock.seconds() - start, 2, "refused at once")
        XCTAssertEqual(m?.caption, "from XMP", "the next source is read")
        let refusals = log.filter { $0.contains("FIFO") }
        XCTAssertEqual(refusals.count, 2, "\(log)")
        XCTAssertTrue(refusals.allSatisfy { !$0.contains("\n") })
        XCTAssertTrue(refusals.first?.contains(dir.file("photo.jpg.txt")) == true, "\(refusals)")
        // A FIFO as the media file itself: refused too, with the playlist caption kept.
        XCTAssertEqual(mkfifo(dir.file("pipe.jpg"), 0o600), 0, "mkfifo")
        let (p, _) = CaptionFixtures.read(PlaylistItem(path: dir.file("pipe.jpg"), caption: "listed"), timeout: 5)
        XCTAssertEqual(p?.caption, "listed")
        // A folder named like a sidecar and a missing file: no caption, no crash.
        try FileManager.default.createDirectory(atPath: dir.file("other.txt"), withIntermediateDirectories: false)
        XCTAssertNil(CaptionFixtures.read(dir.file("other.jpg")).metadata?.caption)
    }

    /// Seeded random bytes, alone and behind each format's header, through every parser and the whole reader.
    func testRandomBytesNeverCrash() throws {
        var rng = SeededGenerator(seed: 2026)
        func noise(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) } }
        let dir = try TempDir()
        let base = try CaptionFixtures.bytes(try richJPEG(dir))
        let prefixes: [[UInt8]] = [
            [], [0xFF, 0xD8, 0xFF], PNGMetadata.signature, Array("ID3".utf8),
            [0xFF, 0xD8] + [0xFF, 0xE1, 0x40, 0x00] + Array("Exif\0\0".utf8),
            [0xFF, 0xD8] + [0xFF, 0xED, 0x40, 0x00] + IPTCText.photoshopHeader + Array("8BIM".utf8) + [0x04, 0x04],
            [0xFF, 0xD8] + [0xFF, 0xE1, 0x40, 0x00] + XMPText.jpegHeader + Array("<dc:description><rdf:li".utf8),
        ]
        for round in 0..<240 {
            let body = noise(Int.random(in: 0...3000, using: &rng))
            _ = EXIFText(tiff: (round % 2 == 0 ? [0x49, 0x49, 42, 0] : [0x4D, 0x4D, 0, 42]) + body)
            _ = IPTCText(iim: [0x1C] + body)
            _ = IPTCText(photoshopResources: Array("8BIM".utf8) + body)
            _ = XMPText(packet: body)
            var mutated = base
            for _ in 0..<8 { mutated[Int.random(in: 2..<min(mutated.count, 4000), using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
            let files = [prefixes[round % prefixes.count] + body, mutated]
            for (i, bytes) in files.enumerated() {
                let path = dir.file("r\(i).bin")
                try CaptionFixtures.write(bytes, to: path)
                XCTAssertNotNil(CaptionFixtures.read(path).metadata, "round \(round)")
            }
        }
    }
}
