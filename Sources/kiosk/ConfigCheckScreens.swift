import Foundation
import KioskCore
import KioskMedia
import KioskPlayer

/// `kiosk check-config FILE` for several screens (issue 40): the `screen = NAME:CONNECTORS:SOURCE` lines and
/// `[screen NAME]` sections resolved as `kiosk play` resolves them, each problem as `FILE:LINE: reason`, and with
/// none each screen as it will play: its connectors and their kind, what it plays and the options it has for itself.
extension ConfigCheck {
    /// Checks the screens of a config whose global lines are `args` (from `origins`); nil when it names none, else
    /// the text that lists them (with problems, the text is not printed).
    mutating func checkScreens(args: [String], origins: [String?], sections: [ScreenSection], zone: TimeZone,
                               from start: Date) -> String? {
        let named = args.contains { $0 == "--screen" || $0 == "--bezel" }
        guard named || !sections.isEmpty else { return nil }
        let (plans, problems) = ScreenPlans.check(arguments: args, origins: origins, sections: sections)
        for p in problems.map(\.message) where !found.contains(p) { found.append(p) }  // the global lines' own are in already
        var text = "screens: \(plans.count)\n"
        for plan in plans {
            do throws(UsageError) {
                try RenderChoices.validate(plan.config)
            } catch {
                found.append(ConfigFile.locate(error, args: plan.arguments, origins: plan.origins).message)
            }
            do throws(UsageError) {
                try CommandSpecs.checkCEC(plan.options)
            } catch {
                // a global line's bad value is every screen's: said once, at its line
                let line = ConfigFile.locate(error, args: plan.arguments, origins: plan.origins).message
                if !found.contains(line) { found.append(line) }
            }
            let sourceOrigins = plan.origins.suffix(plan.sources.count)
            for (source, origin) in zip(plan.sources, sourceOrigins) where !ContentMap.isRemote(source) {
                checkTarget(source, at: origin ?? plan.label)
            }
            if let own = plan.changes.first(where: { $0.name == "schedule" }), let file = own.values?.last {
                checkScreenSchedule(file, at: own.origin ?? plan.label, zone: zone, from: start)
            }
            text += "screen \(plan.name): \(plan.connectors)\n"
            text += plan.sources.isEmpty ? "  source: its schedule\n"
                : "  source\(plan.sources.count == 1 ? "" : "s"): \(plan.sources.joined(separator: " "))\n"
            text += plan.changes.isEmpty ? "  (the global options, none of its own)\n" : plan.changes.map { "  \($0.text)\n" }.joined()
        }
        return text
    }

    /// A schedule a screen's section names: readable and without problems (its own table is not printed).
    private mutating func checkScreenSchedule(_ file: String, at origin: String, zone: TimeZone, from start: Date) {
        guard let data = FileAccess.contents(file), let text = String(data: data, encoding: .utf8) else {
            found.append("\(origin): schedule '\(ErrorQuote.cut(file))': cannot read it")
            return
        }
        _ = checkSchedule(text, file: file, zone: zone, from: start)
    }
}
