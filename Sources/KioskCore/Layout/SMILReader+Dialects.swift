/// What the signage players' SMIL dialects add (A-SMIL/IAdea, signageOS, Garlic), read so that their files play:
/// - `<prefetch src=…>` in the body: for the content fetcher, which has every medium before the layout plays; it
///   takes no time on screen;
/// - `__prefetchEnd.endEvent` (the event these players send once everything is prefetched): kiosk plays an index
///   only once all of it is in its cache, so prefetching is over when the layout begins: as a `begin` or `end`
///   value it is an offset of 0 s (plus its own offset), whether or not an element has that id;
/// - signageOS's `<triggers>` in `<head>`: `<trigger id="trigger1" condition="or">` with `<condition origin=…>`s,
///   named by `begin="trigger1"` (or in an `end` list); as signageOS plays it, what a trigger begins is gone when
///   it ends (`fill="remove"` unless `fill` is written). A keyboard condition is `accesskey(c)` for one key, its
///   keys in order for several (`data="456"`); a mouse one (`action="click"`) is a tap on any medium showing; a
///   sensor's (`origin="rfid1"`, a `<sensor>` of `<sensors>`) or a widget's is not heard, with one warning. Every
///   trigger also fires by `notify(ID)` (IPC, `kiosk ctl notify ID`, MQTT), which is how a sensor bridge or a
///   remote command reaches it.
extension SMILReader {
    /// Reads `<triggers>` of `<head>` into `triggers`; `sensors` are the ids of `<sensors>`'s `<sensor>`s.
    mutating func readTriggers(_ e: MarkupElement, sensors: Set<String>) {
        for t in e.children where t.name == "trigger" {
            guard let name = id(t)?.trimmingCharacters(in: .whitespaces), !name.isEmpty else {
                warn(t, "<trigger> without an id is not read")
                continue
            }
            var fires: [SMILEventBegin.Trigger] = []
            if let combine = t.attribute("condition"), combine.trimmingCharacters(in: .whitespaces) != "or" {
                warn(t, "trigger \(ErrorQuote.cut(name)): condition=\"\(ErrorQuote.cut(combine))\" is read as or (any condition fires it)",
                     once: "trigger-combine")
            }
            for c in t.children where c.name == "condition" {
                fires += condition(c, of: name, sensors: sensors)
            }
            fires.append(.notify(Self.notifyName(name)))
            if triggers[name] != nil { warn(t, "trigger \(ErrorQuote.cut(name)) is defined twice: the conditions of both fire it") }
            let source = at(t)
            triggers[name, default: SMILNamedTrigger(id: name, fires: [], source: source)].fires += fires
        }
    }

    /// What one `<condition>` fires on.
    private mutating func condition(_ c: MarkupElement, of trigger: String, sensors: Set<String>) -> [SMILEventBegin.Trigger] {
        let origin = (c.attribute("origin") ?? "").trimmingCharacters(in: .whitespaces)
        let data = (c.attribute("data") ?? "").trimmingCharacters(in: .whitespaces)
        let notify = "notify(\(Self.notifyName(trigger)))"
        switch origin.lowercased() {
        case "keyboard":
            let keys = data.lowercased()
            guard !keys.isEmpty, keys.count <= 64, keys.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                warn(c, "trigger \(ErrorQuote.cut(trigger)): keyboard data=\"\(ErrorQuote.cut(data))\" is not letters and digits; \(notify) fires it")
                return []
            }
            return keys.count == 1 ? keys.map { .accessKey($0) } : [.keySequence(keys)]
        case "mouse", "touch":
            return [.activate(tapID ?? Self.screenID)]
        default:
            let what = sensors.contains(origin) ? "a <sensor>" : origin.lowercased() == "widget" ? "a widget" : "an origin kiosk does not know"
            warn(c, "trigger \(ErrorQuote.cut(trigger)): origin=\"\(ErrorQuote.cut(origin))\" (\(what)) is not heard by kiosk; \(notify) fires it",
                 once: "origin " + origin)
            return []
        }
    }

    /// The notify name a trigger also fires by: its id, with characters a notify name cannot hold made `_`.
    static func notifyName(_ id: String) -> String {
        String(id.prefix(64).map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" })
    }

    /// The body's id when it has none and a mouse trigger needs one (a tap on any medium activates the body).
    static let screenID = "__screen"

    /// A `begin` or `end` value that names what the dialects name: `__prefetchEnd.endEvent` (an offset), a
    /// `<trigger>` of `<head>` (its events). Nil when `part` is neither; `unknown` when it names a trigger
    /// (`trigger…`, signageOS's rule for their ids) that `<head>` does not define: a warning, and no time.
    mutating func dialectValue(_ part: String, of e: MarkupElement, in attribute: String) -> DialectValue? {
        let t = part.trimmingCharacters(in: .whitespaces)
        if case .success(let event)? = SMILEventBegin.parse(t), event.trigger == .end(Self.prefetchEnd) {
            return .offset(event.offset)
        }
        guard let first = t.first, first.isLetter, t.allSatisfy({ $0.isLetter || $0.isNumber || "-_".contains($0) }) else { return nil }
        if let named = triggers[t] { return .events(named.fires.map { SMILEventBegin($0) }) }
        guard t.hasPrefix("trigger") else { return nil }
        warn(e, "\(attribute)=\"\(ErrorQuote.cut(t))\" names no <trigger> in <head>: nothing \(attribute == "begin" ? "begins" : "ends") it by that name")
        return .unknown
    }

    /// The id of A-SMIL's end-of-prefetching element.
    static let prefetchEnd = "__prefetchEnd"

    /// What `dialectValue` found.
    enum DialectValue {
        /// An offset from the container's begin (prefetching is over when the layout begins).
        case offset(Double)
        /// The events of a named trigger.
        case events([SMILEventBegin])
        /// A trigger name with no `<trigger>`: nothing.
        case unknown
    }

    /// Whether a media element is a web widget (`type="application/widget"`, a `.wgt` file), which kiosk does not
    /// play.
    static func isWidget(_ e: MarkupElement) -> Bool {
        if e.attribute("type")?.lowercased().hasPrefix("application/widget") == true { return true }
        let src = (e.attribute("src") ?? "").lowercased()
        let path = src.split(separator: "?", maxSplits: 1).first.map(String.init) ?? src
        return path.hasSuffix(".wgt")
    }
}

/// A signageOS `<trigger>` of `<head>`: its id and the run-time triggers that fire it (any of them).
public struct SMILNamedTrigger: Sendable, Hashable {
    /// `id` (signageOS starts them with `trigger`).
    public var id: String
    /// Keys, taps and notifies that fire it.
    public var fires: [SMILEventBegin.Trigger]
    /// Where it was written.
    public var source: SourceLine
}
