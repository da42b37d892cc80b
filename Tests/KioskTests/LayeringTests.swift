import Foundation
import XCTest

/// The layering the package promises, read from the sources: each C module is wrapped by one target and imported
/// `internal`; the core has no C and no file-system access; monotonic time and media extensions each have one home.
final class LayeringTests: XCTestCase {
    private let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources").path

    /// Swift files per target folder, as (target, path relative to Sources, text).
    private func swiftFiles() throws -> [(target: String, path: String, text: String)] {
        let fm = FileManager.default
        var out: [(String, String, String)] = []
        for target in try fm.contentsOfDirectory(atPath: sources).sorted() {
            guard let walk = fm.enumerator(atPath: sources + "/" + target) else { continue }
            while let rel = walk.nextObject() as? String {
                guard rel.hasSuffix(".swift") else { continue }
                out.append((target, target + "/" + rel, try String(contentsOfFile: sources + "/" + target + "/" + rel, encoding: .utf8)))
            }
        }
        return out
    }

    /// The C modules: folders under Sources with a module map or a C `include/` folder and no Swift.
    private func cModules() throws -> Set<String> {
        let fm = FileManager.default
        return Set(try fm.contentsOfDirectory(atPath: sources).filter { name in
            let dir = sources + "/" + name
            return fm.fileExists(atPath: dir + "/module.modulemap") || fm.fileExists(atPath: dir + "/include")
        })
    }

    func testEachCModuleIsImportedInternallyByExactlyOneTarget() throws {
        let modules = try cModules()
        XCTAssertTrue(modules.isSuperset(of: ["CDRM", "CEGL", "CFFmpeg", "CUdev", "CLibinput", "CSystemd", "CMosquitto"]), "\(modules)")
        var importers: [String: Set<String>] = [:]
        for file in try swiftFiles() {
            for line in file.text.split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                guard let i = words.firstIndex(of: "import"), i + 1 < words.count, modules.contains(words[i + 1]) else { continue }
                XCTAssertEqual(words.first, "internal", "\(file.path): `\(line)` should be `internal import \(words[i + 1])`")
                importers[words[i + 1], default: []].insert(file.target)
            }
        }
        for (module, targets) in importers {
            XCTAssertEqual(targets.count, 1, "\(module) is imported by \(targets.sorted()); one target should wrap it")
        }
        XCTAssertEqual(importers["CUdev"], ["KioskOutput"])
        XCTAssertEqual(importers["CLibinput"], ["KioskInput"])
        for module in ["CJPEG", "CKioskJPEGShim", "CKioskPNGShim"] {
            XCTAssertEqual(importers[module], ["KioskMedia"], module)
        }
        for module in ["CFreeType", "CHarfBuzz", "CFontconfig"] {
            XCTAssertEqual(importers[module], ["KioskText"], module)
        }
        XCTAssertEqual(importers["CMosquitto"], ["KioskFleet"])
        XCTAssertEqual(importers["CLibXML2"], ["KioskMedia"])
        XCTAssertEqual(importers["CCurl"], ["KioskFetch"])
        XCTAssertEqual(importers["CSodium"], ["KioskTrust"])
    }

    func testCoreHasNoCAndNoFileSystemAccess() throws {
        let modules = try cModules()
        for file in try swiftFiles() where file.target == "KioskCore" {
            for line in file.text.split(separator: "\n") where line.contains("import ") {
                let name = line.split(separator: " ").last.map(String.init) ?? ""
                XCTAssertFalse(modules.contains(name), "\(file.path) imports \(name)")
            }
            for call in ["FileManager", "contentsOfFile", "fopen(", "opendir(", "DeviceOpener"] {
                XCTAssertFalse(file.text.contains(call), "\(file.path) uses \(call): file and device I/O belong outside the core")
            }
            // Data(contentsOf:), String(contentsOf:) read files; a collection's insert(contentsOf:at:) doesn't
            let reader = file.text.range(of: #"\b[A-Z][A-Za-z]*\(contentsOf:"#, options: .regularExpression)
            XCTAssertNil(reader, "\(file.path) uses \(reader.map { String(file.text[$0]) } ?? ""): file I/O belongs outside the core")
        }
    }

    func testMonotonicTimeIsReadInOnePlace() throws {
        for file in try swiftFiles() where file.path != "KioskCore/Time/Clock.swift" {
            for reading in ["clock_gettime(", "DispatchTime.now", "ContinuousClock.now", "SuspendingClock.now", "systemUptime"] {
                XCTAssertFalse(file.text.contains(reading), "\(file.path) reads \(reading); use MonotonicClock.seconds()")
            }
        }
    }

    func testMediaExtensionsAreListedOnce() throws {
        for file in try swiftFiles() where file.path != "KioskCore/Playlist/MediaExtensions.swift" {
            XCTAssertFalse(file.text.contains("\"jpeg\"") && file.text.contains("\"png\""),
                           "\(file.path) keeps its own picture extensions; use MediaExtensions")
        }
    }
}
