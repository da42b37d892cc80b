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
/// The remotes reach it through the player's `ContentControl`: after every check the link leaves its status there
/// (the URL, the check and its result, the cache's use) and wakes the player, which posts it; "check now" ends the
/// wait for the next check; a remote's `load URL` switches to another index URL, whose content swaps in as any new
/// index does. `kiosk play FILES` has a link too whenever a cache folder can be named (`--content-cache`, else the
/// state folder's `content/`): it waits, with no thread and no cache folder made, until a remote's `load URL`.
/// Each screen of several has a link of its own, on its own folder, thread and remotes (`ContentLinks`, issue 40).
final class ContentLink: @unchecked Sendable {
    /// The URL given on the command line; nil: the link waits for a remote's `load URL`.
    let startURL: String?
    /// The screen it serves: where its swaps go, and whose remotes it answers.
    let screen: String
    /// What a cache is opened with: its folder and budget, the transfers' settings and the content key.
    let folder: String
    /// Whether the folders above `folder` are made when missing (a further screen's `screens/NAME` below the global
    /// folder), or must be there (a folder the operator named).
    private var makesParents = false
    let budget: Int64?
    private let settings: FetchSettings
    let key: MinisignPublicKey?
    let log: Log
    let limits: DecodeLimits
    private let defaultPeriod: Double
    /// How often every medium is asked for again (`--content-media-refresh`).
    private let mediaPeriod: Double
    /// The sync over the cache: made at `open` with a URL, else on the link's thread when the first URL comes; used
    /// only there once the thread runs.
    var sync: ContentSync?
    let cond = NSCondition()
    // guarded by `cond`
    private var wanted: String?
    private var stopping = false
    private var checkAsked = false
    private var thread: Thread?
    var player: (pending: PendingContent, inbox: CommandInbox, control: ContentControl)?
    var lastSaid: [String] = []
    /// The index the player was handed last, with its media (nil: none yet).
    private var handed: KeptIndex?
    /// Signed bundles from a USB stick or a folder (`--content-bundle`), imported on the link's thread.
    private var bundles: ContentBundles?
    /// Where proof of play and status go back to the server (the index's report subscriptions), and what it is
    /// made from: the play log and the folder of the reports' cursors.
    private var reports: PlayReportUploads?
    private var reportSources: (playLog: String?, folder: String)?

    /// The shortest and longest waits after a failed check with nothing to play.
    static let backoff = (first: 2.0, most: 120.0)

    /// The link `o` asks for, for screen `screen` (`label` starts its usage errors: `play`, `--screen NAME`), its
    /// cache in `folder`: one that fetches when the one path given is an http or https URL; one that waits for a
    /// remote's `load URL` when the paths are local and a folder is named; nil when none is. Signed bundles
    /// (`--content-bundle`) come to it when `takesBundles` (the first screen's).
    static func open(_ o: ParsedOptions, folder: String?, screen: String, label: String, takesBundles: Bool, makesParents: Bool = false,
                     limits: DecodeLimits, log: Log) throws -> ContentLink? {
        let url = try startURL(o.positional, label: label)
        guard let folder else {
            guard url == nil else { throw UsageError("\(label): no folder for the content cache (give --content-cache DIR, or a --state-dir)") }
            return nil  // a remote's load URL is refused with one line
        }
        let (settings, key) = try fetchOptions(o)
        let link = ContentLink(url: url, folder: folder, screen: screen, budget: o.integer("content-cache-mb").map { Int64($0) << 20 },
                               settings: settings, key: key, period: o.number("content-refresh") ?? 60,
                               mediaPeriod: o.number("content-media-refresh") ?? 600, limits: limits, log: log)
        link.makesParents = makesParents
        let bundle = takesBundles ? o.string("content-bundle") : nil
        if url != nil || bundle != nil {
            do throws(CacheError) { link.sync = try link.openSync() } catch { throw UsageError("--content-cache: \(error.description)") }
        }
        if let spec = bundle {
            guard let key else { throw UsageError("--content-bundle needs --content-key (a bundle is taken only when signed)") }
            link.bundles = try ContentBundles(spec: spec, key: key, log: log) { [weak link] in link?.wake() }
        }
        return link
    }

    private init(url: String?, folder: String, screen: String, budget: Int64?, settings: FetchSettings, key: MinisignPublicKey?,
                 period: Double, mediaPeriod: Double, limits: DecodeLimits, log: Log) {
        startURL = url
        wanted = url
        self.folder = folder
        self.screen = screen
        self.budget = budget
        self.settings = settings
        self.key = key
        self.defaultPeriod = period
        self.mediaPeriod = mediaPeriod
        self.limits = limits
        self.log = log
    }

    /// The cache in the link's folder and a sync over it (the folders above it made first when `makesParents`).
    private func openSync() throws(CacheError) -> ContentSync {
        if makesParents { try Self.makeParents(of: folder) }
        let cache = try ContentCache(directory: folder, budgetBytes: budget)
        if let problem = cache.loadProblem { log.warn("content: \(problem)") }
        return ContentSync(cache: cache, settings: settings, key: key)
    }

    /// What plays at start: the last good index of the URL in the cache, read (no network needed); nil when there
    /// is none, or it cannot be read (one line): the player then idles until a check brings content.
    func startingContent() -> PendingContent.Swap? {
        guard let url = startURL, let cache = sync?.cache else { return nil }
        guard let index = cache.current, index.url == url, cache.isWhole(index) else {
            log.info("content: nothing cached for \(url) yet; the first check fetches it")
            return nil
        }
        let content = read(index, cache: cache)
        if let content {
            log.info("content: playing \(url) from the cache (fetched \(Self.age(index.publishedAt)) ago)")
            cond.lock()
            handed = index
            cond.unlock()
        }
        return content
    }

    /// Answers the remotes of `player`'s screen `screen` from now on (its `ContentControl`: the status, "check now",
    /// `load URL`), and starts checking on a thread of its own when there is a URL, handing that screen each new
    /// index (its `FetchedContent.pending`, or at once through the inbox when nothing of this URL plays yet).
    func start(_ player: Player) {
        guard let fetched = player.fetchedContent(forScreen: screen) else { return }
        let control = fetched.control
        cond.lock()
        self.player = (fetched.pending, player.inbox, control)
        cond.unlock()
        control.connect(ContentControl.Handlers(checkNow: { [self] in reports?.sendNow(); return checkNow() },
                                                switchTo: { [self] in switchTo(url: $0) },
                                                localLoad: { [self] in leave() }))
        if let sources = reportSources {
            reports = PlayReportUploads(playLog: sources.playLog, folder: sources.folder, settings: settings, log: log, board: player.board)
            if let index = handedIndex, let cache = sync?.cache { followReports(index, cache: cache) }
        }
        publish(nil, url: startURL)
        if startURL != nil || bundles != nil { startThread() }
        bundles?.start()
    }

    /// The report uploads follow the subscriptions of `index`, which now plays.
    private func followReports(_ index: KeptIndex, cache: ContentCache) {
        reports?.follow(index: cache.indexPath(of: index), url: index.url, map: index.kind == .smil ? cache.map(of: index) : nil)
    }

    /// Sends proof of play from the play log at `playLog` (nil: none is kept) and the player's status back to the
    /// server, where the index playing names report subscriptions; their cursors are kept in `folder`. Before `start`.
    func reportBack(playLog: String?, folder: String) {
        reportSources = (playLog, folder)
    }

    /// Ends the wait for the next check (a bundle was queued).
    private func wake() {
        cond.lock()
        checkAsked = true
        cond.broadcast()
        cond.unlock()
    }

    /// Checks the URL now (a remote's "check now"), not at the end of the period; the URL, or nil when there is none.
    func checkNow() -> String? {
        cond.lock()
        defer { cond.unlock() }
        guard let wanted else { return nil }
        checkAsked = true
        cond.broadcast()
        return wanted
    }

    /// Plays the index at `url` from the next check on (a remote's `load URL`): a check begins at once (one under
    /// way for another URL stops), and its content swaps in as any new index does, once it and its media are
    /// cached; what plays stays until then. The cache is the same folder (its last good index is one index: the
    /// new URL's replaces it once whole, and the old one's files go at the next replacement).
    func switchTo(url given: String) -> ContentRefusal? {
        guard ContentMap.isRemote(given), let url = ContentMap.absolute(given, base: given) else {
            return ContentRefusal("'\(given)' is not an http or https URL kiosk can fetch")
        }
        cond.lock()
        let same = wanted == url
        wanted = url
        checkAsked = true
        cond.broadcast()
        cond.unlock()
        log.info(same ? "content: checking \(url) now (a remote loaded it again)"
                      : "content: switching to \(url) (a remote loaded it); what plays stays until it is cached")
        startThread()
        return nil
    }

    /// A remote replaced what plays with local media: the checks stop (a transfer under way too) and a swap that
    /// waited is dropped, so no index swaps back in over what the remote chose, until a remote loads a URL again.
    private func leave() {
        cond.lock()
        let was = wanted
        wanted = nil
        handed = nil
        checkAsked = true
        cond.broadcast()
        let pending = player?.pending
        cond.unlock()
        _ = pending?.take()
        guard let was else { return }
        log.info("content: a remote loaded local media; checks of \(was) stop until a URL is loaded again")
        publish(nil, url: nil)
    }

    /// Ends the checks (a transfer under way stops within a second or so).
    func stop() {
        cond.lock()
        stopping = true
        cond.broadcast()
        cond.unlock()
        bundles?.stop()
        reports?.stop()
    }

    /// Starts the checking thread unless it runs (or the link was never started with a player).
    private func startThread() {
        cond.lock()
        defer { cond.unlock() }
        guard thread == nil, player != nil else { return }
        let thread = Thread { [self] in run() }
        thread.name = "kiosk-content"
        self.thread = thread
        thread.start()
    }

    private var isStopping: Bool {
        cond.lock()
        defer { cond.unlock() }
        return stopping
    }

    /// The URL wanted now (nil: none yet, or a remote chose local media).
    var wantedURL: String? {
        cond.lock()
        defer { cond.unlock() }
        return wanted
    }

    private func run() {
        var failures = 0
        var mediaChecked = MonotonicClock.seconds()
        var checking: String?
        var policy = RefreshPolicy()  // the last checked index's (its Refresh meta's attributes)
        while !isStopping {
            importBundles()
            guard let url = wantedURL else {
                if bundles == nil, endsWithoutURL() { return }
                rest(Self.backoff.most)  // a bundle, or a remote's load URL, may bring a URL
                continue
            }
            if url != checking {  // the start, or a remote switched URLs: the backoff and the media period start over
                checking = url
                failures = 0
                mediaChecked = MonotonicClock.seconds()
                policy = RefreshPolicy()
            }
            guard let sync = ensureSync(url) else {
                rest(Self.backoff.most)
                continue
            }
            if let index = sync.cache.current, index.url == url, sync.cache.isWhole(index) {
                hand(index, cache: sync.cache, url: url)  // cached already (switched back, or offline): plays as is
            }
            cond.lock()
            checkAsked = false  // this check is the one asked for (a switch's, a remote's); one asked from now on is another
            cond.unlock()
            let checkMedia = !policy.onlyIndex && MonotonicClock.seconds() - mediaChecked >= (policy.media ?? mediaPeriod)
            let report = sync.sync(url, checkMedia: checkMedia, checkTimeout: policy.checkTimeout,
                                   shouldStop: { [self] in isStopping || wantedURL != url })
            if wantedURL != url { continue }  // switched during the check: the new URL's check now
            if checkMedia, report.outcome != .failed { mediaChecked = MonotonicClock.seconds() }
            if let read = report.policy { policy = read }
            for note in report.notes { log.warn("content: \(note)") }
            var wait = report.refreshSeconds ?? defaultPeriod
            switch report.outcome {
            case .changed, .unchanged:
                failures = 0
                say(nil, key: [])
                if let index = report.index { hand(index, cache: sync.cache, url: url, atOnce: report.policy?.swapAtOnce ?? false) }
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
            publish(report, url: url)
            rest(wait)
        }
    }

    /// Whether the thread ends (no URL is wanted now): then a later `switchTo` starts another.
    private func endsWithoutURL() -> Bool {
        cond.lock()
        defer { cond.unlock() }
        guard wanted == nil else { return false }
        thread = nil
        return true
    }

    /// Imports the bundles queued since the last turn: one whose index becomes current is handed to the player as
    /// a fetched one is (and names the URL to check from then on, when none was given).
    private func importBundles() {
        guard let bundles else { return }
        for folder in bundles.take() {
            guard let sync = sync ?? (try? openSync()) else { continue }
            self.sync = sync
            guard let (index, url) = bundles.importOne(folder, into: sync.cache, settings: settings, expectedURL: wantedURL,
                                                       log: log) else { continue }
            cond.lock()
            if wanted == nil { wanted = url }
            cond.unlock()
            hand(index, cache: sync.cache, url: url)
            publish(nil, url: url)
        }
    }

    /// Waits `seconds`, or until a check is asked for (or a URL switched, or the stop).
    private func rest(_ seconds: Double) {
        cond.lock()
        let until = Date(timeIntervalSinceNow: seconds)
        while !stopping, !checkAsked, cond.wait(until: until) {}
        checkAsked = false
        cond.unlock()
    }

    /// The sync, its cache opened here the first time (a link started without a URL); nil, with one line and a
    /// failed status, when the cache folder cannot be used.
    private func ensureSync(_ url: String) -> ContentSync? {
        if let sync { return sync }
        do throws(CacheError) {
            let made = try openSync()
            sync = made
            return made
        } catch {
            let line = "content: cannot fetch \(url): the content cache: \(error.description)"
            say(line, key: ["cache", error.description])
            var s = ContentStatus()
            s.url = url
            s.signed = key != nil
            s.lastCheck = WallInstant(clamping: Date())
            s.result = .failed
            s.problem = error.description
            s.cacheBudget = budget
            show(s)
            return nil
        }
    }

    var handedIndex: KeptIndex? {
        cond.lock()
        defer { cond.unlock() }
        return handed
    }

    /// Hands `index` (of `url`) to the player when it is not the one it has: at once when nothing fetched plays or
    /// the index asks for it (`atOnce`: `<meta name="kiosk-swap" content="now">`), else at the end of the item on screen.
    private func hand(_ index: KeptIndex, cache: ContentCache, url: String, atOnce: Bool = false) {
        let had = handedIndex
        guard had?.file != index.file || had?.media != index.media else { return }
        cond.lock()
        let player = self.player
        cond.unlock()
        guard let player, let swap = read(index, cache: cache) else { return }
        cond.lock()
        handed = index
        cond.unlock()
        followReports(index, cache: cache)
        if had == nil || atOnce {
            log.info(had == nil ? "content: \(url) fetched; playing it" : "content: \(url) changed; swapped in at once, as the index asks")
            _ = player.pending.take()
            player.inbox.send(.load(swap.items, .replace), toScreen: screen)
        } else {
            log.info("content: \(url) changed; the new content plays from the end of the item on screen")
            player.pending.set(swap)
        }
    }

}
