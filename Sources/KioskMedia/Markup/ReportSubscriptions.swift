import Foundation
import KioskCore

/// A report an index asks the player to send back to a server: what (proof of play, or the player's status), where
/// (an http or https URL), how (PUT or POST), and how often.
public struct ReportSubscription: Sendable, Equatable {
    /// What is reported.
    public enum Kind: String, Sendable {
        /// Proof of play: the play log's showings, in batches (A-SMIL's `PlaylogCollection`, signageOS's `<meta log>`).
        case playback
        /// The player's status: what plays, the cache, the last check (A-SMIL's `SystemReport`).
        case status
    }

    /// How a report is sent.
    public enum Method: String, Sendable {
        /// Stored at the URL (A-SMIL's WebDAV way).
        case put = "PUT"
        /// Handed to the URL (signageOS's custom endpoint).
        case post = "POST"
    }

    /// What is reported.
    public var kind: Kind
    /// The absolute http or https URL reports go to.
    public var url: String
    /// PUT or POST.
    public var method: Method
    /// Seconds between reports, when the index gives them (A-SMIL's `refreshInterval`).
    public var period: Double?
    /// Seconds to wait after a failed report at most, when the index gives them (A-SMIL's `retryInterval`).
    public var retry: Double?
    /// The most showings in one report, when the index gives it (signageOS's `reportFileLimit`).
    public var batchLimit: Int?
    /// Whether each batch is a file of its own in the folder `url` names, as A-SMIL PUTs its play logs
    /// (`URL/playlog-FIRST-LAST.json`); else every report goes to `url` itself.
    public var filePerBatch: Bool
    /// FILE:LINE of the element that asked for it.
    public var source: String

    /// A subscription as given.
    public init(kind: Kind, url: String, method: Method, period: Double? = nil, retry: Double? = nil, batchLimit: Int? = nil,
                filePerBatch: Bool = false, source: String = "") {
        self.kind = kind; self.url = url; self.method = method; self.period = period; self.retry = retry
        self.batchLimit = batchLimit; self.filePerBatch = filePerBatch; self.source = source
    }
}

/// The report subscriptions in a SMIL index's `<head>`, in the two shapes signage CMSs write:
///
/// - A-SMIL's (IAdea, Garlic): `<metadata><x-server><subscriptionList><subscription>` (or the older `<server>`), each
///   with `<type>` (`PlaylogCollection`: proof of play; `SystemReport`: status), `<action>` (the URL), `<method>`
///   (`put`; `post` too) and optionally `<refreshInterval>` and `<retryInterval>` in seconds;
/// - signageOS's: `<meta log="true" type="manual" endpoint="URL"/>` (proof of play, POSTed; `reportFileLimit` the
///   most showings per report).
///
/// URLs resolve against the index's URL; only http and https are taken. What kiosk cannot honour (another report
/// type, another scheme, a method other than PUT or POST, a period that is no number) is one warning line naming
/// FILE:LINE, and is left out.
public enum ReportSubscriptions {
    /// The shortest period taken from an index, in seconds (a shorter one is raised to it, with a warning).
    public static let shortestPeriod = 10.0
    /// The longest period taken from an index, in seconds (a day).
    public static let longestPeriod = 86_400.0
    /// The most showings in one report.
    public static let largestBatch = 500

    /// The subscriptions of the SMIL index in `file` (named `name` in lines), fetched from `indexURL`.
    public static func read(file: String, indexURL: String, name: String? = nil) throws(MarkupError)
        -> (subscriptions: [ReportSubscription], warnings: [String]) {
        let root = try MarkupReader.read(file: file, name: name)
        return read(root: root, indexURL: indexURL, name: name ?? file)
    }

    /// The subscriptions of a SMIL document already read, first of each kind; and the warnings.
    public static func read(root: MarkupElement, indexURL: String, name: String) -> (subscriptions: [ReportSubscription], warnings: [String]) {
        var found: [ReportSubscription] = [], warnings: [String] = []
        let heads = root.children.filter { $0.name == "head" && SMILReader.namespaces.contains($0.namespace) }
        for head in heads {
            for element in head.children {
                switch element.name {
                case "metadata":
                    for server in element.children where server.name == "x-server" || server.name == "server" {
                        for list in server.children(named: "subscriptionList") {
                            for subscription in list.children(named: "subscription") {
                                if let s = aSMIL(subscription, indexURL: indexURL, name: name, warnings: &warnings) { found.append(s) }
                            }
                        }
                    }
                case "meta" where element.attribute("log") != nil:
                    if let s = signageOS(element, indexURL: indexURL, name: name, warnings: &warnings) { found.append(s) }
                default: break
                }
            }
        }
        var kept: [ReportSubscription] = []
        for s in found {
            if let first = kept.first(where: { $0.kind == s.kind }) {
                warnings.append("\(s.source): a second \(s.kind.rawValue) report subscription; kiosk sends only the first (\(first.source))")
            } else {
                kept.append(s)
            }
        }
        return (kept, warnings)
    }

    /// An A-SMIL `<subscription>`.
    private static func aSMIL(_ e: MarkupElement, indexURL: String, name: String, warnings: inout [String]) -> ReportSubscription? {
        let at = "\(name):\(e.line)"
        func text(_ child: String) -> String? {
            e.children(named: child).first.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        guard let type = text("type"), !type.isEmpty else {
            warnings.append("\(at): a <subscription> without a <type>; left out")
            return nil
        }
        let kind: ReportSubscription.Kind
        switch type.lowercased() {
        case "playlogcollection": kind = .playback
        case "systemreport": kind = .status
        default:
            warnings.append("\(at): kiosk does not send \(ErrorQuote.cut(type)) reports (it sends PlaylogCollection and SystemReport); left out")
            return nil
        }
        let method: ReportSubscription.Method
        switch (text("method") ?? "put").lowercased() {
        case "put", "webdav", "": method = .put  // `webdav` is what A-SMIL's first play-log page called a PUT
        case "post": method = .post
        case let other:
            warnings.append("\(at): \(type) method \"\(ErrorQuote.cut(other))\": kiosk sends reports by PUT or POST only; left out")
            return nil
        }
        guard let action = text("action"), !action.isEmpty else {
            warnings.append("\(at): \(type) without an <action> (the URL reports go to); left out")
            return nil
        }
        guard let url = ContentMap.absolute(action, base: indexURL) else {
            warnings.append("\(at): \(type) action \"\(ErrorQuote.cut(action))\": not an http or https URL; no reports are sent to it")
            return nil
        }
        let period = seconds(text("refreshInterval"), "refreshInterval", of: type, at: at, warnings: &warnings)
        let retry = seconds(text("retryInterval"), "retryInterval", of: type, at: at, warnings: &warnings)
        return ReportSubscription(kind: kind, url: url, method: method, period: period, retry: retry,
                                  filePerBatch: kind == .playback && method == .put, source: at)
    }

    /// signageOS's `<meta log="true" type="…" endpoint="…">`.
    private static func signageOS(_ e: MarkupElement, indexURL: String, name: String, warnings: inout [String]) -> ReportSubscription? {
        let at = "\(name):\(e.line)"
        guard e.attribute("log")?.trimmingCharacters(in: .whitespaces).lowercased() == "true" else { return nil }
        guard let endpoint = e.attribute("endpoint")?.trimmingCharacters(in: .whitespacesAndNewlines), !endpoint.isEmpty else {
            warnings.append("\(at): <meta log> without an endpoint reports to signageOS's own service, which kiosk does not; no reports are sent")
            return nil
        }
        guard let url = ContentMap.absolute(endpoint, base: indexURL) else {
            warnings.append("\(at): <meta log> endpoint \"\(ErrorQuote.cut(endpoint))\": not an http or https URL; no reports are sent to it")
            return nil
        }
        for type in (e.attribute("type") ?? "").split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
        where !["manual", "standard", ""].contains(type.lowercased()) {
            warnings.append("\(at): <meta log> type \"\(ErrorQuote.cut(type))\" is not manual or standard; kiosk reports its play log's showings")
        }
        var batch: Int?
        if let limit = e.attribute("reportFileLimit") {
            if let n = Int(limit.trimmingCharacters(in: .whitespaces)), n > 0 {
                batch = min(n, largestBatch)
                if n > largestBatch { warnings.append("\(at): reportFileLimit \(n) is more than kiosk sends at once; \(largestBatch) are") }
            } else {
                warnings.append("\(at): reportFileLimit \"\(ErrorQuote.cut(limit))\" is not a positive whole number; \(largestBatch) are sent at once")
            }
        }
        return ReportSubscription(kind: .playback, url: url, method: .post, batchLimit: batch, source: at)
    }

    /// `text` as seconds within the periods taken (nil, with a warning, when it is none).
    private static func seconds(_ text: String?, _ what: String, of type: String, at: String, warnings: inout [String]) -> Double? {
        guard let text, !text.isEmpty else { return nil }
        guard let value = Double(text), value.isFinite, value > 0 else {
            warnings.append("\(at): \(type) \(what) \"\(ErrorQuote.cut(text))\" is not a number of seconds; the default is used")
            return nil
        }
        let kept = min(max(value, shortestPeriod), longestPeriod)
        if kept != value {
            warnings.append("\(at): \(type) \(what) \(text) s is outside \(Int(saturating: shortestPeriod)) s to a day; \(Int(saturating: kept)) s is used")
        }
        return kept
    }
}
