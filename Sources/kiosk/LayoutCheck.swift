import Foundation
import KioskCore
import KioskMedia

/// SMIL layouts on the command line: loading one for `play`, `record` and `snapshot` (a document that cannot
/// play is a usage error naming FILE:LINE, exit 2), and `check-config FILE.smil`, which lists each region's
/// first minute.
enum LayoutCheck {
    /// The layout at `path`, read with the player's decode limits.
    static func load(_ path: String, config: PlayerConfig) throws(UsageError) -> SMILFile {
        do {
            return try SMILFile.load(path, limits: config.limits)
        } catch {
            throw UsageError("\(error)")
        }
    }

    /// The layout `play` or `record` plays when its paths are one SMIL file; nil when none of them is one. A
    /// layout plays alone (the screen is its regions): with other paths, or with `--schedule`, it is a usage error.
    static func layout(in paths: [String], command: String, scheduled: Bool, config: PlayerConfig) throws(UsageError) -> SMILFile? {
        guard let smil = paths.first(where: SMILFile.isSMIL) else { return nil }
        if scheduled { throw UsageError("\(command): \(smil) is a layout: it does not go with --schedule") }
        guard paths.count == 1 else {
            throw UsageError("\(command): \(smil) is a layout and plays alone: give it as the only path (got \(paths.count))")
        }
        return try load(smil, config: config)
    }

    /// `kiosk check-config FILE.smil`: its problems (media that will not play count: the layout would show
    /// empty regions; so does a body in which nothing ever shows), its warnings, and with no problems each
    /// region's first minute. The exit status.
    static func check(_ path: String, stillDuration: Double, anchor: SMILTimeline.WallAnchor) -> Int32 {
        let file: SMILFile
        do {
            file = try SMILFile.load(path)
        } catch {
            Log.writeStandardError("kiosk: \(Log.escaped("\(error)"))\n")
            Log.writeStandardError("kiosk: \(path): 1 problem\n")
            return 2
        }
        for w in file.document.warnings { Log.writeStandardError("kiosk: warning: \(Log.escaped(w))\n") }
        for p in file.problems { Log.writeStandardError("kiosk: \(Log.escaped(p))\n") }
        guard file.problems.isEmpty else {
            Log.writeStandardError("kiosk: \(path): \(file.problems.count) problem\(file.problems.count == 1 ? "" : "s")\n")
            return 2
        }
        let timeline = file.timeline(stillDuration: stillDuration, anchor: anchor)
        for line in timeline.wallclockProblems { Log.writeStandardError("kiosk: warning: \(Log.escaped(line))\n") }
        if case .empty(let triggers) = timeline.extent, let why = timeline.extent.nothingShows {
            // nothing would ever show: a problem; nothing until a tap or a key: a layout may mean that, so a warning
            Log.writeStandardError("kiosk: \(triggers.isEmpty ? "" : "warning: ")\(Log.escaped("\(path): lasts 0 s: \(why)"))\n")
            if triggers.isEmpty {
                Log.writeStandardError("kiosk: \(path): 1 problem\n")
                return 2
            }
        }
        print("\(path): ok")
        print(firstMinute(timeline), terminator: "")
        print(wallclockBegins(file.document, anchor: anchor), terminator: "")
        return 0
    }

    /// Each element with `wallclock()` begins (or ends) and its next ones (at most 6) in the day after `anchor`,
    /// in the anchor's zone; nothing for a layout without them.
    static func wallclockBegins(_ document: SMILDocument, anchor: SMILTimeline.WallAnchor) -> String {
        var lines: [String] = []
        func walk(_ node: SMILNode) {
            let (timing, name, source): (SMILTiming, String, SourceLine) = switch node {
            case .media(let m): (m.timing, m.src, m.source)
            case .container(let c): (c.timing, "<\(c.kind.rawValue)>", c.source)
            }
            for (what, values) in [("", timing.wallclockBegins), (" ends", timing.wallclockEnds)] where !values.isEmpty {
                let day = anchor.start.addingTimeInterval(86_400)
                let times = values.flatMap { $0.instants(from: anchor.start, until: day, in: anchor.zone) }
                    .filter { $0 >= anchor.start }.sorted().prefix(6)
                let text = times.map { local($0, in: anchor.zone) }
                lines.append("  \(name) (\(source))\(what): " + (text.isEmpty ? "none in the next 24 h" : text.joined(separator: ", ")))
            }
            if case .container(let c) = node { c.children.forEach(walk) }
        }
        document.body.children.forEach(walk)
        guard !lines.isEmpty else { return "" }
        return "wall-clock begins in the next 24 h (\(anchor.zone.identifier)):\n" + lines.joined(separator: "\n") + "\n"
    }

    /// `#RRGGBB` of a layout colour.
    private static func hex(_ c: LayoutColor) -> String {
        String(format: "#%02X%02X%02X", Int(saturating: c.red * 255), Int(saturating: c.green * 255), Int(saturating: c.blue * 255))
    }

    /// `YYYY-MM-DD HH:MM:SS` on the wall clock of `zone`.
    private static func local(_ date: Date, in zone: TimeZone) -> String {
        let (day, second) = LocalClock.wallClock(of: date, in: zone)
        let s = Int(saturating: second, rounding: .down)
        return "\(day) " + String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
    }

    /// Each region's showings in the first `span` seconds, one line each: region, start and end (cut at the
    /// span), the medium, and `(frozen)` for a held last frame. Found by stepping through the timeline's changes, at most 10,000.
    static func firstMinute(_ timeline: SMILTimeline, span: Double = 60) -> String {
        let doc = timeline.document
        let length = timeline.duration.isFinite ? DurationText.format(timeline.duration) : "for ever (it loops)"
        var text = "\(doc.regions.count) region\(doc.regions.count == 1 ? "" : "s"), \(doc.mediaInDocumentOrder.count) media, "
            + "\(length); the first minute:\n"
        struct Run { var start: Double; var end: Double; var label: String; var key: String }
        var runs: [String: [Run]] = [:]
        var t = 0.0, steps = 0
        while t < span, steps < 10_000 {
            let next = timeline.nextChange(after: t) ?? .infinity
            for (region, a) in timeline.byRegion(at: t) {
                let key = "\(a.activation)\(a.frozen)"
                let name = a.media.kind == .brush ? "brush " + Self.hex(a.media.color ?? .black)
                    : a.media.kind == .text && a.media.src.isEmpty ? "smilText \"\(ErrorQuote.cut(a.media.text ?? ""))\"" : a.media.src
                let label = name + (a.frozen ? " (frozen)" : "")
                var list = runs[region, default: []]
                if let last = list.last, last.key == key, last.end == t {
                    list[list.count - 1].end = next
                } else {
                    list.append(Run(start: t, end: next, label: label, key: key))
                }
                runs[region] = list
            }
            t = next
            steps += 1
        }
        let names = doc.regions.map(\.name) + (runs.keys.contains("") ? [""] : [])
        let width = max(6, names.map(\.count).max() ?? 0)
        for name in names {
            let shown = name.isEmpty ? "(root)" : name
            guard let list = runs[name], !list.isEmpty else {
                text += shown.padding(toLength: width, withPad: " ", startingAt: 0) + "  nothing in the first minute\n"
                continue
            }
            for r in list {
                text += shown.padding(toLength: width, withPad: " ", startingAt: 0)
                    + "  \(clock(r.start))-\(r.end.isFinite ? clock(r.end) : "end")  \(r.label)\n"
            }
        }
        return text
    }

    /// `m:ss.s`.
    private static func clock(_ t: Double) -> String {
        let tenths = Int(saturating: t * 10)
        return String(format: "%d:%02d.%d", tenths / 600, tenths / 10 % 60, tenths % 10)
    }
}
