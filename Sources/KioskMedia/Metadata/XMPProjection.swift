import Foundation
import KioskCore

/// Reads Google's Photo Sphere XMP (`GPano:ProjectionType`, the cropped and full panorama widths) from a JPEG's
/// head bytes: how cameras and phones mark 360 and 180 photos. The packet (`<x:xmpmeta>…</x:xmpmeta>`) is cut out
/// of the head and read with the markup reader (libxml2: no DTD, no entities, no network), and the properties
/// are found by the GPano namespace, as attributes or elements, whatever prefix the writer chose. A packet cut
/// off by the end of the head, or not well-formed, marks nothing.
enum XMPProjection {
    /// Google's panorama namespace.
    static let gpano = "http://ns.google.com/photos/1.0/panorama/"

    /// The projection the XMP names, or nil when there is no GPano projection in `head`.
    static func metadata(_ head: [UInt8]) -> ProjectionMetadata? {
        guard let packet = packet(in: head), let root = try? MarkupReader.parse(packet, file: "XMP packet"),
              let type = value(of: "ProjectionType", in: root)?.lowercased() else { return nil }
        guard type == "equirectangular" else { return ProjectionMetadata(unsupported: type) }
        var fov = 360.0
        if let cropped = value(of: "CroppedAreaImageWidthPixels", in: root).flatMap(Double.init),
           let full = value(of: "FullPanoWidthPixels", in: root).flatMap(Double.init), full > 0, cropped > 0 {
            fov = min(max(360 * cropped / full, ItemProjection.equirectFOVs.lowerBound), 360)
        }
        return ProjectionMetadata(kind: .equirect, inputFOV: fov)
    }

    /// The bytes from the first `<x:xmpmeta` to the end of its `</x:xmpmeta>` (the packet's root element, which
    /// the XMP specification names so), if both are in `bytes`.
    static func packet(in bytes: [UInt8]) -> [UInt8]? {
        let open = Array("<x:xmpmeta".utf8), close = Array("</x:xmpmeta>".utf8)
        guard let start = find(open, in: bytes, from: 0), let end = find(close, in: bytes, from: start + open.count) else { return nil }
        return Array(bytes[start..<(end + close.count)])
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var i = from
        while i <= bytes.count - needle.count {
            if bytes[i] == first && bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// The text of GPano property `name` under `root`: an attribute, or an element's text; the first in document order.
    static func value(of name: String, in root: MarkupElement) -> String? {
        if let v = root.attribute(name, namespace: gpano) { return v.trimmingCharacters(in: .whitespaces) }
        if root.name == name && root.namespace == gpano && root.children.isEmpty {
            return root.text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        for c in root.children { if let v = value(of: name, in: c) { return v } }
        return nil
    }
}
