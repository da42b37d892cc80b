import Foundation

/// An entry's caption from its playlist: `#EXTKIOSK:caption=TEXT`.
extension M3U {
    /// The `#EXTKIOSK:` key giving the next entry's caption.
    public static let captionKey = "caption"

    /// Splits an `#EXTKIOSK:` payload (the text after the tag) into the pairs before `caption=` and the caption.
    ///
    /// `caption=` takes the rest of the line, commas, `=` and quotes included, so it is written last:
    /// `#EXTKIOSK:yaw=30,caption=Lunch, by the lake` gives `yaw=30` and `Lunch, by the lake`. The caption is
    /// trimmed and taken as written (no quoting, no escapes). `caption=` with nothing after it gives "", which
    /// says the entry has no caption (no sidecar or metadata is read for one). Without the key, the caption is
    /// nil and the payload comes back whole. The key is found only at the start of a pair (at the start or after
    /// a comma), so a value containing `caption=` is not taken for it.
    public static func splitCaption(payload: String) -> (rest: String, caption: String?) {
        var pairStart = payload.startIndex
        while true {
            let key = payload[pairStart...].drop { $0 == " " || $0 == "\t" }
            if key.hasPrefix(captionKey) {
                let afterKey = key.dropFirst(captionKey.count).drop { $0 == " " || $0 == "\t" }
                if afterKey.first == "=" {
                    var rest = String(payload[..<pairStart]).trimmingCharacters(in: .whitespaces)
                    if rest.hasSuffix(",") { rest.removeLast() }
                    return (rest.trimmingCharacters(in: .whitespaces),
                            afterKey.dropFirst().trimmingCharacters(in: .whitespaces))
                }
            }
            guard let comma = payload[pairStart...].firstIndex(of: ",") else { return (payload, nil) }
            pairStart = payload.index(after: comma)
        }
    }
}
