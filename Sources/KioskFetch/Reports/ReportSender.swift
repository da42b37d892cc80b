import Foundation
import KioskCore

/// Sends one report to a server through `HTTPTransfer`: a body by PUT or POST to an http or https URL, taken as
/// delivered only on a 2xx reply from that URL itself. A redirect is not followed (a POST turned into a GET by a
/// 302 would get a 200 for nothing delivered): it is a failure that names where the server pointed, so that the
/// index can name that URL. A report gives up after a minute.
public struct ReportSender: Sendable {
    /// The transfer settings (TLS trust, timeouts, User-Agent), with redirects off and a one-minute limit.
    public let settings: FetchSettings
    /// The most bytes of a reply read (a report's answer is small; the rest is refused).
    public static let replyLimit: Int64 = 64 * 1024

    /// A sender with the fetcher's `settings`.
    public init(settings: FetchSettings) {
        var settings = settings
        settings.maxRedirects = 0
        settings.totalTimeout = min(settings.totalTimeout, 60)
        self.settings = settings
    }

    /// Whether `url` is one reports may go to: an absolute http or https URL with a host.
    public static func isSendable(_ url: String) -> Bool { ContentMap.absolute(url, base: url) != nil }

    /// Sends `body` to `url` by `method`; the reply's status (2xx). Anything else throws, one line naming the URL.
    @discardableResult
    public func send(_ body: [UInt8], to url: String, method: HTTPRequest.Method, contentType: String = "application/json") throws(FetchError) -> Int {
        guard Self.isSendable(url) else {
            throw FetchError(url: url, reason: .refused("not an http or https URL; no reports are sent to it"))
        }
        let request = HTTPRequest(method, url: url, body: body, contentType: contentType)
        let transfer = HTTPTransfer(request, into: .memory(limit: Self.replyLimit), settings: settings)
        do {
            return try transfer.perform().status
        } catch {
            if case .tooManyRedirects = error.reason {
                let to = transfer.sink.head.location.map { " to \(FetchError.quoted($0))" } ?? ""
                throw FetchError(url: url, reason: .refused("the server redirects reports\(to); they are sent only to the URL the index names"))
            }
            throw error
        }
    }
}
