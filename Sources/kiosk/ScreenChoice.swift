import KioskCore
import KioskPlayer

/// `kiosk play --screen NAME:CONNECTORS:SOURCE` (issue 40): the screens are resolved (a bad spec or section is one
/// line, exit 2). The first screen plays as `--drm-connector CONNECTOR` with its source and its options would, and
/// the remotes and the state are its; each further screen plays beside it in the same loop, with its own source
/// (a URL too: its own content link, `ContentLinks`) and options, on headless canvases or on its own connectors of
/// the same card: one, a span (one canvas across them) or a mirror (several cards are not built yet, and say so).
enum ScreenChoice {

    /// What `kiosk play` runs: the first screen's arguments, its name, and the screens after it.
    struct Play {
        /// The first screen's arguments (`args` as they are without `--screen`).
        var arguments: [String]
        /// The first screen's name (`main` without `--screen`).
        var firstName = "main"
        /// The screens after the first.
        var more: [ScreenPlan] = []
        /// Where each screen after the first shows on a display: its connectors, and its own `drm-mode` and `rotate`.
        var moreOutputs: [OutputRequest] = []
        /// The first screen's connectors (nil without `--screen`).
        var firstPlacement: ScreenConnectors?
    }

    /// What `kiosk play` runs with: `args` as they are without `--screen` (or with `--help`); else the first
    /// screen's own arguments and `--drm-connector`, and the screens after it.
    static func play(_ args: [String], origins: [String?], sections: [ScreenSection]) throws -> Play {
        if args.contains("--help") || args.contains("-h") { return Play(arguments: args) }
        let named = args.contains { ["--screen", "--bezel"].contains($0.prefix { $0 != "=" }) }
        guard named || !sections.isEmpty else { return Play(arguments: args) }  // today's play, untouched
        let plans = try ScreenPlans.resolve(arguments: args, origins: origins, sections: sections)
        guard let first = plans.first else { return Play(arguments: args) }
        for plan in plans {
            do throws(UsageError) {
                try RenderChoices.validate(plan.config)  // here, where a section's line can still be named
                try CommandSpecs.checkCEC(plan.options)  // each screen's own adapter and name (its TV's)
            } catch {
                throw ConfigFile.locate(error, args: plan.arguments, origins: plan.origins)
            }
        }
        for plan in plans.dropFirst() {
            if plan.sources.isEmpty, plan.options.string("schedule") == nil {
                throw UsageError("\(plan.label): nothing to play: give it a SOURCE, path = lines or a schedule")
            }
        }
        let outputs = try plans.dropFirst().map { plan in
            do {
                var request = try OutputRequest(output: nil, device: plan.options.string("drm-device"), connector: nil,
                                                mode: plan.options.string("drm-mode"), rotate: plan.options.string("rotate"))
                request.place(plan.connectors)
                return request
            } catch {
                throw UsageError("\(plan.label): \(error)")
            }
        }
        return Play(arguments: ["--drm-connector", first.connectors.names[0]] + first.arguments, firstName: first.name,
                    more: Array(plans.dropFirst()), moreOutputs: outputs, firstPlacement: first.connectors)
    }
}
