import Foundation
import KioskCore
import KioskFetch
import KioskTrust

/// `--content-bundle DIR|auto` for `ContentLink`: the folders where a signed bundle appeared (a USB stick mounted,
/// or the folder given), queued by the watch's thread and imported on the link's own thread, the one that uses the
/// cache. Thread-safe.
final class ContentBundles: @unchecked Sendable {
    private let lock = NSLock()
    private var queued: [String] = []
    private var watch: BundleWatch?
    /// The key a bundle must be signed with.
    let key: MinisignPublicKey

    /// Bundles signed with `key`, found as `spec` says (`DIR` or `auto`, see `BundleWatch`); `wake` is called on
    /// the watch's thread when one is queued.
    init(spec: String, key: MinisignPublicKey, log: Log, wake: @escaping @Sendable () -> Void) throws(UsageError) {
        self.key = key
        watch = try BundleWatch(spec: spec, log: log) { [weak self] folder in
            guard let self else { return }
            lock.lock()
            if !queued.contains(folder) { queued.append(folder) }
            lock.unlock()
            wake()
        }
    }

    /// Starts watching.
    func start() { watch?.start() }

    /// Stops watching.
    func stop() { watch?.stop() }

    /// The folders queued since the last call, oldest first.
    func take() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let all = queued
        queued = []
        return all
    }

    /// Imports the bundle in `folder` into `cache` (for `expectedURL`, the URL that plays, when one does); the
    /// index it made current, with its URL, or nil (each problem one line; nothing changed).
    func importOne(_ folder: String, into cache: ContentCache, settings: FetchSettings, expectedURL: String?,
                   log: Log) -> (index: KeptIndex, url: String)? {
        let report = BundleImport(cache: cache, key: key, settings: settings).importBundle(from: folder, expectedURL: expectedURL)
        for note in report.notes { log.warn("content: \(note)") }
        switch report.outcome {
        case .imported:
            log.info("content: bundle \(report.summary)")
        case .unchanged:
            log.info("content: bundle \(report.summary) (what it holds is cached already)")
        case .refused:
            for problem in report.problems { log.warn("content: \(problem)") }
            return nil
        }
        guard let index = report.index, let url = report.indexURL else { return nil }
        return (index, url)
    }
}
