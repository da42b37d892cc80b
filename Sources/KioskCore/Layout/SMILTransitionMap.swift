/// SMIL 3.0 transitions (`head/transition`: `type`, `subtype`) as kiosk's own transition passes. SMIL names
/// more than a hundred wipes; signage CMSs emit a handful, and those map onto the passes kiosk has.

extension SMILTransition {
    /// What a SMIL transition is drawn as: the kiosk transition, and whether it had to fall back to a
    /// crossfade (the player says so once, with the transition's FILE:LINE).
    public struct Mapping: Sendable, Hashable {
        /// The pass and its options, as `--transition` would name them.
        public var spec: TransitionSpec
        /// True when the type or subtype is not one kiosk draws, so a crossfade stands in.
        public var fellBack: Bool
    }

    /// The kiosk transition for this one:
    /// - `fade` with `crossfade` (the default subtype): `crossfade`; with `fadeToColor` or `fadeFromColor`: `fade`,
    ///   through the region's background;
    /// - `barWipe` `leftToRight` (the default) or `topToBottom`: `wipe` from the left or top edge (with
    ///   `reverse`: from the right or bottom);
    /// - `pushWipe` `fromLeft` (the default), `fromRight`, `fromTop`, `fromBottom`: `slide`, the old picture pushed
    ///   out towards the opposite edge (with `reverse`: the other way);
    /// - anything else: `crossfade`, with `fellBack` set.
    public var mapping: Mapping {
        func kiosk(_ name: String, _ options: [String] = []) -> Mapping {
            Mapping(spec: TransitionSpec(name: name, options: options), fellBack: false)
        }
        let fallback = Mapping(spec: .crossfade, fellBack: true)
        switch type {
        case "fade":
            switch subtype ?? "crossfade" {
            case "crossfade": return kiosk("crossfade")
            case "fadeToColor", "fadeFromColor": return kiosk("fade")
            default: return fallback
            }
        case "barWipe":
            switch subtype ?? "leftToRight" {
            case "leftToRight": return kiosk("wipe", [reversed ? "right" : "left"])
            case "topToBottom": return kiosk("wipe", [reversed ? "down" : "up"])
            default: return fallback
            }
        case "pushWipe":
            // kiosk's slide names where the old picture goes; SMIL's subtype names where the new one comes from
            let away: [String: (String, String)] = ["fromLeft": ("right", "left"), "fromRight": ("left", "right"),
                                                    "fromTop": ("down", "up"), "fromBottom": ("up", "down")]
            guard let (forward, backward) = away[subtype ?? "fromLeft"] else { return fallback }
            return kiosk("slide", [reversed ? backward : forward])
        default:
            return fallback
        }
    }
}
