import Foundation
import KioskCore
import KioskMedia
import KioskTrust

/// One check of an index URL against the content cache: a conditional GET of the index (an unchanged index costs
/// that one request and a 304), its media read from it (SMIL or M3U) and made local (`MediaFetch`), and — only when
/// the index and everything it needs is in the cache and checked — the index published as the new last good one.
/// Otherwise the last good index stays, and each problem is one line.
///
/// With a `key`, the index must come with a minisign signature (`INDEX_URL.minisig`) made by that key, and must give
/// a SHA-256 for every medium, which each body must match; an index that does not is refused and nothing changes.
public final class ContentSync {
    /// The cache it fills.
    public let cache: ContentCache
    /// Limits and trust for every transfer.
    public let settings: FetchSettings
    /// The key an index must be signed with (`--content-key`); nil: indexes are not signed.
    public let key: MinisignPublicKey?

    /// The largest signature file taken.
    static let maxSignatureBytes: Int64 = 64 * 1024

    /// A sync into `cache`.
    public init(cache: ContentCache, settings: FetchSettings = FetchSettings(), key: MinisignPublicKey? = nil) {
        self.cache = cache
        self.settings = settings
        self.key = key
    }

    /// Checks `indexURL` once and makes it and its media local; `shouldStop` is asked while transfers run. With
    /// `checkMedia`, every cached medium without a checksum is asked for again (conditionally: a 304 each when
    /// unchanged) even when the index is unchanged, so a medium changed in place on the server is noticed. With
    /// `checkTimeout` (the index's `timeOut`), the index's request is given at most that many seconds.
    public func sync(_ indexURL: String, checkMedia: Bool = false, checkTimeout: Double? = nil,
                     shouldStop: () -> Bool = { false }) -> SyncReport {
        var report = SyncReport(outcome: .failed, indexURL: indexURL, index: nil, map: nil, indexFile: nil, mediaCount: 0,
                                bytesFetched: 0, requests: 0, refreshSeconds: nil, problems: [], notes: [])
        if let problem = cache.loadProblem { report.notes.append(problem) }
        guard ContentMap.isRemote(indexURL), let url = ContentMap.absolute(indexURL, base: indexURL) else {
            report.problems.append(FetchError(url: indexURL, reason: .refused("not an http or https URL")).description)
            return finish(report)
        }
        report.indexURL = url
        let lock: SyncLock
        do { lock = try SyncLock(folder: cache.directory) } catch {
            report.problems.append(error.description)
            return finish(report)
        }
        defer { lock.release() }
        var media = MediaFetch(cache: cache, settings: settings)
        let fetched = fetchIndex(url, media: &media, timeout: checkTimeout)
        guard case .success(let index) = fetched else {
            if case .failure(let problem) = fetched { report.problems.append(problem.line) }
            return record(report, media: media)
        }
        let content = IndexReader.read(file: cache.path(index.entry.file), kind: index.kind, url: url,
                                       maxReferences: settings.maxReferences)
        report.mediaCount = content.references.count
        report.refreshSeconds = content.refreshSeconds
        report.policy = content.policy
        media.skipStatuses = content.policy.skipStatuses
        var problems = content.problems
        if content.policy.keepPreviousWhenEmpty, content.references.isEmpty, problems.isEmpty {
            problems.append("\(FetchError.quoted(url)): names no media; the previous index plays on (fallbackToPreviousPlaylist)")
        }
        if key != nil {
            for reference in content.references where reference.sha256 == nil {
                problems.append("\(reference.source): \(FetchError.quoted(reference.url)): no sha256 attribute, and a "
                                + "signed index must give one for every medium; refused")
            }
        }
        guard problems.isEmpty else {
            report.problems = Array(problems.prefix(20))
                + (problems.count > 20 ? ["… and \(problems.count - 20) more problems in \(FetchError.quoted(url))"] : [])
            return record(report, media: media)
        }
        if !index.changed, !checkMedia, let current = cache.current, current.url == url, current.file == index.entry.file,
           cache.isWhole(current), key == nil || current.signed {
            cache.touch(Array(current.media.keys) + [url], now: Date().timeIntervalSince1970)
            report.outcome = .unchanged
            return record(report, media: media)
        }
        media.run(content.references, indexChanged: index.changed || checkMedia, shouldStop: shouldStop)
        cache.forgetPartials(except: Set(content.references.map(\.url)))
        let total = content.references.reduce(Int64(0)) { $0 + (cache.entries[$1.url]?.size ?? 0) }
        if total > settings.maxIndexTotalBytes {
            media.problems.append("\(FetchError.quoted(url)): its media add up to \(FetchError.mebibytes(total)), more than "
                                  + "the \(FetchError.mebibytes(settings.maxIndexTotalBytes)) an index may")
        }
        report.notes += media.skipped
        guard media.problems.isEmpty, media.files.count + media.skipped.count == content.references.count else {
            report.problems = media.problems
            return record(report, media: media, pending: [index.entry.file])
        }
        let kept = KeptIndex(url: url, kind: index.kind, file: index.entry.file, validators: index.entry.validators,
                             media: media.files, refreshSeconds: content.refreshSeconds,
                             publishedAt: Date().timeIntervalSince1970, signed: key != nil)
        let before = cache.current
        cache.publish(kept)
        cache.touch(Array(media.files.keys) + [url], now: Date().timeIntervalSince1970)
        report.outcome = before?.file == kept.file && before?.media == kept.media ? .unchanged : .changed
        return record(report, media: media)
    }

    /// The index fetched (or found unchanged), with its kind; or the one-line problem.
    private struct FetchedIndex {
        var entry: CacheEntry
        var kind: IndexKind
        var changed: Bool
    }

    /// Fetches the index into the cache: conditionally when a checked copy is held; with a key, only a body whose
    /// signature verifies is kept.
    private func fetchIndex(_ url: String, media: inout MediaFetch, timeout: Double?) -> Result<FetchedIndex, IndexProblem> {
        var settings = settings
        if let timeout {
            settings.totalTimeout = min(settings.totalTimeout, timeout)
            settings.connectTimeout = min(settings.connectTimeout, timeout)
        }
        let held = cache.entries[url]
        let current = cache.current
        let trusted = key == nil || (current?.url == url && current?.signed == true && current?.file == held?.file)
        let part = cache.partial(for: url).path
        unlink(part)
        let transfer = HTTPTransfer(HTTPRequest(.get, url: url, validators: trusted ? held?.validators ?? HTTPValidators() : HTTPValidators()),
                                    into: .file(path: part, limit: settings.maxIndexBytes, resume: nil), settings: settings)
        let result = Result { () throws(FetchError) in try transfer.perform() }
        media.requests += transfer.requestCount
        media.bytes += transfer.receivedBytes
        let response: HTTPResponse
        switch result {
        case .failure(let error):
            unlink(part)
            return .failure(IndexProblem(error.description))
        case .success(let r): response = r
        }
        let heldKind = { (entry: CacheEntry) in
            IndexReader.kind(contentType: entry.contentType, url: url, head: Self.head(of: self.cache.path(entry.file)))
        }
        if response.notModified, let held, let kind = heldKind(held) {
            return .success(FetchedIndex(entry: held, kind: kind, changed: false))
        }
        defer { unlink(part) }
        guard let kind = IndexReader.kind(contentType: response.contentType, url: url, head: Self.head(of: part)) else {
            return .failure(IndexProblem("\(FetchError.quoted(url)): neither a SMIL layout nor an M3U playlist "
                                         + "(Content-Type \(response.contentType ?? "none"))"))
        }
        if let key {
            if let problem = verifySignature(of: part, url: url, key: key, media: &media) { return .failure(problem) }
        }
        let sum: String
        do { sum = try SHA256Sum.hex(ofFile: part) } catch { return .failure(IndexProblem(error.description)) }
        if let held, held.sha256 == sum, held.size == response.fileBytes, cache.exists(held.file), held.contentType == response.contentType {
            cache.revalidate(url, response.validators)  // the same index under new validators
            return .success(FetchedIndex(entry: cache.entries[url] ?? held, kind: kind, changed: true))
        }
        do {
            let entry = try cache.install(url, from: part, validators: response.validators, size: response.fileBytes, sha256: sum,
                                          contentType: response.contentType, fileExtension: kind.rawValue,
                                          now: Date().timeIntervalSince1970)
            return .success(FetchedIndex(entry: entry, kind: kind, changed: true))
        } catch {
            return .failure(IndexProblem(FetchError(url: url, reason: .disk(error.description)).description))
        }
    }

    /// Fetches `INDEX_URL.minisig` and verifies the index in `file` with it; the problem, or nil when it verifies.
    private func verifySignature(of file: String, url: String, key: MinisignPublicKey, media: inout MediaFetch) -> IndexProblem? {
        let signatureURL = url + ".minisig"
        let signatureFile = cache.path(CacheNames.stem(signatureURL) + ".minisig")
        defer { unlink(signatureFile) }
        let transfer = HTTPTransfer(HTTPRequest(.get, url: signatureURL),
                                    into: .file(path: signatureFile, limit: Self.maxSignatureBytes, resume: nil), settings: settings)
        let result = Result { () throws(FetchError) in try transfer.perform() }
        media.requests += transfer.requestCount
        media.bytes += transfer.receivedBytes
        if case .failure(let error) = result {
            return IndexProblem("\(FetchError.quoted(url)): refused: its signature: \(error.description)")
        }
        do {
            _ = try Minisign.verify(file: file, signatureFile: signatureFile, key: key)
            return nil
        } catch {
            return IndexProblem("\(FetchError.quoted(url)): refused: the signature does not verify with the content key "
                                + "(\(error.reason))")
        }
    }

    /// Records the check, keeps the files an index being fetched needs (`pending`), removes what no kept index
    /// needs, keeps the budget and saves the state.
    private func record(_ report: SyncReport, media: MediaFetch, pending: Set<String> = []) -> SyncReport {
        var report = report
        report.requests = media.requests
        report.bytesFetched = media.bytes
        if report.outcome == .failed && report.problems.isEmpty { report.problems.append("\(report.indexURL): failed") }
        let now = Date().timeIntervalSince1970
        cache.record(CheckRecord(url: report.indexURL, at: now, outcome: report.outcome.rawValue,
                                 problems: Array(report.problems.prefix(10))))
        let needed = pending.union(media.files.values)
        cache.collectGarbage(keeping: needed)
        if let note = cache.enforceBudget(protecting: needed) { report.notes.append(note) }
        do { try cache.save() } catch {
            report.problems.append(error.description)
            if report.outcome != .failed { report.outcome = .failed }
        }
        return finish(report)
    }

    /// Fills in the last good index.
    private func finish(_ report: SyncReport) -> SyncReport {
        var report = report
        if let current = cache.current {
            report.index = current
            report.map = cache.map(of: current)
            report.indexFile = cache.indexPath(of: current)
            if report.outcome != .failed { report.refreshSeconds = current.refreshSeconds }
        }
        return report
    }

    /// The first bytes of the file at `path` (for telling SMIL from M3U).
    static func head(of path: String) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return [UInt8]((try? handle.read(upToCount: 512)) ?? Data())
    }
}

/// Why an index was not taken, one line.
struct IndexProblem: Error {
    let line: String
    init(_ line: String) { self.line = line }
}
