import Foundation
import KioskCore
import KioskFetch
import KioskMedia
import KioskPlayer
import KioskTrust

/// `kiosk play`'s content links, one per screen (issue 40): each screen whose SOURCE is a URL fetches it into a cache
/// folder of its own, on a thread of its own, and swaps, checks and answers its remotes on that screen alone; a
/// screen playing files has a link that waits for a remote's `load URL`, as the first screen's does. The first
/// screen's folder is where it always was (`--content-cache DIR`, else the state folder's `content/`); screen NAME's
/// is `screens/NAME` below the global one, or its section's own `content-cache`. Two screens on one folder is one
/// line. The fetcher's options apply to every screen unless its section gives its own; signed bundles
/// (`--content-bundle`) and the reports back to the server are the first screen's.
final class ContentLinks: @unchecked Sendable {
    /// Each screen's link, the first screen's first (a screen without one has no folder that can be named).
    let links: [ContentLink]

    private init(links: [ContentLink]) { self.links = links }

    /// The links for the first screen (`first`, its options `o`) and each screen of `plans` after it, their caches
    /// below `stateFolder` unless the options name them. With several screens each link's lines start with its
    /// screen's name. Throws a screen's bad URL, a URL with no folder, or two screens on one folder as one line.
    static func open(_ o: ParsedOptions, first: String, plans: [ScreenPlan], stateFolder: String?, limits: DecodeLimits,
                     log: Log) throws -> ContentLinks {
        let firstFolder = o.string("content-cache") ?? stateFolder.map { StateDirectory.joined($0, "content") }
        let folders = plans.map { folder(of: $0, stateFolder: stateFolder) }
        var named: [(screen: String, folder: String)] = firstFolder.map { [(first, $0)] } ?? []
        for (plan, chosen) in zip(plans, folders) {
            guard let folder = chosen.path else { continue }
            if let other = named.first(where: { same($0.folder, folder) }) {  // checked before any folder is made
                throw UsageError((chosen.origin.map { "\($0): [screen \(plan.name)] " } ?? "\(plan.label): ")
                                 + "content cache \(folder) is screen \(other.screen)'s too: give each screen a folder of its own")
            }
            named.append((plan.name, folder))
        }
        let several = !plans.isEmpty
        var links: [ContentLink] = []
        if let link = try ContentLink.open(o, folder: firstFolder, screen: first, label: several ? "--screen \(first)" : "play",
                                           takesBundles: true, limits: limits, log: several ? log.prefixed("screen \(first): ") : log) {
            links.append(link)
        }
        for (plan, folder) in zip(plans, folders) {
            do {
                if let link = try ContentLink.open(plan.options, folder: folder.path, screen: plan.name, label: plan.label, takesBundles: false,
                                                   makesParents: folder.isDefault, limits: limits, log: log.prefixed("screen \(plan.name): ")) {
                    links.append(link)
                }
            } catch let error as UsageError {
                throw ConfigFile.locate(error, args: plan.arguments, origins: plan.origins)  // its section's line, when one set it
            }
        }
        return ContentLinks(links: links)
    }

    /// Where one screen's cache is.
    struct Folder {
        /// The folder; nil when none can be named.
        var path: String?
        /// The `FILE:LINE` of the section's `content-cache` that named it; nil for the default.
        var origin: String?
        /// Whether it is the default, `screens/NAME` below the global folder (its parents are made when missing).
        var isDefault: Bool
    }

    /// Screen `plan`'s cache folder: its section's `content-cache`, else `screens/NAME` below the global one (the
    /// command line's and the lines above the sections), else below the state folder's `content/`.
    static func folder(of plan: ScreenPlan, stateFolder: String?) -> Folder {
        let own = plan.changes.first { $0.name == "content-cache" }
        if let given = own?.values?.first { return Folder(path: given, origin: own?.origin, isDefault: false) }
        let global = own.map { $0.global?.first } ?? plan.options.string("content-cache")
        let base = global ?? stateFolder.map { StateDirectory.joined($0, "content") }
        return Folder(path: base.map { StateDirectory.joined(StateDirectory.joined($0, "screens"), plan.name) }, isDefault: true)
    }

    /// Whether `a` and `b` name one folder (as written, `.` and `..` and doubled slashes aside).
    private static func same(_ a: String, _ b: String) -> Bool {
        URL(fileURLWithPath: a).standardized.path == URL(fileURLWithPath: b).standardized.path
    }

    /// Screen `name`'s link (nil: it has none).
    func link(forScreen name: String) -> ContentLink? { links.first { $0.screen == name } }

    /// Whether a link fetches a URL given at start (the player then idles rather than ends while nothing plays).
    var fetches: Bool { links.contains { $0.startURL != nil } }

    /// What screen `name` plays at start: its URL's last good index in its cache (nil: it plays no URL, or nothing
    /// is cached yet, when the first check brings it).
    func startingContent(forScreen name: String) -> PendingContent.Swap? { link(forScreen: name)?.startingContent() }

    /// Every link answers its screen's remotes and starts checking (`ContentLink.start`).
    func start(_ player: Player) {
        for link in links { link.start(player) }
    }

    /// Ends every link's checks.
    func stop() {
        for link in links { link.stop() }
    }
}

extension ContentLink {
    /// The URL among `paths` to fetch (nil: none is a URL); a URL given with other paths, or one kiosk cannot fetch,
    /// is one line starting with `label`.
    static func startURL(_ paths: [String], label: String) throws -> String? {
        guard let remote = paths.first(where: ContentMap.isRemote) else { return nil }
        guard paths.count == 1 else {
            throw UsageError("\(label): '\(remote)' is a URL: give it alone (kiosk plays one index from a server at a time)")
        }
        guard let absolute = ContentMap.absolute(remote, base: remote) else {
            throw UsageError("\(label): '\(remote)' is not an http or https URL kiosk can fetch")
        }
        return absolute
    }

    /// Makes the folders above `folder` that are missing; a line naming them when they cannot be made.
    static func makeParents(of folder: String) throws(CacheError) {
        let parent = (folder as NSString).deletingLastPathComponent
        guard !parent.isEmpty else { return }
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw CacheError("\(parent): cannot make the folder: \((error as NSError).localizedDescription)")
        }
    }

    /// The transfers' settings (`--content-ca`, `--content-rate`) and the content key (`--content-key`) `o` gives.
    static func fetchOptions(_ o: ParsedOptions) throws -> (FetchSettings, MinisignPublicKey?) {
        var settings = FetchSettings()
        if let ca = o.string("content-ca") {
            guard FileManager.default.isReadableFile(atPath: ca) else { throw UsageError("--content-ca: cannot read '\(ca)'") }
            settings.caFile = ca
        }
        settings.maxBytesPerSecond = o.number("content-rate").map { Int64(Int(saturating: $0 * 1000)) }
        do {
            return (settings, try o.string("content-key").map { file throws(TrustError) in try MinisignPublicKey(file: file) })
        } catch {
            throw UsageError("--content-key: \(error.description)")
        }
    }
}
