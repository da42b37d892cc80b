import Foundation
import KioskCore

/// A SMIL file made ready to play: read (libxml2, bounded, confined), turned into a document, each `src` resolved
/// to a local file next to the SMIL file (URLs are refused: kiosk opens nothing but local files), and each
/// clip's and sound's length probed. Media that cannot play are listed with one line each and skipped by the
/// timeline (their regions show their backgrounds).
public struct SMILFile: Sendable {
    /// The document.
    public let document: SMILDocument
    /// Each playable medium's file, by media index.
    public let paths: [Int: String]
    /// What the timeline needs of each medium's length, by media index.
    public let lengths: [Int: SMILTimeline.MediaLength]
    /// One line per medium that will not play (`FILE:LINE: src "x": reason`).
    public let problems: [String]

    /// Whether `path` names a SMIL file (by its extension: `.smil`, `.smi`).
    public static func isSMIL(_ path: String) -> Bool {
        ["smil", "smi"].contains((path as NSString).pathExtension.lowercased())
    }

    /// Reads the file at `path`. Throws a `MarkupError` or `SMILError` (one line, FILE:LINE) when the document
    /// itself cannot be played.
    public static func load(_ path: String, limits: DecodeLimits? = nil) throws -> SMILFile {
        let root = try MarkupReader.read(file: path)
        let document = try SMILReader.read(root, file: path)
        let base = (path as NSString).deletingLastPathComponent
        var paths: [Int: String] = [:], lengths: [Int: SMILTimeline.MediaLength] = [:], problems: [String] = []
        for m in document.mediaInDocumentOrder {
            let at = "\(m.source): src \"\(ErrorQuote.cut(m.src))\""
            guard let file = resolve(m.src, base: base) else {
                problems.append("\(at): not a local file (kiosk plays only local files)")
                lengths[m.index] = .unplayable
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
                paths[m.index] = file
            } catch {
                let why = "\(error)"
                problems.append("\(at): \(why.hasPrefix(file + ": ") ? String(why.dropFirst(file.count + 2)) : why)")
                lengths[m.index] = .unplayable
            }
        }
        return SMILFile(document: document, paths: paths, lengths: lengths, problems: problems)
    }

    /// The timeline of this file, stills lasting `stillDuration` seconds.
    public func timeline(stillDuration: Double) -> SMILTimeline {
        SMILTimeline(document: document, stillDuration: stillDuration) { lengths[$0.index] ?? .unplayable }
    }

    /// `src` as a local path: relative to `base`, absolute, or a `file:` URL with no host; nil for anything with
    /// another scheme (http:, rtsp:, …) or a host.
    static func resolve(_ src: String, base: String) -> String? {
        var s = src.trimmingCharacters(in: .whitespaces)
        if s.hasPrefix("file://") {
            s = String(s.dropFirst(7))
            guard s.hasPrefix("/") else { return nil }  // file://host/... names another machine
            s = s.removingPercentEncoding ?? s
        } else if let colon = s.firstIndex(of: ":"), s[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
                  s[..<colon].count > 1 {
            return nil  // a URL scheme (a one-letter "c:" is not one, but is no Linux path either: left as a name)
        }
        guard !s.isEmpty else { return nil }
        return s.hasPrefix("/") ? s : (base.isEmpty ? s : base + "/" + s)
    }
}
