import KioskCore

/// The text fields a caption uses from IPTC-IIM, as a JPEG's APP13 segment holds it (Photoshop's image resource
/// blocks, `8BIM` resource 0x0404): record 2's Caption-Abstract (120), Object Name (5), By-line (80),
/// Date Created (55) and Time Created (60). Text is UTF-8 when record 1's Coded Character Set (90) says
/// `ESC % G` or the bytes are valid UTF-8, else Latin-1.
struct IPTCText {
    /// Caption-Abstract.
    var caption: String?
    /// Object Name (a short title).
    var objectName: String?
    /// By-line (the creator); repeated ones joined with ", ".
    var byline: String?
    /// Date Created with Time Created.
    var date: CivilDateTime?

    /// The header of an APP13 body holding Photoshop image resources.
    static let photoshopHeader = Array("Photoshop 3.0\0".utf8)

    /// The most image resources and IPTC datasets looked at: enough for any real file, a bound for a hostile one.
    static let maxEntries = 1024

    /// Nothing found.
    init() {}

    /// Reads the image resources in `resources`, the bytes after an APP13's `Photoshop 3.0\0`.
    init(photoshopResources r: [UInt8]) {
        var i = 0
        var looked = 0
        let signature = Array("8BIM".utf8)
        while looked < Self.maxEntries, MetadataText.has(r, signature, at: i),
              let id = MetadataText.bigEndian(r, at: i + 4, width: 2),
              let nameLength = MetadataText.bigEndian(r, at: i + 6, width: 1) {
            looked += 1
            let sizeAt = i + 6 + (nameLength + 1 + 1) / 2 * 2  // the Pascal name, padded to an even length
            guard let size = MetadataText.bigEndian(r, at: sizeAt, width: 4), size <= r.count - sizeAt - 4 else { return }
            let data = sizeAt + 4
            if id == 0x0404 {
                self = IPTCText(iim: Array(r[data..<(data + size)]))
                return
            }
            i = data + size + size % 2
        }
    }

    /// Reads IPTC-IIM datasets (`0x1C record dataset size data`).
    init(iim d: [UInt8]) {
        var k = 0
        var utf8 = false
        var looked = 0
        var dateText: String?, timeText: String?
        var bylines: [String] = []
        while looked < Self.maxEntries, k < d.count, d[k] == 0x1C,
              let record = MetadataText.bigEndian(d, at: k + 1, width: 1),
              let dataset = MetadataText.bigEndian(d, at: k + 2, width: 1),
              var size = MetadataText.bigEndian(d, at: k + 3, width: 2) {
            looked += 1
            var start = k + 5
            if size & 0x8000 != 0 {  // an extended dataset: the next (size & 0x7FFF) bytes hold the length
                let width = size & 0x7FFF
                guard (1...4).contains(width), let long = MetadataText.bigEndian(d, at: start, width: width) else { return }
                size = long
                start += width
            }
            guard size <= d.count - start else { return }
            let value = d[start..<(start + size)]
            switch (record, dataset) {
            case (1, 90): utf8 = value.elementsEqual([0x1B, 0x25, 0x47])
            case (2, 120): caption = MetadataText.decode(value, utf8: utf8)
            case (2, 5): objectName = MetadataText.decode(value, utf8: utf8)
            case (2, 80): bylines.append(MetadataText.decode(value, utf8: utf8))
            case (2, 55): dateText = MetadataText.decode(value)
            case (2, 60): timeText = MetadataText.decode(value)
            default: break
            }
            k = start + size
        }
        let named = bylines.filter { !$0.isEmpty }
        byline = named.isEmpty ? nil : named.joined(separator: ", ")
        date = dateText.flatMap { CivilDateTime(iptcDate: $0, time: timeText) }
    }
}
