import Foundation
import KioskCore

/// A medium an index fetched from a server needs: its absolute URL, the SHA-256 the index gives for it (lower-case
/// hex; nil when none) and where the index names it (FILE:LINE).
public struct ContentReference: Sendable, Equatable {
    /// The absolute http or https URL.
    public let url: String
    /// The SHA-256 the index gives (a `sha256` attribute), lower-case hex.
    public let sha256: String?
    /// FILE:LINE of the element naming it.
    public let source: String

    /// Creates a reference.
    public init(url: String, sha256: String?, source: String) {
        self.url = url
        self.sha256 = sha256
        self.source = source
    }
}

/// The media a SMIL index needs, read from its elements (every element with a `src`: media, `<prefetch>`, text
/// files), for the content fetcher: each as an absolute URL against the index's URL. What cannot be fetched (another
/// scheme, a bad checksum attribute) is one problem line naming FILE:LINE, and is left out.
public enum ContentReferences {
    /// The references of the SMIL index in `file` (named `name` in lines), fetched from `indexURL`, in document order,
    /// each URL once; and the problems found.
    public static func smil(file: String, indexURL: String, name: String? = nil) throws(MarkupError)
        -> (references: [ContentReference], problems: [String]) {
        let root = try MarkupReader.read(file: file, name: name)
        return smil(root: root, indexURL: indexURL, name: name ?? file)
    }

    /// The references of a SMIL document already read (see `smil(file:indexURL:name:)`).
    public static func smil(root: MarkupElement, indexURL: String, name: String) -> (references: [ContentReference], problems: [String]) {
        var references: [ContentReference] = [], problems: [String] = [], seen: Set<String> = []
        var stack = [root]
        var ordered: [MarkupElement] = []
        while let element = stack.popLast() {
            ordered.append(element)
            stack.append(contentsOf: element.children.reversed())
        }
        for element in ordered {
            guard let src = element.attribute("src"), !src.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let at = "\(name):\(element.line)"
            guard let url = ContentMap.absolute(src, base: indexURL) else {
                problems.append("\(at): <\(element.name)> src \"\(ErrorQuote.cut(src))\": not an http or https URL; left out")
                continue
            }
            var sum: String?
            if let text = element.attribute("sha256") {
                let hex = text.trimmingCharacters(in: .whitespaces).lowercased()
                guard hex.count == 64, hex.allSatisfy({ $0.isHexDigit }) else {
                    problems.append("\(at): <\(element.name)> sha256 \"\(ErrorQuote.cut(text))\": not 64 hex digits; left out")
                    continue
                }
                sum = hex
            }
            guard seen.insert(url).inserted else { continue }
            references.append(ContentReference(url: url, sha256: sum, source: at))
        }
        return (references, problems)
    }
}
