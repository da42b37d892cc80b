import Foundation
import KioskCore

/// The text fields a caption uses from an XMP packet: `dc:description` and `dc:title` (language alternatives:
/// the `x-default` item, else the first), `dc:creator` (a list, joined with ", ") and the first date of
/// `exif:DateTimeOriginal`, `photoshop:DateCreated`, `xmp:CreateDate`. A property is read in the forms writers
/// use: an element holding `rdf:Alt`/`rdf:Seq`/`rdf:Bag` items (`<rdf:li xml:lang="x-default">…</rdf:li>`), an
/// element holding text, or an attribute of `rdf:Description` (`dc:description="…"`). Properties are found by
/// their namespaces (whatever prefix a writer chose), in the tree libxml2 parses (`MarkupReader`: no DTDs, no
/// entities beyond XML's own).
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

    /// Reads the packet `bytes` (UTF-8 XML) with the markup reader (libxml2: no DTD, no entity expansion, no
    /// network). A packet that is not well-formed XML gives nothing.
    init(packet bytes: [UInt8]) {
        guard let root = try? MarkupReader.parse(Array(bytes.prefix(Self.maxPacket)), file: "XMP packet") else { return }
        description = Self.alternative(Self.values(Self.dc, "description", in: root))
        title = Self.alternative(Self.values(Self.dc, "title", in: root))
        let creators = Self.values(Self.dc, "creator", in: root).map(\.text).filter { !$0.isEmpty }
        creator = creators.isEmpty ? nil : creators.joined(separator: ", ")
        for (ns, name) in [(Self.exif, "DateTimeOriginal"), (Self.photoshop, "DateCreated"), (Self.xmp, "CreateDate")] {
            if let d = Self.values(ns, name, in: root).lazy.compactMap({ CivilDateTime(parsing: $0.text) }).first {
                date = d
                break
            }
        }
    }

    /// The namespaces of the properties read.
    static let dc = "http://purl.org/dc/elements/1.1/"
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let exif = "http://ns.adobe.com/exif/1.0/"
    static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    static let xmp = "http://ns.adobe.com/xap/1.0/"
    static let xml = "http://www.w3.org/XML/1998/namespace"

    /// One value of a property, with its `xml:lang` when it is an item of a language alternative.
    typealias Value = (lang: String?, text: String)

    /// The text of a language alternative: the `x-default` item, else the first; nil when empty.
    static func alternative(_ values: [Value]) -> String? {
        let chosen = values.first { $0.lang?.lowercased() == "x-default" } ?? values.first
        return chosen.flatMap { $0.text.isEmpty ? nil : $0.text }
    }

    /// The values of the first property `name` in namespace `ns` under `root`, in document order: an element
    /// holding `rdf:Alt`/`rdf:Seq`/`rdf:Bag` items, an element holding text, or else an attribute (of
    /// `rdf:Description`) with that name.
    static func values(_ ns: String, _ name: String, in root: MarkupElement) -> [Value] {
        var attributeValue: String?
        var found: [Value]?
        func walk(_ e: MarkupElement) {
            guard found == nil else { return }
            if e.name == name && e.namespace == ns {
                let lists = e.children.filter { $0.namespace == rdf && ["Alt", "Seq", "Bag"].contains($0.name) }
                let items = lists.flatMap { $0.children.filter { $0.namespace == rdf && $0.name == "li" && $0.children.isEmpty } }
                if !items.isEmpty {
                    found = items.map { ($0.attribute("lang", namespace: xml), trimmed($0.text)) }
                    return
                }
                if e.children.isEmpty, !trimmed(e.text).isEmpty {  // an empty one (`<dc:description/>`) is passed over
                    found = [(nil, trimmed(e.text))]
                    return
                }
            }
            if attributeValue == nil, let v = e.attribute(name, namespace: ns) { attributeValue = trimmed(v) }
            for c in e.children { walk(c) }
        }
        walk(root)
        return found ?? attributeValue.map { [(nil, $0)] } ?? []
    }

    private static func trimmed(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
}
