/// Turns a change between two items into picture layers: the outgoing layer, then the incoming one, each drawn
/// with the change's transition piece in its role at the change's progress. No extra pass: the transition is part
/// of each layer's shader.
import KioskCore
import KioskRender

/// The picture layers of a scene in or out of a change.
enum TransitionLayers {
    /// The layers to draw: `outgoing` (if any, and only while a change runs) then `incoming`, each given its part
    /// in `transition` at `progress`. Outside a change (no outgoing slot) the incoming layer is drawn whole.
    static func layers(outgoing: RenderLayer?, incoming: RenderLayer?, inChange: Bool, progress: Double,
                       transition: any ShaderTransition) -> [RenderLayer] {
        guard inChange else {
            return [outgoing, incoming].compactMap { $0 }
        }
        var layers: [RenderLayer] = []
        if var out = outgoing {
            out.transition = LayerTransition(transition, role: .outgoing, progress: progress)
            layers.append(out)
        }
        if var new = incoming {
            new.transition = LayerTransition(transition, role: .incoming, progress: progress)
            layers.append(new)
        }
        return layers
    }

    /// The transition of the change to the slot of `sequence`, from the config (for `random`: seeded by `--seed`,
    /// keyed by `sequence`). An invalid spec (refused by `RenderChoices.validate` before playing) draws a cut.
    static func transition(_ config: PlayerConfig, change sequence: Int) -> any ShaderTransition {
        guard let chooser = try? TransitionChooser(config.slideshow.transition, seed: config.slideshow.seed) else {
            return NoTransition()
        }
        return chooser.transition(forChange: sequence)
    }
}

/// Checks the command line's renderer choices before anything plays.
public enum RenderChoices {
    /// Validates `--transition` and `--effect` against the renderer's registries; the error is one line naming
    /// the flag and the reason (exit status 2).
    public static func validate(_ config: PlayerConfig) throws(UsageError) {
        _ = try TransitionChooser(config.slideshow.transition, seed: config.slideshow.seed)
        if let effect = config.effect { _ = try PassRegistry.effect(effect) }
    }

    /// `specs` with the `--transition` and `--effect` help listing the registered transitions and effects (what
    /// `--help` prints), so a new one shows up by its registry line alone.
    public static func documented(_ specs: [OptionSpec]) -> [OptionSpec] {
        specs.map { spec in
            var spec = spec
            switch spec.name {
            case "transition":
                spec.help = "how items change: " + PassRegistry.transitionUsages.joined(separator: ", ")
                    + " (default crossfade; slide pushes the old item out towards DIR, wipe reveals the new one from"
                    + " the DIR edge, fade goes through the background, random is seeded by --seed; see docs/playing.md)"
            case "effect":
                spec.metavar = PassRegistry.effectUsages.joined(separator: "|")
            default:
                break
            }
            return spec
        }
    }
}
