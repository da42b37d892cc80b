import Foundation
import KioskCore
import KioskMedia
import KioskPlayer

/// `kiosk check-config FILE`: every problem in a config file, the schedule it names and the playlists and
/// folders they name, one `FILE:LINE: reason` line each (exit 2); with none, the effective schedule for the
/// next 7 days as a table (exit 0).
struct ConfigCheck {
    let log: Log
    /// The folder every target must lie in (its real path), when set: the web page's schedule, saved by someone
    /// who may reach only `--media-root`.
    var confinedTo: String?

    /// Problems found, each file's in line order.
    var problems: [String] {
        // Each sort key worked out once: splitting both problems at every comparison made 100,000 of them slow.
        found.enumerated().map { (key: Self.order($0.element, $0.offset), problem: $0.element) }
            .sorted { $0.key < $1.key }.map(\.problem)
    }
    /// The problems in the order found (`problems` sorts them).
    var found: [String] = []

    /// Sort key: a problem's file, then its line (unlocated ones after the file's lines), then when it was found.
    private static func order(_ problem: String, _ index: Int) -> (String, Int, Int) {
        let parts = problem.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let line = Int(parts[1]) else { return (String(parts.first ?? ""), Int.max, index) }
        return (String(parts[0]), line, index)
    }

    init(log: Log) { self.log = log }

    /// Checks `file`; returns the table to print when there were no problems.
    mutating func check(_ file: String, zone: TimeZone, from start: Date) -> String? {
        guard let data = FileAccess.contents(file), let text = String(data: data, encoding: .utf8) else {
            found.append("\(file): cannot read it")
            return nil
        }
        // Every line read, a bad one reported and left out, so that every bad line is found, not just the first.
        var unread: [UsageError] = []
        let document = ConfigFile.document(from: text, file: file, problems: &unread)
        found += unread.map(\.message)
        var good: [(argument: String, origin: String)] = []  // the global lines that parse, each on its own
        var first = document.global.startIndex
        while first < document.global.endIndex {
            let origin = document.global[first].origin
            let end = document.global[first...].firstIndex { $0.origin != origin } ?? document.global.endIndex
            let line = Array(document.global[first..<end])
            first = end
            if let flag = line.first?.argument, flag != "--config", flag.hasPrefix("--") {
                do {
                    _ = try ParsedOptions.parse(line.map(\.argument), specs: CommandSpecs.play, command: "play")
                } catch let e as UsageError {
                    found.append(e.message.hasPrefix(file + ":") ? e.message : "\(origin): \(e.message)")
                    continue
                } catch {
                    found.append("\(origin): \(error)")
                    continue
                }
            }
            good += line
        }
        let args = good.map(\.argument), origins: [String?] = good.map(\.origin)
        guard let o = try? ParsedOptions.parse(args, specs: CommandSpecs.play, command: "play") else { return nil }
        do {
            let config = try CommandSpecs.config(from: o)
            try RenderChoices.validate(config)
            try CommandSpecs.checkCEC(o)
            _ = try HealthAlertRules(o)
        } catch let e as UsageError {
            found.append(ConfigFile.locate(e, args: args, origins: origins).message)
        } catch {
            found.append("\(file): \(error)")
        }
        let base = (file as NSString).deletingLastPathComponent
        // Where each argument was last given, found once: a lastIndex(of:) per path is quadratic in a long config.
        var lastPlace: [String: Int] = [:]
        for (i, argument) in args.enumerated() { lastPlace[argument] = i }
        for (i, path) in o.positional.enumerated() {
            let origin = origins[lastPlace[path] ?? i] ?? file
            checkTarget(resolve(path, base: base), at: origin)
        }
        let screens = checkScreens(args: args, origins: origins, sections: document.sections, zone: zone, from: start)
        guard let scheduleFile = o.string("schedule").map({ resolve($0, base: base) }) else {
            guard found.isEmpty else { return nil }
            if let screens { return "no schedule above the screens\n" + screens }
            return "no schedule: \(o.positional.isEmpty ? "the demo" : o.positional.joined(separator: " ")) all day\n"
        }
        guard let data = FileAccess.contents(scheduleFile), let text = String(data: data, encoding: .utf8) else {
            found.append("\(origins[args.lastIndex(of: "--schedule") ?? 0] ?? file): schedule '\(ErrorQuote.cut(scheduleFile))': cannot read it")
            return nil
        }
        guard let entries = checkSchedule(text, file: scheduleFile, zone: zone, from: start) else { return nil }
        return Schedule.table(entries, timeZone: zone) + (screens ?? "")
    }

    /// Checks a schedule's `text` (as the file `file`: its targets are relative to its folder): nil with the
    /// problems found, else what plays over the next 7 days from `start`.
    mutating func checkSchedule(_ text: String, file scheduleFile: String, zone: TimeZone, from start: Date) -> [ScheduleEntry]? {
        let schedule: Schedule
        do {
            schedule = try Schedule.parse(text: text, file: scheduleFile, base: (scheduleFile as NSString).deletingLastPathComponent)
        } catch {
            found += error.lines
            return nil
        }
        for rule in schedule.rules {
            if case .path(let p) = rule.target { checkTarget(p, at: "\(scheduleFile):\(rule.line)") }
        }
        if let f = schedule.fallback { checkTarget(f, at: "\(scheduleFile):\(schedule.fallbackLine ?? 0)") }
        guard found.isEmpty else { return nil }
        return schedule.upcoming(from: start, days: 7, timeZone: zone)
    }

    /// A folder, a playlist (its entries must exist) or a media file must be there.
    mutating func checkTarget(_ path: String, at origin: String) {
        let playlist: String
        switch PlaylistLoader.kind(of: path) {
        case .url:
            found.append("\(origin): '\(ErrorQuote.cut(path))' is a URL; kiosk plays local files only")
            return
        case .missing:
            found.append("\(origin): '\(ErrorQuote.cut(path))': no such file or folder")
            return
        case .folder(let local), .file(let local):
            confine(local, at: origin)
            return
        case .playlist(let local):
            guard confine(local, at: origin) else { return }
            playlist = local
        }
        let warnings = LineCollector()
        let quiet = Log(level: .warn, sink: { warnings.add($0) })
        for entry in PlaylistLoader(log: quiet).parsePlaylist(playlist) {
            if case .missing = PlaylistLoader.kind(of: entry.path) {
                found.append("\(path): entry '\(ErrorQuote.cut(entry.path))': no such file or folder")
            }
        }
        found += warnings.lines.map { $0.replacingOccurrences(of: "kiosk: warn: ", with: "") }
        if confinedTo != nil { confineEntries(of: playlist, named: path, seen: [], depth: 0) }
    }

    /// Every entry of `playlist`, and of the playlists it names (at most 8 deep, each once), in `confinedTo`.
    private mutating func confineEntries(of playlist: String, named: String, seen: Set<String>, depth: Int) {
        guard depth < 8, !seen.contains(playlist) else { return }
        for entry in PlaylistLoader(log: Log(level: .error, sink: { _ in })).parsePlaylist(playlist) {
            switch PlaylistLoader.kind(of: entry.path) {
            case .folder(let local), .file(let local):
                confine(local, at: "\(named): entry")
            case .playlist(let local):
                if confine(local, at: "\(named): entry") {
                    confineEntries(of: local, named: local, seen: seen.union([playlist]), depth: depth + 1)
                }
            case .url, .missing:
                continue
            }
        }
    }

    /// Whether `path` (which exists) lies in `confinedTo` once links are resolved; a problem when not (a path that
    /// cannot be resolved counts as outside).
    @discardableResult
    private mutating func confine(_ path: String, at origin: String) -> Bool {
        guard let root = confinedTo else { return true }
        if let real = realpath(path, nil).map({ r in defer { free(r) }; return String(cString: r) }),
           real == root || real.hasPrefix(root.hasSuffix("/") ? root : root + "/") {
            return true
        }
        found.append("\(origin): '\(ErrorQuote.cut(path))' is outside the media folder \(root) (--media-root)")
        return false
    }

    /// Paths in a config are taken as `kiosk play` takes them: relative to the current folder.
    private func resolve(_ path: String, base: String) -> String { path }
}

/// Log lines kept for a check (thread-safe).
private final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String] = []
    func add(_ line: String) { lock.lock(); kept.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return kept }
}
