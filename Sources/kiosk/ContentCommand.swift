import Foundation
import KioskCore
import KioskFetch
import KioskTrust

/// `kiosk content sync URL --cache DIR`: the content fetcher alone, once: the index at URL and everything it needs
/// made local in the cache (to pre-seed a box or a USB stick), then exit: 0 with one summary line when everything is
/// local, 1 with one line per problem otherwise. `kiosk content import DIR --cache DIR --content-key FILE` imports a
/// signed bundle instead (`ContentImportCommand`).
struct ContentCommand {
    let log: Log

    static let specs: [OptionSpec] = [
        OptionSpec("cache", .text, metavar: "DIR", "the content cache folder (made when missing; required)"),
    ] + CommandSpecs.content.filter { ["content-ca", "content-rate", "content-cache-mb", "content-key"].contains($0.name) } + [
        OptionSpec("log-level", .choice(LogLevel.allCases.map(\.name)), "how much to say on stderr (default warn)"),
    ]

    func run(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") {
            print(CommandHelp.content.text, terminator: "")
            return 0
        }
        let o = try ParsedOptions.parse(args, specs: Self.specs, command: "content")
        if let l = o.string("log-level"), let level = LogLevel(name: l) { log.level = level }
        if o.positional.first == "import" { return try ContentImportCommand(log: log).run(o) }
        guard o.positional.first == "sync" else {
            throw UsageError("content: give 'sync URL' or 'import DIR' (got \(o.positional.first.map { "'\($0)'" } ?? "nothing"))")
        }
        guard o.positional.count == 2 else {
            throw UsageError("content sync: give exactly one index URL (got \(o.positional.count - 1))")
        }
        let url = o.positional[1]
        guard ContentMap.isRemote(url), ContentMap.absolute(url, base: url) != nil else {
            throw UsageError("content sync: '\(url)' is not an http or https URL")
        }
        guard let folder = o.string("cache") else { throw UsageError("content sync: --cache DIR is required") }
        var settings = FetchSettings()
        settings.caFile = try o.string("content-ca").map { file throws(UsageError) in try Self.readable(file, flag: "content-ca") }
        settings.maxBytesPerSecond = o.number("content-rate").map { Int64(Int(saturating: $0 * 1000)) }
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
            log.error("content sync: \(error.description)")
            return 1
        }
        let stop = StopSignal.install(log: log)
        let report = ContentSync(cache: cache, settings: settings, key: key).sync(url, shouldStop: { stop.requested })
        for note in report.notes { log.warn("content sync: \(note)") }
        guard report.outcome != .failed else {
            for problem in report.problems { Log.writeStandardError(log.syslogPrefix(.error) + "kiosk: \(Log.escaped(problem))\n") }
            Log.writeStandardError(log.syslogPrefix(.error) + "kiosk: content sync: \(Log.escaped(report.summary)); "
                                   + "\(report.problems.count) problem\(report.problems.count == 1 ? "" : "s")"
                                   + (report.index == nil ? ", no index in the cache\n" : "; the last good index stays\n"))
            return 1
        }
        print(report.summary + (report.refreshSeconds.map { ", refresh every \(Self.seconds($0)) s" } ?? ""))
        return 0
    }

    /// `file` when it can be read, else a usage error naming `flag`.
    private static func readable(_ file: String, flag: String) throws(UsageError) -> String {
        guard access(file, R_OK) == 0 else {
            throw UsageError("--\(flag): \(file): \(String(cString: strerror(errno)))")
        }
        return file
    }

    /// `value` without a trailing `.0`.
    private static func seconds(_ value: Double) -> String {
        Int(whole: value, in: -999_999_999_999_999...999_999_999_999_999).map(String.init) ?? String(value)
    }
}
