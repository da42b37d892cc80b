import Foundation
import KioskCore
import KioskFetch
import KioskMedia
import KioskPlayer
import KioskTrust

/// `kiosk play URL`: the content fetcher beside the player, offline first. The last good index in the cache plays at
/// once (no network needed); a thread checks the URL (its `<meta http-equiv="Refresh">` period, else
/// `--content-refresh`) and hands the player each new index only once it and all its media are cached, to swap in at
/// the end of the item on screen. With nothing cached and no server, the idle picture shows with one line saying
/// why, and checks go on with backoff until one succeeds. Problems are one line each, said when they change.
final class ContentLink: @unchecked Sendable {
    /// The index URL.
    let url: String
    private let sync: ContentSync
    private let log: Log
    private let limits: DecodeLimits
    private let defaultPeriod: Double
    /// How often every medium is asked for again (`--content-media-refresh`).
    private let mediaPeriod: Double
    private let cond = NSCondition()
    // guarded by `cond`
    private var stopping = false
    private var checkAsked = false
    private var thread: Thread?
    private var lastSaid: [String] = []
    /// The index the player was handed last, with its media (nil: none yet).
    private var handed: KeptIndex?

    /// The shortest and longest waits after a failed check with nothing to play.
    static let backoff = (first: 2.0, most: 120.0)

    /// The link `o` asks for: nil unless the one path given is an http or https URL.
    static func open(_ o: ParsedOptions, stateFolder: String?, limits: DecodeLimits, log: Log) throws -> ContentLink? {
        guard o.positional.count == 1, let url = o.positional.first, ContentMap.isRemote(url) else {
            if let remote = o.positional.first(where: ContentMap.isRemote) {
                throw UsageError("play: '\(remote)' is a URL: give it alone (kiosk plays one index from a server at a time)")
            }
            return nil
        }
        guard ContentMap.absolute(url, base: url) != nil else { throw UsageError("play: '\(url)' is not an http or https URL kiosk can fetch") }
        guard let folder = o.string("content-cache") ?? stateFolder.map({ StateDirectory.joined($0, "content") }) else {
            throw UsageError("play: no folder for the content cache (give --content-cache DIR, or a --state-dir)")
        }
        var settings = FetchSettings()
        if let ca = o.string("content-ca") {
            guard FileManager.default.isReadableFile(atPath: ca) else { throw UsageError("--content-ca: cannot read '\(ca)'") }
            settings.caFile = ca
        }
        settings.maxBytesPerSecond = o.number("content-rate").map { Int64($0 * 1000) }
        let key: MinisignPublicKey?
        do {
            key = try o.string("content-key").map { file throws(TrustError) in try MinisignPublicKey(file: file) }
        } catch {
            throw UsageError("--content-key: \(error.description)")
        }
        let cache: ContentCache
        do {
            cache = try ContentCache(directory: folder, budgetBytes: o.integer("content-cache-mb").map { Int64($0) << 20 })
        } catch {
            throw UsageError("--content-cache: \(error.description)")
        }
        if let problem = cache.loadProblem { log.warn("content: \(problem)") }
        return ContentLink(url: url, sync: ContentSync(cache: cache, settings: settings, key: key),
                           period: o.number("content-refresh") ?? 60, mediaPeriod: o.number("content-media-refresh") ?? 600,
                           limits: limits, log: log)
    }

    private init(url: String, sync: ContentSync, period: Double, mediaPeriod: Double, limits: DecodeLimits, log: Log) {
        self.mediaPeriod = mediaPeriod
        self.url = ContentMap.absolute(url, base: url) ?? url
        self.sync = sync
        self.defaultPeriod = period
        self.limits = limits
        self.log = log
    }

    /// What plays at start: the last good index of this URL in the cache, read (no network needed); nil when there
    /// is none, or it cannot be read (one line): the player then idles until a check brings content.
    func startingContent() -> PendingContent.Swap? {
        guard let index = sync.cache.current, index.url == url, sync.cache.isWhole(index) else {
            log.info("content: nothing cached for \(url) yet; the first check fetches it")
            return nil
        }
        let content = read(index)
        if let content {
            log.info("content: playing \(url) from the cache (fetched \(Self.age(index.publishedAt)) ago)")
            cond.lock()
            handed = index
            cond.unlock()
        }
        return content
    }

    /// Starts checking on a thread of its own, handing `player` each new index (`pendingContent`, or at once through
    /// its inbox when nothing of this URL plays yet).
    func start(_ player: Player) {
        let pending = player.pendingContent, inbox = player.inbox
        let thread = Thread { [self] in run(pending: pending, inbox: inbox) }
        thread.name = "kiosk-content"
        cond.lock()
        self.thread = thread
        cond.unlock()
        thread.start()
    }

    /// Checks the URL now (a remote's "check now"), not at the end of the period.
    func checkNow() {
        cond.lock()
        checkAsked = true
        cond.broadcast()
        cond.unlock()
    }

    /// Ends the checks (a transfer under way stops within a second or so).
    func stop() {
        cond.lock()
        stopping = true
        cond.broadcast()
        cond.unlock()
    }

    private var isStopping: Bool {
        cond.lock()
        defer { cond.unlock() }
        return stopping
    }

    private func run(pending: PendingContent, inbox: CommandInbox) {
        var failures = 0
        var mediaChecked = MonotonicClock.seconds()
        while !isStopping {
            let checkMedia = MonotonicClock.seconds() - mediaChecked >= mediaPeriod
            let report = sync.sync(url, checkMedia: checkMedia, shouldStop: { [self] in isStopping })
            if checkMedia, report.outcome != .failed { mediaChecked = MonotonicClock.seconds() }
            for note in report.notes { log.warn("content: \(note)") }
            var wait = report.refreshSeconds ?? defaultPeriod
            switch report.outcome {
            case .changed, .unchanged:
                failures = 0
                say(nil, key: [])
                if let index = report.index { hand(index, changed: report.outcome == .changed, pending: pending, inbox: inbox) }
            case .failed:
                failures += 1
                let nothing = handedIndex == nil
                if nothing {
                    wait = min(Self.backoff.most, Self.backoff.first * pow(2, Double(min(failures - 1, 16))))
                }
                let why = report.problems.first ?? "the check failed"
                say(nothing ? "content: nothing to play from \(url) yet: \(why); showing the idle picture, trying again with "
                            + "backoff (\(Self.seconds(wait)), doubling up to \(Self.seconds(Self.backoff.most)))"
                            : "content: \(url) not updated: \(why); the cached content plays on, next check in \(Self.seconds(wait))",
                    key: [nothing ? "idle" : "cached"] + report.problems, more: Array(report.problems.dropFirst()))
            }
            cond.lock()
            let until = Date(timeIntervalSinceNow: wait)
            while !stopping, !checkAsked, cond.wait(until: until) {}
            checkAsked = false
            cond.unlock()
        }
    }

    private var handedIndex: KeptIndex? {
        cond.lock()
        defer { cond.unlock() }
        return handed
    }

    /// Hands `index` to the player when it is not the one it has: at once when nothing of this URL plays, else at the
    /// end of the item on screen.
    private func hand(_ index: KeptIndex, changed: Bool, pending: PendingContent, inbox: CommandInbox) {
        let had = handedIndex
        guard had?.file != index.file || had?.media != index.media, let swap = read(index) else { return }
        cond.lock()
        handed = index
        cond.unlock()
        if had == nil {
            log.info("content: \(url) fetched; playing it")
            inbox.send(.load(swap.items, .replace))
        } else {
            log.info("content: \(url) changed; the new content plays from the end of the item on screen")
            pending.set(swap)
        }
    }

    /// The index cached for `index`, ready to hand the player: one SMIL file (read here, off the player's loop) or
    /// the playlist's entries as cache files. Nil, with one line, when it cannot be read.
    private func read(_ index: KeptIndex) -> PendingContent.Swap? {
        let file = sync.cache.indexPath(of: index)
        let map = sync.cache.map(of: index)
        FetchedIndexes.register(file, map)
        switch index.kind {
        case .smil:
            do {
                let layout = try SMILFile.load(file, limits: limits, content: map)
                return PendingContent.Swap(items: [PlaylistItem(path: file)], layout: layout)
            } catch {
                log.warn("content: \(error)")
                return nil
            }
        case .m3u:
            guard let data = FileManager.default.contents(atPath: file) else {
                log.warn("content: cannot read the cached playlist \(file)")
                return nil
            }
            let items = M3U.entries(in: String(decoding: data, as: UTF8.self), base: "", source: url, log: log, content: map)
            return PendingContent.Swap(items: items, layout: nil)
        }
    }

    /// Writes `line` (and `more`) unless `key` is what was said last (the same problems: said once, not at every
    /// retry); nil forgets it, so a problem that comes back is said again.
    private func say(_ line: String?, key: [String], more: [String] = []) {
        cond.lock()
        let same = key == lastSaid
        lastSaid = key
        cond.unlock()
        guard !same, let line else { return }
        for l in [line] + more { log.warn(l) }
    }

    private static func seconds(_ s: Double) -> String { s < 90 ? "\(Int(s.rounded())) s" : "\(Int((s / 60).rounded())) min" }

    private static func age(_ since: Double) -> String {
        seconds(max(0, Date().timeIntervalSince1970 - since))
    }
}
