/// How long a layout's body plays, worked out once in the timeline so that `play`, `record` and `check-config`
/// judge a layout alike: a body that ends (a loop's length, a recording's), one that never ends (indefinite, a
/// repeat without end), or one that lasts no time at all, in which nothing ever shows by itself (an empty body,
/// only `dur="0s"` media, begins that wait on each other's ends, or only begins that wait on a tap, key or notify).
public enum SMILExtent: Sendable, Equatable {
    /// The body ends after these seconds (more than 0).
    case ends(Double)
    /// The body never ends (indefinite, a repeat without end).
    case endless
    /// The body lasts no time: nothing in it shows by itself. `waitsFor` lists the outside triggers (taps, keys,
    /// notifies) that could still begin something; empty when nothing can.
    case empty(waitsFor: [SMILEventBegin.Trigger])

    /// Why a body that does not end cannot be recorded (nil for one that ends): one phrase, for a line that names
    /// the file.
    public var noEnd: String? {
        switch self {
        case .ends: return nil
        case .endless: return "has no end (an indefinite or repeating body)"
        case .empty: return "lasts 0 s: " + (nothingShows ?? "")
        }
    }

    /// Why nothing ever shows (nil when something does): one phrase for a line that names the file.
    public var nothingShows: String? {
        guard case .empty(let triggers) = self else { return nil }
        guard triggers.isEmpty else {
            return "nothing in it shows until a trigger (" + triggers.map(Self.describe).joined(separator: ", ") + ")"
        }
        return "nothing in it ever shows (an empty body, only dur=\"0s\" media, or begins that wait on each other)"
    }

    /// A trigger as the layout writes it: `accesskey(o)`, `notify(stop)`, `logo.activateEvent`.
    static func describe(_ t: SMILEventBegin.Trigger) -> String {
        switch t {
        case .begin(let id): return "\(id).begin"
        case .end(let id): return "\(id).end"
        case .activate(let id): return "\(id).activateEvent"
        case .accessKey(let c): return "accesskey(\(c))"
        case .notify(let name): return "notify(\(name))"
        case .keySequence(let keys): return "the keys \(keys)"
        }
    }
}

extension SMILTimeline {
    /// The body's extent: ends, endless, or empty (see `SMILExtent`).
    public var extent: SMILExtent {
        let d = duration
        if d.isNaN || d <= 0 {
            var seen = Set<SMILEventBegin.Trigger>()
            return .empty(waitsFor: document.outsideTriggers.filter { seen.insert($0).inserted })
        }
        return d.isFinite ? .ends(d) : .endless
    }
}
