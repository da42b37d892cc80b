import KioskCore

/// How an index asks to be checked, from the attributes signageOS documents on its
/// `<meta http-equiv="Refresh">` (A-SMIL's `content` with signageOS's additions), where they make sense for kiosk:
/// - `content`: the index's check period, in seconds; `smilFileRefresh` overrides it for the index;
/// - `contentRefresh`: how often every medium is asked for again (else `--content-media-refresh`; `content` alone
///   does not set it, so an unchanged check stays one request);
/// - `onlySmilUpdate="true"`: media are never asked for again (a changed medium comes with a changed index);
/// - `fallbackToPreviousPlaylist="true"`: an index that names no media is not taken (the previous one plays on);
/// - `skipContentOnHttpStatus="404,403"`: a medium the server answers with one of these is left out (its item is
///   skipped) instead of holding the whole index back;
/// - `timeOut` (milliseconds): how long a check of the index may take (signageOS's checks are HEAD requests; kiosk's
///   is one conditional GET, given at most that long), so a slow or unstable network fails the check quickly and the
///   cached content plays on.
/// `expr` (a check only while an XPath expression over adapi's functions holds) is not honoured: kiosk checks in
/// every period.
public struct RefreshPolicy: Sendable, Equatable {
    /// The index's check period (seconds).
    public var index: Double?
    /// The media's check period (seconds).
    public var media: Double?
    /// Media are never asked for again.
    public var onlyIndex = false
    /// An index naming no media is refused (the previous one plays on).
    public var keepPreviousWhenEmpty = false
    /// HTTP statuses that leave a medium out rather than hold the index back.
    public var skipStatuses: Set<Int> = []
    /// The longest a check of the index may take (seconds; `timeOut`, given in milliseconds); nil: kiosk's own limits.
    public var checkTimeout: Double?
    /// A new version of this index replaces what plays at once, not at the end of the item on screen
    /// (`<meta name="kiosk-swap" content="now">`, kiosk's own: for urgent content).
    public var swapAtOnce = false

    /// No attributes: kiosk's defaults.
    public init() {}

    /// The policy of a SMIL document's first `<meta http-equiv="Refresh">` in its `<head>`.
    public static func read(_ root: MarkupElement) -> RefreshPolicy {
        var policy = RefreshPolicy()
        let metas = root.children.first(where: { $0.name == "head" })?.children.filter { $0.name == "meta" } ?? []
        policy.swapAtOnce = metas.contains { $0.attribute("name") == "kiosk-swap" && $0.attribute("content")?.lowercased() == "now" }
        guard let head = root.children.first(where: { $0.name == "head" }),
              let meta = head.children.first(where: { $0.name == "meta" && $0.attribute("http-equiv")?.lowercased() == "refresh" })
        else { return policy }
        let content = seconds(meta.attribute("content"))
        policy.index = seconds(meta.attribute("smilFileRefresh")) ?? content
        policy.media = seconds(meta.attribute("contentRefresh"))
        policy.onlyIndex = meta.attribute("onlySmilUpdate")?.lowercased() == "true"
        policy.keepPreviousWhenEmpty = meta.attribute("fallbackToPreviousPlaylist")?.lowercased() == "true"
        policy.checkTimeout = milliseconds(meta.attribute("timeOut"))
        policy.skipStatuses = Set((meta.attribute("skipContentOnHttpStatus") ?? "").split(separator: ",").compactMap {
            Int($0.trimmingCharacters(in: .whitespaces)).flatMap { (100...599).contains($0) ? $0 : nil }
        })
        return policy
    }

    /// `timeOut`'s milliseconds as seconds, from 0.1 s to 10 minutes; nil for anything else.
    private static func milliseconds(_ text: String?) -> Double? {
        guard let text, let ms = Double(text.trimmingCharacters(in: .whitespaces)), ms.isFinite, ms >= 100, ms <= 600_000 else {
            return nil
        }
        return ms / 1000
    }

    /// A period in seconds (`60`, or `60; url=…` as HTML writes it): positive and at most a year; nil otherwise.
    private static func seconds(_ text: String?) -> Double? {
        guard let text else { return nil }
        let number = text.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard let value = Double(number), value.isFinite, value > 0, value <= 366 * 86400 else { return nil }
        return value
    }
}
