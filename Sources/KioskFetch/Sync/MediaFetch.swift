import Foundation
import KioskCore
import KioskMedia
import KioskTrust

/// The media phase of a sync: every medium an index needs made local and checked, a few transfers at once.
///
/// A medium already cached is used as it is when nothing can have changed (the index is the one already checked,
/// or the index gives its SHA-256 and the cached copy has it), else asked for with a conditional GET. A body goes
/// to its `.part` file, is checked (its length against what the server announced, and its SHA-256 where the index
/// gives one) and only then renamed into place as a new version. A transfer cut after some bytes keeps its
/// `.part` (with the validators of the body it holds) and is continued with `Range` in a second round, as is a
/// `.part` the server no longer has a range for (416: fetched again from the start).
struct MediaFetch {
    let cache: ContentCache
    let settings: FetchSettings
    /// Requests and bytes so far (the index's included).
    var requests = 0
    var bytes: Int64 = 0
    /// One line per medium that could not be made local.
    var problems: [String] = []
    /// Statuses that leave a medium out (`skipContentOnHttpStatus`) rather than make it a problem.
    var skipStatuses: Set<Int> = []
    /// One line per medium left out for such a status.
    var skipped: [String] = []
    /// URL -> cached file name, for each medium made local.
    var files: [String: String] = [:]

    /// Makes `references` local; `indexChanged` says whether the index is new (then cached media without a
    /// checksum are asked for again, conditionally).
    mutating func run(_ references: [ContentReference], indexChanged: Bool, shouldStop: () -> Bool) {
        var wanted: [ContentReference] = []
        for reference in references {
            if let held = cache.entries[reference.url], reference.sha256 == nil || held.sha256 == reference.sha256,
               !indexChanged || reference.sha256 != nil {
                files[reference.url] = held.file
            } else {
                wanted.append(reference)
            }
        }
        for round in 1...2 where !wanted.isEmpty && !shouldStop() {
            wanted = fetch(wanted, lastRound: round == 2, shouldStop: shouldStop)
        }
        if shouldStop() && files.count < references.count { problems.append("stopped before every medium was fetched") }
    }

    /// Fetches `references`; returns those worth another try at once (a cut transfer that can be continued).
    private mutating func fetch(_ references: [ContentReference], lastRound: Bool, shouldStop: () -> Bool) -> [ContentReference] {
        var again: [ContentReference] = []
        let settings = settings, cache = cache
        TransferQueue(concurrent: settings.concurrentTransfers).run(count: references.count, make: { i in
            let reference = references[i]
            let held = cache.entries[reference.url].flatMap { reference.sha256 == nil || $0.sha256 == reference.sha256 ? $0 : nil }
            let part = cache.partial(for: reference.url)
            return HTTPTransfer(HTTPRequest(.get, url: reference.url, validators: held?.validators ?? HTTPValidators()),
                                into: .file(path: part.path, limit: settings.maxFileBytes, resume: part.validators),
                                settings: settings)
        }, done: { i, transfer, result in
            let reference = references[i]
            requests += transfer.requestCount
            bytes += transfer.receivedBytes
            switch result {
            case .success(let response): take(response, for: reference)
            case .failure(let error):
                if keepPart(after: error, transfer) && !lastRound {
                    again.append(reference)
                } else if case .status(let code) = error.reason, skipStatuses.contains(code) {
                    skipped.append(error.description + "; left out (skipContentOnHttpStatus)")
                } else {
                    problems.append(error.description)
                }
            }
        }, shouldStop: shouldStop)
        return again
    }

    /// Checks a fetched body (or a 304) and puts it in place.
    private mutating func take(_ response: HTTPResponse, for reference: ContentReference) {
        let url = reference.url
        let held = cache.entries[url]
        if response.notModified, let held {
            files[url] = held.file
            return
        }
        let part = cache.partial(for: url).path
        let sum: String
        do {
            sum = try SHA256Sum.hex(ofFile: part)
        } catch {
            cache.setPartial(url, nil)
            problems.append(FetchError(url: url, reason: .disk(error.description)).description)
            return
        }
        if let expected = reference.sha256, expected != sum {
            cache.setPartial(url, nil)
            problems.append(FetchError(url: url, reason: .checksum(expected: expected, actual: sum)).description)
            return
        }
        if let held, held.sha256 == sum, held.size == response.fileBytes {
            cache.setPartial(url, nil)  // the same bytes under new validators: the file in place stays
            cache.revalidate(url, response.validators)
            files[url] = held.file
            return
        }
        do {
            let entry = try cache.install(url, from: part, validators: response.validators, size: response.fileBytes, sha256: sum,
                                          contentType: response.contentType, now: Date().timeIntervalSince1970)
            files[url] = entry.file
        } catch {
            cache.setPartial(url, nil)
            problems.append(FetchError(url: url, reason: .disk(error.description)).description)
        }
    }

    /// After a failed transfer: keeps the `.part` for a resume when it holds the start of a body the server can
    /// name (a strong ETag or a date) and the transfer was cut, else removes it. Whether to try again at once.
    private func keepPart(after error: FetchError, _ transfer: HTTPTransfer) -> Bool {
        let url = error.url
        switch error.reason {
        case .transfer, .timedOut:
            guard transfer.bodyStarted else { return false }  // nothing written: the .part (if any) is as it was
            let validators = transfer.receivedValidators
            guard validators.ifRange != nil, transfer.receivedBytes > 0 else {
                cache.setPartial(url, nil)
                return false
            }
            cache.setPartial(url, validators)
            if case .transfer = error.reason { return true }  // a cut: continue now; a slow server: next check
            return false
        case .status(416), .badRange:
            cache.setPartial(url, nil)  // the .part is no start of the body the server has now: from the start
            return true
        default:
            cache.setPartial(url, nil)
            return false
        }
    }
}
