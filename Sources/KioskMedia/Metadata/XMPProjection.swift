import Foundation
import KioskCore

/// Reads Google's Photo Sphere XMP (`GPano:ProjectionType`, the cropped and full panorama widths) from a JPEG's
/// head bytes: how cameras and phones mark 360 and 180 photos.
enum XMPProjection {
    /// The projection the XMP names, or nil when there is no GPano projection in `head`.
    static func metadata(_ head: [UInt8]) -> ProjectionMetadata? {
        guard let type = value(of: "GPano:ProjectionType", in: head)?.lowercased() else { return nil }
        guard type == "equirectangular" else { return ProjectionMetadata(unsupported: type) }
        var fov = 360.0
        if let cropped = value(of: "GPano:CroppedAreaImageWidthPixels", in: head).flatMap(Double.init),
           let full = value(of: "GPano:FullPanoWidthPixels", in: head).flatMap(Double.init), full > 0, cropped > 0 {
            fov = min(max(360 * cropped / full, ItemProjection.equirectFOVs.lowerBound), 360)
        }
        return ProjectionMetadata(kind: .equirect, inputFOV: fov)
    }

    /// The text value of an XMP property, written as an attribute (`name="v"`) or an element (`<name>v</name>`).
    static func value(of name: String, in bytes: [UInt8]) -> String? {
        let key = Array(name.utf8)
        guard key.count < bytes.count else { return nil }
        var i = 0
        while i <= bytes.count - key.count {
            if bytes[i] == key[0], Array(bytes[i..<(i + key.count)]) == key {
                var j = i + key.count
                // attribute: optional spaces, '=', optional spaces, quote; element: '>'
                while j < bytes.count, bytes[j] == 0x20 { j += 1 }
                var end: UInt8 = 0x3C  // '<'
                if j < bytes.count, bytes[j] == 0x3D {  // '='
                    j += 1
                    while j < bytes.count, bytes[j] == 0x20 { j += 1 }
                    guard j < bytes.count, bytes[j] == 0x22 || bytes[j] == 0x27 else { i += 1; continue }
                    end = bytes[j]
                    j += 1
                } else if j < bytes.count, bytes[j] == 0x3E {  // '>'
                    j += 1
                } else {
                    i += 1
                    continue
                }
                var k = j
                while k < bytes.count, bytes[k] != end, k - j < 256 { k += 1 }
                guard k < bytes.count, bytes[k] == end else { return nil }
                return String(decoding: bytes[j..<k], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            }
            i += 1
        }
        return nil
    }
}
