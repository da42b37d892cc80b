import Foundation
import KioskCore

/// The text fields a caption uses from an XMP packet: `dc:description` and `dc:title` (language alternatives:
/// the `x-default` item, else the first), `dc:creator` (a list, joined with ", ") and the first date of
/// `exif:DateTimeOriginal`, `photoshop:DateCreated`, `xmp:CreateDate`. A property is read in the forms writers
/// use: an element holding `rdf:Alt`/`rdf:Seq`/`rdf:Bag` items (`<rdf:li xml:lang="x-default">…</rdf:li>`), an
/// element holding text, or an attribute of `rdf:Description` (`dc:description="…"`). The prefixes are the
/// usual ones (`dc:`, `rdf:`); this is a scan for those names, not an XML parser (no DTDs, nothing expanded but
/// the five predefined entities and character references).
struct XMPText {
    /// dc:description.
    var description: String?
    /// dc:title.
    var title: String?
    /// dc:creator.
    var creator: String?
    /// When it was taken or made.
    var date: CivilDateTime?

    /// The header of a JPEG APP1 body holding an XMP packet.
    static let jpegHeader = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    /// The most bytes of a packet looked at.
    static let maxPacket = 512 * 1024

    /// Nothing found.
    init() {}

    /// Reads the packet `bytes` (UTF-8).
    init(packet bytes: [UInt8]) {
        let xml = String(decoding: bytes.prefix(Self.maxPacket), as: UTF8.self)
        description = Self.alternative(Self.values(of: "dc:description", in: xml))
        title = Self.alternative(Self.values(of: "dc:title", in: xml))
        let creators = Self.values(of: "dc:creator", in: xml).map(\.text).filter { !$0.isEmpty }
        creator = creators.isEmpty ? nil : creators.joined(separator: ", ")
        for name in ["exif:DateTimeOriginal", "photoshop:DateCreated", "xmp:CreateDate"] {
            if let d = Self.values(of: name, in: xml).lazy.compactMap({ CivilDateTime(parsing: $0.text) }).first {
                date = d
                break
            }
        }
    }

    /// One value of a property, with its `xml:lang` when it is an item of a language alternative.
    typealias Value = (lang: String?, text: String)

    /// The text of a language alternative: the `x-default` item, else the first; nil when empty.
    static func alternative(_ values: [Value]) -> String? {
        let chosen = values.first { $0.lang?.lowercased() == "x-default" } ?? values.first
        return chosen.flatMap { $0.text.isEmpty ? nil : $0.text }
    }

    /// The values of the first `name` property in `xml`, as an element or else as an attribute.
    static func values(of name: String, in xml: String) -> [Value] {
        var from = xml.startIndex
        while let open = xml.range(of: "<" + name, range: from..<xml.endIndex) {
            from = open.upperBound
            guard let next = xml[open.upperBound...].first, next == ">" || next == "/" || next.isWhitespace else { continue }
            guard let tagEnd = xml[open.upperBound...].firstIndex(of: ">") else { break }  // no later tag ends either
            if xml[xml.index(before: tagEnd)] == "/" { continue }  // <dc:description/>: empty
            let bodyStart = xml.index(after: tagEnd)
            guard let close = xml.range(of: "</" + name + ">", range: bodyStart..<xml.endIndex) else { break }
            let body = xml[bodyStart..<close.lowerBound]
            let items = listItems(body)
            if !items.isEmpty { return items }
            if !body.contains("<") { return [(nil, decodeEntities(body))] }
            from = close.upperBound
        }
        return attribute(name, in: xml).map { [(nil, $0)] } ?? []
    }

    /// The `rdf:li` items in `body`, each with its `xml:lang`.
    static func listItems(_ body: Substring) -> [Value] {
        var out: [Value] = []
        var from = body.startIndex
        while let open = body.range(of: "<rdf:li", range: from..<body.endIndex) {
            from = open.upperBound
            guard let next = body[open.upperBound...].first, next == ">" || next == "/" || next.isWhitespace else { continue }
            guard let tagEnd = body[open.upperBound...].firstIndex(of: ">") else { break }
            let attributes = body[open.upperBound..<tagEnd]
            if attributes.hasSuffix("/") { continue }
            let textStart = body.index(after: tagEnd)
            guard let close = body.range(of: "</rdf:li>", range: textStart..<body.endIndex) else { break }
            let text = body[textStart..<close.lowerBound]
            if !text.contains("<") { out.append((attribute("xml:lang", in: String(attributes)), decodeEntities(text))) }
            from = close.upperBound
        }
        return out
    }

    /// The value of attribute `name` (`name="v"` or `name='v'`, after whitespace) in `xml`.
    static func attribute(_ name: String, in xml: String) -> String? {
        var from = xml.startIndex
        while let found = xml.range(of: name, range: from..<xml.endIndex) {
            from = found.upperBound
            guard found.lowerBound > xml.startIndex, xml[xml.index(before: found.lowerBound)].isWhitespace else { continue }
            var rest = xml[found.upperBound...].drop { $0.isWhitespace }
            guard rest.first == "=" else { continue }
            rest = rest.dropFirst().drop { $0.isWhitespace }
            guard let quote = rest.first, quote == "\"" || quote == "'" else { continue }
            rest = rest.dropFirst()
            guard let end = rest.firstIndex(of: quote) else { return nil }
            return decodeEntities(rest[..<end])
        }
        return nil
    }

    /// `text` with XML's predefined entities and character references replaced, trimmed.
    static func decodeEntities(_ text: Substring) -> String {
        guard text.contains("&") else { return text.trimmingCharacters(in: .whitespacesAndNewlines) }
        var out = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semi = after.prefix(12).firstIndex(of: ";") else { out += "&"; rest = after; continue }
            let entity = after[..<semi]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"][String(entity)]
            var scalar: Unicode.Scalar?
            if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if entity.hasPrefix("#") {
                scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init)
            }
            if let replacement = named ?? scalar.map({ String(Character($0)) }) {
                out += replacement
                rest = after[after.index(after: semi)...]
            } else {
                out += "&"
                rest = after
            }
        }
        out += rest
        return out.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
