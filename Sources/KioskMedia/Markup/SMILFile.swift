import Foundation
import KioskCore

/// A SMIL file made ready to play: read (libxml2, bounded, confined), turned into a document, each `src` resolved
/// to a local file, and each clip's and sound's length probed. Media that cannot play are listed with one line
/// each and skipped by the timeline (their regions show their backgrounds).
///
/// A local SMIL file's sources are files next to it (a URL is refused: kiosk opens nothing but local files). An
/// index fetched from a server comes with its `ContentMap`: each source, relative or an http(s) URL (its query
/// string kept), is the content cache's file for it; one the cache does not hold, or with another scheme
/// (`file:`, `ftp:`), does not play.
public struct SMILFile: Sendable {
    /// The document.
    public let document: SMILDocument
    /// Each playable medium's file, by media index.
    public let paths: [Int: String]
    /// What the timeline needs of each medium's length, by media index.
    public let lengths: [Int: SMILTimeline.MediaLength]
    /// One line per medium that will not play (`FILE:LINE: src "x": reason`).
    public let problems: [String]
    /// The media (by index) whose files have a sound stream.
    public let sounding: Set<Int>
    /// Each medium's projection and start view from its `<param name="projection">`, by media index.
    public let overrides: [Int: ProjectionOverride]

    /// A layout made in code: `document` with its media's files `paths` (by media index), their `lengths` (a
    /// medium without one is a still) and the `problems` said about it.
    public init(document: SMILDocument, paths: [Int: String], lengths: [Int: SMILTimeline.MediaLength] = [:],
                problems: [String] = [], sounding: Set<Int> = [], overrides: [Int: ProjectionOverride] = [:]) {
        self.document = document
        self.paths = paths
        self.lengths = lengths
        self.problems = problems
        self.sounding = sounding
        self.overrides = overrides
    }

    /// Whether `path` names a SMIL file (by its extension: `.smil`, `.smi`).
    public static func isSMIL(_ path: String) -> Bool {
        ["smil", "smi"].contains((path as NSString).pathExtension.lowercased())
    }

    /// Reads the file at `path`. Throws a `MarkupError` or `SMILError` (one line, FILE:LINE) when the document
    /// itself cannot be played. `confined` (a layout a remote loaded): with `--media-root`, a medium whose real
    /// path lies outside the root does not play (one problem line), as the remote gate refuses such a file.
    /// `content`: `path` is an index the content fetcher cached; its sources are the map's files, and its lines
    /// name it by its URL (FILE:LINE is the index's URL and line).
    public static func load(_ path: String, limits: DecodeLimits? = nil, confined: Bool = false,
                            content: ContentMap? = nil) throws -> SMILFile {
        let name = content?.indexURL ?? path
        let root = try MarkupReader.read(file: path, name: name)
        let document = try SMILReader.read(root, file: name)
        let base = (path as NSString).deletingLastPathComponent
        var paths: [Int: String] = [:], lengths: [Int: SMILTimeline.MediaLength] = [:], problems: [String] = []
        var sounding: Set<Int> = [], overrides: [Int: ProjectionOverride] = [:]
        for m in document.mediaInDocumentOrder {
            if m.kind == .brush || (m.kind == .text && m.src.isEmpty) {
                // a colour or a smilText's own text, no file: it lasts its dur (or --duration), as a still does
                lengths[m.index] = .still
                continue
            }
            if let text = m.params["projection"] {
                do {
                    overrides[m.index] = try projection(text)
                } catch {
                    problems.append("\(m.source): param projection=\"\(ErrorQuote.cut(text))\": \(error); shown flat")
                }
            }
            if let text = m.params["ken-burns"], !["on", "off", "true", "false", "yes", "no", "1", "0"].contains(text.lowercased()) {
                problems.append("\(m.source): param ken-burns=\"\(ErrorQuote.cut(text))\": not on or off; shown still")
            }
            let at = "\(m.source): src \"\(ErrorQuote.cut(m.src))\""
            let file: String
            switch locate(m.src, base: base, content: content) {
            case .success(let f): file = f
            case .failure(let why):
                problems.append("\(at): \(why)")
                lengths[m.index] = .unplayable
                continue
            }
            // the content cache's files are kiosk's own, wherever --media-root is
            if content == nil, confined, let root = MediaConfinement.rootPath, !Self.lies(file, beneath: root) {
                problems.append("\(at): outside --media-root \(root) (the layout was loaded by a remote)")
                lengths[m.index] = .unplayable
                continue
            }
            if m.kind == .text {  // a text file: read by the player when it shows (a ticker's at each pass)
                do {
                    _ = try TextMediaFile.read(file)
                    paths[m.index] = file
                    lengths[m.index] = .still
                } catch {
                    problems.append("\(at): \(error)")
                    lengths[m.index] = .unplayable
                }
                continue
            }
            do {
                let info = try MediaFile.probe(file, limits: limits)
                switch info.kind {
                case .image, .animation: lengths[m.index] = .still  // an animation plays its loops in its dur
                case .video, .audio:
                    // a one-frame video without sound is shown as a still, as in a playlist
                    if info.kind == .video && info.frames == 1 && !info.streams.contains(where: { $0.type == "audio" }) {
                        lengths[m.index] = .still
                    } else if let d = info.duration, d > 0 {
                        lengths[m.index] = .timed(d)
                    } else {
                        lengths[m.index] = .still
                    }
                }
                if info.streams.contains(where: { $0.type == "audio" }) { sounding.insert(m.index) }
                paths[m.index] = file
            } catch {
                let why = "\(error)"
                problems.append("\(at): \(why.hasPrefix(file + ": ") ? String(why.dropFirst(file.count + 2)) : why)")
                lengths[m.index] = .unplayable
            }
        }
        return SMILFile(document: document, paths: paths, lengths: lengths, problems: problems, sounding: sounding,
                        overrides: overrides)
    }

    /// A `projection` param: what `#EXTKIOSK:` takes from `projection=` on (`equirect`, or
    /// `equirect,yaw=45,pitch=-10,fov=60x45`), checked as the playlist line is.
    private static func projection(_ text: String) throws -> ProjectionOverride {
        let o = try ProjectionOverride(parsing: "projection=" + text)
        try o.validate()
        return o
    }

    /// Whether `file`'s real path (every symlink followed) lies beneath `root`; a file that does not exist does
    /// not (its probe would say why, but nothing outside the root is looked at).
    private static func lies(_ file: String, beneath root: String) -> Bool {
        guard let real = realpath(file, nil) else { return false }
        defer { free(real) }
        let path = String(cString: real)
        return root == "/" || path.hasPrefix(root + "/")
    }

    /// The timeline of this file, stills lasting `stillDuration` seconds, its wallclock begins placed by `anchor`
    /// (nil: the body begins now, in the system's time zone) and its event begins by the triggers `fired`.
    public func timeline(stillDuration: Double, anchor: SMILTimeline.WallAnchor? = nil, fired: [SMILFiredEvent] = []) -> SMILTimeline {
        SMILTimeline(document: document, stillDuration: stillDuration, anchor: anchor, fired: fired) { lengths[$0.index] ?? .unplayable }
    }

    /// Where `src` is on this machine: with `content`, the cache's file for it; without, a file by `resolve`. The
    /// reason, for a problem line, when there is none.
    static func locate(_ src: String, base: String, content: ContentMap?) -> Result<String, SourceRefusal> {
        guard let content else {
            if let file = resolve(src, base: base) { return .success(file) }
            return .failure(SourceRefusal("not a local file (kiosk plays only local files; `kiosk play URL` fetches remote content)"))
        }
        guard content.absolute(src) != nil else {
            let text = src.trimmingCharacters(in: .whitespacesAndNewlines)
            if let colon = text.firstIndex(of: ":"), text[..<colon].count > 1,
               text[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) {
                return .failure(SourceRefusal("\(text[..<colon].lowercased()): is refused in an index fetched from a server (only http and https)"))
            }
            return .failure(SourceRefusal("not an http or https URL"))
        }
        guard let file = content.file(for: src) else { return .failure(SourceRefusal("not in the content cache")) }
        return .success(file)
    }

    /// `src` as a local path: relative to `base`, absolute, or a `file:` URL with no host; nil for anything with
    /// another scheme (http:, rtsp:, …) or a host (`//host/path`).
    static func resolve(_ src: String, base: String) -> String? {
        var s = src.trimmingCharacters(in: .whitespaces)
        if s.hasPrefix("file://") {
            s = String(s.dropFirst(7))
            guard s.hasPrefix("/") else { return nil }  // file://host/... names another machine
            s = s.removingPercentEncoding ?? s
        } else if let colon = s.firstIndex(of: ":"), s[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
                  s[..<colon].count > 1 {
            return nil  // a URL scheme (a one-letter "c:" is not one, but is no Linux path either: left as a name)
        } else if s.hasPrefix("//") {
            return nil  // `//host/path`: a URL on the index's scheme, as CMSs write CDN links
        }
        guard !s.isEmpty else { return nil }
        return s.hasPrefix("/") ? s : (base.isEmpty ? s : base + "/" + s)
    }
}

/// Why a medium's `src` names no file kiosk opens (the end of its problem line).
struct SourceRefusal: Error, CustomStringConvertible {
    /// The reason.
    let description: String
    init(_ description: String) { self.description = description }
}
