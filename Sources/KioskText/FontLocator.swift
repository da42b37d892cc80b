/// Finds font files by family through fontconfig: "DejaVu Sans", "DejaVu Sans:bold", "Noto Serif:italic".
internal import CFontconfig
import KioskCore

/// A font file and the face inside it.
public struct FontFile: Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    public var path: String
    /// The face's index in the file (collections hold several).
    public var faceIndex: Int
    /// The family fontconfig reports for it.
    public var family: String

    /// Creates a reference to a face.
    public init(path: String, faceIndex: Int = 0, family: String = "") {
        self.path = path
        self.faceIndex = faceIndex
        self.family = family
    }

    /// `family (path#index)`.
    public var description: String { "\(family) (\(path)#\(faceIndex))" }
}

/// Looks fonts up by fontconfig pattern.
public enum FontLocator {
    /// The family used when none is asked for or the one asked for is not installed (fonts-dejavu-core).
    public static let defaultFamily = "DejaVu Sans"

    /// The face for `request`, a fontconfig pattern whose family comes first ("DejaVu Sans:bold"). Fontconfig
    /// always matches *something*; when the matched family is not the one asked for, the default family (with the
    /// same style) is used instead and one warning on `log` names both. Throws when no font is found at all.
    public static func locate(_ request: String = defaultFamily, log: Log = .shared) throws -> FontFile {
        guard FcInit() != 0 else { throw TextError(call: "FcInit", reason: "fontconfig could not load its configuration") }
        guard let pattern = withFcString(request, { FcNameParse($0) }) else {
            throw TextError(call: "FcNameParse(\(request))", reason: "not a fontconfig pattern")
        }
        defer { FcPatternDestroy(pattern) }
        let wanted = string(pattern, "family") ?? defaultFamily
        if string(pattern, "family") == nil { addFamily(pattern, defaultFamily) }
        let family = wanted.isEmpty ? defaultFamily : wanted
        if let found = try match(pattern, request: request), found.matches(family) { return found.file }
        guard let fallback = FcPatternDuplicate(pattern) else {
            throw TextError(call: "FcPatternDuplicate(\(request))", reason: "out of memory")
        }
        defer { FcPatternDestroy(fallback) }
        _ = FcPatternDel(fallback, "family")
        addFamily(fallback, defaultFamily)
        guard let found = try match(fallback, request: request), found.matches(defaultFamily) else {
            throw TextError(call: "FontLocator(\(request))",
                            reason: "no font for family '\(family)' and no default '\(defaultFamily)' (install fonts-dejavu-core)")
        }
        log.warn("font: family '\(family)' is not installed; using '\(found.file.family)' (\(found.file.path))")
        return found.file
    }

    /// What fontconfig matched for a pattern: the file and every family name it goes by.
    private struct Match {
        var file: FontFile
        var families: [String]

        /// Whether `family` is one of its names, ignoring case.
        func matches(_ family: String) -> Bool {
            families.contains { $0.lowercased() == family.lowercased() }
        }
    }

    /// The best match for `pattern` (substituted and defaulted on a copy); nil when fontconfig has none.
    private static func match(_ pattern: OpaquePointer, request: String) throws -> Match? {
        guard let query = FcPatternDuplicate(pattern) else {
            throw TextError(call: "FcPatternDuplicate(\(request))", reason: "out of memory")
        }
        defer { FcPatternDestroy(query) }
        guard FcConfigSubstitute(nil, query, FcMatchPattern) != 0 else {
            throw TextError(call: "FcConfigSubstitute(\(request))", reason: "out of memory")
        }
        FcDefaultSubstitute(query)
        var result = FcResultNoMatch
        guard let matched = FcFontMatch(nil, query, &result) else { return nil }
        defer { FcPatternDestroy(matched) }
        guard result == FcResultMatch, let path = string(matched, "file") else { return nil }
        var index: Int32 = 0
        if FcPatternGetInteger(matched, "index", 0, &index) != FcResultMatch { index = 0 }
        var families: [String] = []
        while let name = string(matched, "family", families.count) { families.append(name) }
        return Match(file: FontFile(path: path, faceIndex: Int(index), family: families.first ?? ""), families: families)
    }

    /// Adds a family name to a pattern.
    private static func addFamily(_ pattern: OpaquePointer, _ family: String) {
        _ = withFcString(family) { FcPatternAddString(pattern, "family", $0) }
    }

    /// Calls `body` with `text` as fontconfig's `FcChar8` string.
    private static func withFcString<R>(_ text: String, _ body: (UnsafePointer<FcChar8>) -> R) -> R {
        text.withCString { $0.withMemoryRebound(to: FcChar8.self, capacity: text.utf8.count + 1, body) }
    }

    /// The `n`th string value of `object` in a pattern.
    private static func string(_ pattern: OpaquePointer, _ object: String, _ n: Int = 0) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, object, Int32(n), &value) == FcResultMatch, let value else { return nil }
        return String(cString: value)
    }
}
