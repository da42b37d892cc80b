import Foundation
import KioskCore
import KioskMedia
import KioskTrust

/// Imports a signed content bundle (a USB stick, or any folder; see `BundleLayout`) into the content cache, as a sync
/// that changed would: the index must be signed by the content key (`index.smil.minisig`), name the URL it stands
/// for (`kiosk-url`) and give every medium's `sha256`; every medium must lie in the bundle (no `..`, absolute path or
/// symlink leaving it), be a regular file within the caps, and match its sum. Only then are the index and its media
/// copied into the cache (named by `CacheNames`, never by the bundle's names; media the cache already holds with the
/// same SHA-256 are not copied again) and the index published as the cache's last good one for that URL, so the
/// player swaps to it as to a fetched one.
///
/// A refused bundle changes nothing in the cache: every problem found is one line naming the bundle's file; what
/// was copied is removed and the cache's state is as it was. What is checked is the copy in the cache (hashed while
/// written), and the index verified is the bytes read once into memory, so a stick changed meanwhile cannot slip
/// anything past the checks. Holds the cache's sync lock while it runs (a sync at the same time is refused).
public final class BundleImport {
    /// The cache it fills.
    public let cache: ContentCache
    /// The key the bundle's index must be signed with.
    public let key: MinisignPublicKey
    /// The caps: `maxIndexBytes` for the index, `maxFileBytes` per medium, `maxIndexTotalBytes` for all media,
    /// `maxReferences` media at most.
    public let settings: FetchSettings

    /// The most problem lines a refusal lists.
    static let maxProblems = 20

    /// An importer into `cache`, trusting `key`.
    public init(cache: ContentCache, key: MinisignPublicKey, settings: FetchSettings = FetchSettings()) {
        self.cache = cache
        self.key = key
        self.settings = settings
    }

    /// Imports the bundle in `folder` (the folder itself or its `kiosk/` subfolder holds `index.smil`). With
    /// `expectedURL`, a bundle standing for another URL is refused (the player plays that URL only).
    public func importBundle(from folder: String, expectedURL: String? = nil) -> BundleReport {
        var report = BundleReport(outcome: .refused, bundle: folder, indexURL: nil, index: nil, map: nil, indexFile: nil,
                                  mediaCount: 0, filesCopied: 0, bytesCopied: 0, problems: [], notes: [])
        if let problem = cache.loadProblem { report.notes.append(problem) }
        let lock: SyncLock
        do { lock = try SyncLock(folder: cache.directory) } catch {
            report.problems = [error.description]
            return finish(report)
        }
        defer { lock.release() }
        let saved = cache.state
        var staged = Staged()
        do {
            try run(folder, expectedURL: expectedURL, report: &report, staged: &staged)
        } catch {
            cache.state = saved
            for name in staged.installed { unlink(cache.path(name)) }
            report.outcome = .refused
            report.filesCopied = 0
            report.bytesCopied = 0
            report.problems = Array(error.lines.prefix(Self.maxProblems))
                + (error.lines.count > Self.maxProblems ? ["\(report.bundle): … and \(error.lines.count - Self.maxProblems) more problems"] : [])
        }
        for temp in staged.temps { unlink(temp) }
        return finish(report)
    }

    /// Files made in the cache along the way: temporary copies (always removed at the end) and installed bodies
    /// (removed when the import is refused after all).
    private struct Staged {
        var temps: [String] = []
        var installed: [String] = []
    }

    /// A medium of the bundle: its reference, its file in the bundle and, once copied, its temporary copy.
    private struct Medium {
        let reference: ContentReference
        let relative: String
        let source: BundleSource
        var copy: (path: String, size: Int64)?
    }

    private func run(_ folder: String, expectedURL: String?, report: inout BundleReport, staged: inout Staged) throws(BundleProblem) {
        let bundle = try BundleFolder(folder)
        let indexName = bundle.name(BundleLayout.indexName)
        report.bundle = indexName
        let indexBytes = try bundle.read(BundleLayout.indexName, limit: settings.maxIndexBytes, what: "an index")
        try verify(indexBytes, in: bundle)
        let count = IndexReader.sourceAttributes(in: indexBytes)
        guard count <= settings.maxReferences else {
            throw BundleProblem("\(indexName): refused: names \(count) media, more than the \(settings.maxReferences) an index may")
        }
        let root: MarkupElement
        do { root = try MarkupReader.parse(indexBytes, file: indexName) } catch { throw BundleProblem("\(error.description); refused") }
        let url = try standsFor(root, indexName: indexName, expectedURL: expectedURL)
        report.indexURL = url
        let found = ContentReferences.smil(root: root, indexURL: url, name: indexName)
        report.mediaCount = found.references.count
        var media = try open(found, in: bundle, indexURL: url)
        try copyNew(&media, url: url, staged: &staged, report: &report)
        let indexEntry = try installIndex(indexBytes, url: url, staged: &staged, report: &report)
        var files: [String: String] = [:]
        for medium in media {
            let url = medium.reference.url
            if let copy = medium.copy {
                let entry: CacheEntry
                do {
                    entry = try cache.install(url, from: copy.path, validators: HTTPValidators(), size: copy.size,
                                              sha256: medium.reference.sha256 ?? "", contentType: MediaExtensions.mimeType(medium.relative),
                                              now: Date().timeIntervalSince1970)
                } catch {
                    throw BundleProblem("\(medium.source.name): cannot put it in the content cache: \(error.description)")
                }
                staged.installed.append(entry.file)
                files[url] = entry.file
            } else if let held = cache.entries[url] {
                files[url] = held.file
            }
        }
        let now = Date().timeIntervalSince1970
        let kept = KeptIndex(url: url, kind: .smil, file: indexEntry.file, validators: indexEntry.validators, media: files,
                             refreshSeconds: IndexReader.refresh(in: root), publishedAt: now, signed: true)
        let before = cache.current
        let unchanged = before?.url == kept.url && before?.file == kept.file && before?.media == kept.media && before?.signed == true
        if !unchanged { cache.publish(kept) }
        cache.touch(Array(files.keys) + [url], now: now)
        do { try cache.save() } catch { throw BundleProblem("\(indexName): not imported: \(error.description)") }
        report.outcome = unchanged ? .unchanged : .imported
        let needed = Set(files.values).union([indexEntry.file])
        cache.collectGarbage(keeping: needed)
        if let note = cache.enforceBudget(protecting: needed) { report.notes.append(note) }
        do { try cache.save() } catch { report.notes.append(error.description) }
    }

    /// Refuses an index without a signature by the key beside it, or whose signature does not verify.
    private func verify(_ indexBytes: [UInt8], in bundle: BundleFolder) throws(BundleProblem) {
        let indexName = bundle.name(BundleLayout.indexName)
        guard bundle.has(BundleLayout.signatureName) else {
            throw BundleProblem("\(indexName): refused: unsigned (no \(BundleLayout.signatureName) beside it); a bundle must be "
                                + "signed with the content key")
        }
        let signature = try bundle.read(BundleLayout.signatureName, limit: Int64(BundleLayout.maxSignatureBytes), what: "a signature")
        do {
            _ = try Minisign.verify(bytes: indexBytes, signature: String(decoding: signature, as: UTF8.self), key: key,
                                    name: bundle.name(BundleLayout.signatureName))
        } catch {
            throw BundleProblem("\(indexName): refused: its signature \(BundleLayout.signatureName) does not verify with the "
                                + "content key (\(error.reason))")
        }
    }

    /// The URL the index stands for, or the line refusing it.
    private func standsFor(_ root: MarkupElement, indexName: String, expectedURL: String?) throws(BundleProblem) -> String {
        let named = BundleLayout.standsFor(root)
        guard let url = named.url else {
            if let written = named.written {
                throw BundleProblem("\(indexName): refused: <meta name=\"\(BundleLayout.urlMetaName)\"> names "
                                    + "\"\(ErrorQuote.cut(written))\", not an http or https URL")
            }
            throw BundleProblem("\(indexName): refused: no <meta name=\"\(BundleLayout.urlMetaName)\" content=\"https://…\"> in its "
                                + "<head> naming the URL it stands for")
        }
        if let expectedURL, let expected = ContentMap.absolute(expectedURL, base: expectedURL), expected != url {
            throw BundleProblem("\(indexName): refused: it stands for \(FetchError.quoted(url)), not the \(FetchError.quoted(expected)) "
                                + "this kiosk plays")
        }
        return url
    }

    /// Each medium the index names, open in the bundle; refuses what the index cannot name in a bundle (another
    /// scheme, no sha256, a place outside the bundle) and what the bundle does not hold within the caps.
    private func open(_ found: (references: [ContentReference], problems: [String]), in bundle: BundleFolder,
                      indexURL: String) throws(BundleProblem) -> [Medium] {
        var problems = found.problems.map { $0.hasSuffix("; left out") ? String($0.dropLast(10)) + "; refused" : $0 }
        var media: [Medium] = []
        var total: Int64 = 0
        for reference in found.references {
            let quoted = FetchError.quoted(reference.url)
            guard reference.sha256 != nil else {
                problems.append("\(reference.source): \(quoted): no sha256 attribute, and a signed bundle must give one for "
                                + "every medium; refused")
                continue
            }
            guard let relative = BundleLayout.relativePath(of: reference.url, indexURL: indexURL) else {
                problems.append("\(reference.source): \(quoted): refused: not in the bundle (its media lie beside the index: a "
                                + "relative src, or a URL under \(BundleLayout.folderURL(of: indexURL)))")
                continue
            }
            do {
                let source = try bundle.openFile(relative, limit: settings.maxFileBytes, what: "a medium")
                total += source.size
                media.append(Medium(reference: reference, relative: relative, source: source))
            } catch {
                problems += error.lines.map { "\($0) (named at \(reference.source))" }
            }
        }
        if problems.isEmpty, total > settings.maxIndexTotalBytes {
            problems.append("\(bundle.name(BundleLayout.indexName)): refused: its media add up to \(FetchError.mebibytes(total)), "
                            + "more than the \(FetchError.mebibytes(settings.maxIndexTotalBytes)) an index may")
        }
        guard problems.isEmpty else { throw BundleProblem(lines: problems) }
        return media
    }

    /// Copies each medium the cache does not hold with its SHA-256 into a temporary file in the cache, checking it;
    /// refuses when one does not match or the cache's disk has not the room.
    private func copyNew(_ media: inout [Medium], url: String, staged: inout Staged, report: inout BundleReport) throws(BundleProblem) {
        let wanted = media.indices.filter { i in
            guard let held = cache.entries[media[i].reference.url] else { return true }
            return held.sha256 != media[i].reference.sha256 || !cache.exists(held.file)
        }
        let needed = wanted.reduce(Int64(0)) { $0 + media[$1].source.size }
        var disk = statvfs()
        if statvfs(cache.directory, &disk) == 0 {
            let free = Int64(disk.f_bavail) * Int64(disk.f_frsize)
            guard needed <= free else {
                throw BundleProblem("\(report.bundle): refused: its new media need \(FetchError.mebibytes(needed)), and the content "
                                    + "cache \(cache.directory) has \(FetchError.mebibytes(free)) free")
            }
        }
        var problems: [String] = []
        for i in wanted {
            let medium = media[i]
            let temp = cache.path(CacheNames.stem(medium.reference.url) + ".import")
            staged.temps.append(temp)
            do {
                let copied = try medium.source.copy(to: temp, limit: settings.maxFileBytes)
                if let expected = medium.reference.sha256, copied.sha256 != expected {
                    unlink(temp)
                    problems.append("\(medium.source.name): refused: SHA-256 \(copied.sha256), not the \(expected) the signed index "
                                    + "gives (\(medium.reference.source)): changed or tampered")
                    continue
                }
                media[i].copy = (temp, copied.size)
                report.filesCopied += 1
                report.bytesCopied += copied.size
            } catch {
                unlink(temp)
                problems += error.lines
            }
        }
        guard problems.isEmpty else { throw BundleProblem(lines: problems) }
    }

    /// The cache's entry for the index at `url` holding `bytes`: the one it has when the same, else the bytes
    /// installed as a new version.
    private func installIndex(_ bytes: [UInt8], url: String, staged: inout Staged, report: inout BundleReport) throws(BundleProblem) -> CacheEntry {
        let sum = SHA256Sum.hex(bytes)
        if let held = cache.entries[url], held.sha256 == sum, cache.exists(held.file) { return held }
        let temp = cache.path(CacheNames.stem(url) + ".import-index")
        staged.temps.append(temp)
        do {
            try AtomicFile.write(Data(bytes), to: temp)
            let entry = try cache.install(url, from: temp, validators: HTTPValidators(), size: Int64(bytes.count), sha256: sum,
                                          contentType: nil, fileExtension: IndexKind.smil.rawValue, now: Date().timeIntervalSince1970)
            staged.installed.append(entry.file)
            report.filesCopied += 1
            report.bytesCopied += Int64(bytes.count)
            return entry
        } catch {
            throw BundleProblem("\(report.bundle): cannot put it in the content cache: \(error.description)")
        }
    }

    /// Fills in the last good index.
    private func finish(_ report: BundleReport) -> BundleReport {
        var report = report
        if let current = cache.current {
            report.index = current
            report.map = cache.map(of: current)
            report.indexFile = cache.indexPath(of: current)
        }
        return report
    }
}
