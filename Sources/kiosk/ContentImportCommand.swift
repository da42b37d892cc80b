import Foundation
import KioskCore
import KioskFetch
import KioskTrust

/// `kiosk content import DIR --cache DIR --content-key FILE`: a signed bundle (a USB stick's folder, see
/// `BundleLayout`) imported into the content cache once, as the last good index of the URL it stands for. Exits 0
/// with one summary line when imported (or already the cache's), 1 with one line per problem when refused (nothing in
/// the cache changed).
struct ContentImportCommand {
    let log: Log

    /// Runs it with the options `ContentCommand` parsed (`import DIR` first among the positionals).
    func run(_ o: ParsedOptions) throws -> Int32 {
        guard o.positional.count == 2 else {
            throw UsageError("content import: give exactly one bundle folder (got \(o.positional.count - 1))")
        }
        let folder = o.positional[1]
        guard let cacheFolder = o.string("cache") else { throw UsageError("content import: --cache DIR is required") }
        guard let keyFile = o.string("content-key") else {
            throw UsageError("content import: --content-key FILE is required (a bundle is taken only when signed)")
        }
        let key: MinisignPublicKey
        do { key = try MinisignPublicKey(file: keyFile) } catch { throw UsageError("--content-key: \(error.description)") }
        let cache: ContentCache
        do {
            cache = try ContentCache(directory: cacheFolder, budgetBytes: o.integer("content-cache-mb").map { Int64($0) << 20 })
        } catch {
            log.error("content import: \(error.description)")
            return 1
        }
        let report = BundleImport(cache: cache, key: key).importBundle(from: folder)
        for note in report.notes { log.warn("content import: \(note)") }
        guard report.outcome != .refused else {
            for problem in report.problems { Log.writeStandardError(log.syslogPrefix(.error) + "kiosk: \(Log.escaped(problem))\n") }
            return 1
        }
        print(report.summary)
        return 0
    }
}
