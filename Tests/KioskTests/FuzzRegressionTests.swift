import Foundation
import KioskCore
import KioskMedia
import XCTest

/// The fuzzer's findings and a few hand-made hostile inputs (Fixtures/fuzz/TARGET/*), each fed through the entry
/// point its `Kiosk/fuzz.sh` target uses (Fuzz/*.swift): it must come back as a value or an error, never a crash.
final class FuzzRegressionTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz")
    /// The size Fuzz/MediaTargets.swift decodes stills to, and the most pixels it decodes.
    private static let screen = PixelSize(width: 64, height: 48)
    private static let maxDecodedPixels = 1 << 22

    /// Every fixture of every target, through that target's entry point.
    func testFuzzFixturesComeBackAsValuesOrErrors() throws {
        let targets = try FileManager.default.contentsOfDirectory(atPath: Self.root.path)
            .filter { !$0.hasSuffix(".md") }.sorted()
        XCTAssertFalse(targets.isEmpty, "no fixtures in \(Self.root.path)")
        var fed = 0
        for target in targets {
            let folder = Self.root.appendingPathComponent(target)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
                let path = folder.appendingPathComponent(name).path
                XCTAssertTrue(try feed(target: target, path: path), "\(target)/\(name): no such fuzz target")
                fed += 1
            }
        }
        XCTAssertGreaterThan(fed, 0)
    }

    /// Feeds `path` as `Kiosk/fuzz.sh target` does; false for an unknown target.
    private func feed(target: String, path: String) throws -> Bool {
        switch target {
        case "sniff": _ = try? MediaFile.probe(path)
        case "image":
            decodeSmall(path, probe: { try FFmpegImageDecoder.probe(path: $0) }) { try FFmpegImageDecoder.decode(path: $0, targetSize: { _ in Self.screen }) }
        case "gif", "gif-anim": decodeSmall(path, probe: { try GifDecoder.probe(path: $0) }, decode: { try GifDecoder.decode(path: $0) })
        case "webp", "webp-anim": decodeSmall(path, probe: { try WebPDecoder.probe(path: $0) }, decode: { try WebPDecoder.decode(path: $0) })
        case "m3u":
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
            let quiet = Log(level: .error, sink: { _ in })
            for item in M3U.entries(in: text, base: "/srv/kiosk", source: "fuzz.m3u", log: quiet) {
                XCTAssertTrue(item.path.hasPrefix("/"), "\(path): relative entry \(item.path)")
                if let o = item.override { XCTAssertNoThrow(try o.validate(), "\(path): an invalid override was kept") }
                _ = ProjectionResolver.decide(path: item.path, metadata: nil, override: item.override)
            }
        case "config":
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
            guard let args = try? ConfigFile.expand(["--config", "kiosk.conf"], read: { _ in text }),
                  let options = try? ParsedOptions.parse(args, specs: CommandSpecs.play, command: "play") else { break }
            _ = try? CommandSpecs.config(from: options)
            _ = try? CommandSpecs.inputOptions(from: options)
            _ = try? CommandSpecs.projectionOverride(options)
        default: return false
        }
        return true
    }

    /// Probes, and decodes only what the fuzz targets decode (a small result).
    private func decodeSmall(_ path: String, probe: (String) throws -> MediaInfo, decode: (String) throws -> DecodedItem) {
        guard let info = try? probe(path), info.width * info.height * max(1, info.frames) <= Self.maxDecodedPixels else { return }
        _ = try? decode(path)
    }
}
