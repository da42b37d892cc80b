import KioskCore
import KioskPlayer

/// `kiosk play --screen NAME:CONNECTORS:SOURCE` (issue 40): the screens are resolved (a bad spec or section is one
/// line, exit 2). The first screen plays as `--drm-connector CONNECTOR` with its source and its options would, and
/// the remotes, the state and the content fetcher are its; each further screen plays beside it in the same loop,
/// with its own source and options, on headless canvases or on its own connector of the same card (spans, mirrors
/// and several cards are not built yet, and say so).
enum ScreenChoice {
    /// The line for what is not built yet.
    static let notBuilt = "--screen: a span (A+B) or mirror (A,B) is not built yet (issue 40); "
        + "check-config FILE shows how it resolves"

    /// What `kiosk play` runs: the first screen's arguments, its name, and the screens after it.
    struct Play {
        /// The first screen's arguments (`args` as they are without `--screen`).
        var arguments: [String]
        /// The first screen's name (`main` without `--screen`).
        var firstName = "main"
        /// The screens after the first.
        var more: [ScreenPlan] = []
        /// Where each screen after the first shows on a display: its connector, and its own `drm-mode` and `rotate`.
        var moreOutputs: [OutputRequest] = []
    }

    /// What `kiosk play` runs with: `args` as they are without `--screen` (or with `--help`); else the first
    /// screen's own arguments and `--drm-connector`, and the screens after it.
    static func play(_ args: [String], origins: [String?], sections: [ScreenSection]) throws -> Play {
        if args.contains("--help") || args.contains("-h") { return Play(arguments: args) }
        let named = args.contains { ["--screen", "--bezel"].contains($0.prefix { $0 != "=" }) }
        guard named || !sections.isEmpty else { return Play(arguments: args) }  // today's play, untouched
        let plans = try ScreenPlans.resolve(arguments: args, origins: origins, sections: sections)
        guard let first = plans.first else { return Play(arguments: args) }
        var connectors: [String] = []
        for plan in plans {
            guard case .single(let connector) = plan.connectors else { throw UsageError(notBuilt) }
            connectors.append(connector)
            do throws(UsageError) {
                try RenderChoices.validate(plan.config)  // here, where a section's line can still be named
            } catch {
                throw ConfigFile.locate(error, args: plan.arguments, origins: plan.origins)
            }
        }
        for plan in plans.dropFirst() {
            if plan.sources.contains(where: ContentMap.isRemote) {
                throw UsageError("\(plan.label): a URL plays on the first screen only, for now (issue 40); give this screen files")
            }
            if plan.sources.isEmpty, plan.options.string("schedule") == nil {
                throw UsageError("\(plan.label): nothing to play: give it a SOURCE, path = lines or a schedule")
            }
        }
        let outputs = try zip(plans, connectors).dropFirst().map { plan, connector in
            do {
                return try OutputRequest(output: nil, device: plan.options.string("drm-device"), connector: connector,
                                         mode: plan.options.string("drm-mode"), rotate: plan.options.string("rotate"))
            } catch {
                throw UsageError("\(plan.label): \(error)")
            }
        }
        return Play(arguments: ["--drm-connector", connectors[0]] + first.arguments, firstName: first.name,
                    more: Array(plans.dropFirst()), moreOutputs: outputs)
    }
}
