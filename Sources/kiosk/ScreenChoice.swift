import KioskCore
import KioskPlayer

/// `kiosk play --screen NAME:CONNECTORS:SOURCE` (issue 40) until the loop that plays several screens lands: the
/// screens are resolved (a bad spec or section is one line, exit 2), and one screen on one connector plays as
/// `--drm-connector CONNECTOR` with its source and its options would.
enum ScreenChoice {
    /// The line for what is not built yet.
    static let notBuilt = "--screen: playing several screens (or a span or mirror) is not built yet (issue 40); "
        + "check-config FILE shows how they resolve"

    /// The arguments `kiosk play` runs with: `args` as they are without `--screen` (or with `--help`); one screen
    /// on one connector as its own arguments and `--drm-connector`; anything more a usage error.
    static func playArguments(_ args: [String], origins: [String?], sections: [ScreenSection]) throws -> [String] {
        if args.contains("--help") || args.contains("-h") { return args }
        let named = args.contains { ["--screen", "--bezel"].contains($0.prefix { $0 != "=" }) }
        guard named || !sections.isEmpty else { return args }  // today's play, untouched
        let plans = try ScreenPlans.resolve(arguments: args, origins: origins, sections: sections)
        guard let plan = plans.first else { return args }
        guard plans.count == 1, case .single(let connector) = plan.connectors else { throw UsageError(notBuilt) }
        do throws(UsageError) {
            try RenderChoices.validate(plan.config)  // here, where a section's line can still be named
        } catch {
            throw ConfigFile.locate(error, args: plan.arguments, origins: plan.origins)
        }
        return ["--drm-connector", connector] + plan.arguments
    }
}
