import Foundation
import KioskFetch
import XCTest

/// A content bundle on a stand-in USB stick (a temporary folder): `STICK/kiosk/index.smil` naming the URL it stands
/// for, its media beside it, signed by Debian's minisign; and the content cache's whole state as bytes, to show that
/// a refused bundle changes nothing.
struct StickBundle {
    /// The URL the test bundles stand for.
    static let url = "https://cms.example/screens/lobby/index.smil"

    /// One element of the index: its SMIL element, src and sha256 attribute (nil: none).
    struct Entry {
        var element = "img"
        var src: String
        var sha256: String?
    }

    /// The stick's folder (the mount point a watch would find).
    let stick: String

    /// The folder holding the index (`STICK/kiosk`).
    var folder: String { stick + "/" + BundleLayout.subfolder }
    /// The index file.
    var index: String { folder + "/" + BundleLayout.indexName }
    /// The signature file.
    var signature: String { index + ".minisig" }
    /// A path in the bundle's folder.
    func file(_ relative: String) -> String { folder + "/" + relative }

    /// A bundle folder at `stick` (made, with `kiosk/media`).
    init(_ stick: String) throws {
        self.stick = stick
        try FileManager.default.createDirectory(atPath: stick + "/" + BundleLayout.subfolder + "/media",
                                                withIntermediateDirectories: true)
    }

    /// The text of an index naming `entries`, standing for `url` (nil: no kiosk-url), asking for a 60 s refresh.
    static func smil(_ entries: [Entry], url: String? = StickBundle.url) -> String {
        var s = "<smil xmlns=\"http://www.w3.org/ns/SMIL\">\n<head>\n<meta http-equiv=\"Refresh\" content=\"60\"/>\n"
        if let url { s += "<meta name=\"kiosk-url\" content=\"\(url)\"/>\n" }
        s += "<layout><root-layout width=\"640\" height=\"360\"/></layout>\n</head>\n<body>\n<seq repeatCount=\"indefinite\">\n"
        for entry in entries {
            s += "<\(entry.element) src=\"\(entry.src)\" dur=\"5s\"" + (entry.sha256.map { " sha256=\"\($0)\"" } ?? "") + "/>\n"
        }
        return s + "</seq>\n</body>\n</smil>\n"
    }

    /// Writes the index naming `entries` (each file's sum taken from the bundle when `summed` and not given).
    func writeIndex(_ entries: [Entry], url: String? = StickBundle.url, summed: Bool = true) throws {
        let filled = try entries.map { entry -> Entry in
            var entry = entry
            if summed, entry.sha256 == nil, FileManager.default.fileExists(atPath: file(entry.src)) {
                entry.sha256 = try ContentFixtures.sha256(file(entry.src))
            }
            return entry
        }
        try? FileManager.default.removeItem(atPath: index)
        try ContentFixtures.write(Self.smil(filled, url: url), to: index)
    }

    /// Signs the index with `pair` (minisign -S, prehashed), replacing any signature.
    func sign(with pair: MinisignTool.KeyPair) throws {
        try? FileManager.default.removeItem(atPath: signature)
        try MinisignTool.sign(index, with: pair, into: signature)
    }

    /// Every file under the cache folder `cache` (relative path -> bytes): its state file, its bodies, its lock.
    static func snapshot(_ cache: String) -> [String: Data] {
        var files: [String: Data] = [:]
        guard let walk = FileManager.default.enumerator(atPath: cache) else { return files }
        while let name = walk.nextObject() as? String {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: cache + "/" + name, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            files[name] = ContentFixtures.bytes(cache + "/" + name)
        }
        return files
    }
}
