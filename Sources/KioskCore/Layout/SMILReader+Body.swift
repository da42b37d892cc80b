import Foundation

/// The timed body: containers, media and their timing attributes.
extension SMILReader {
    /// The timed children of a container.
    mutating func nodes(_ e: MarkupElement) throws(SMILError) -> [SMILNode] {
        var out: [SMILNode] = []
        let timed: Set<String> = ["seq", "par", "excl", "img", "video", "audio", "ref", "animation", "text", "smilText", "brush"]
        for c in e.children where Self.namespaces.contains(c.namespace) {
            if e.name == "seq" || e.name == "body", let begin = c.attribute("begin"), begin.contains(";") {
                warn(c, "begin=\"\(ErrorQuote.cut(begin))\": only its first time is used in a <seq>")
            }
            if e.name == "excl" || e.name == "priorityClass", timed.contains(c.name), c.attribute("begin") == nil {
                warn(c, "<\(c.name)> in an <excl> has no begin: it waits for an event (SMIL's default there), so it does not play by itself",
                     once: "excl-no-begin")
            }
            switch c.name {
            case "seq", "par", "excl":
                checkAttributes(c)
                let kind = SMILContainer.Kind(rawValue: c.name) ?? .seq
                var container = SMILContainer(kind: kind, id: id(c), timing: try timing(c), endSync: try endSync(c), source: at(c))
                if kind == .excl, c.children.contains(where: { $0.name == "priorityClass" }) {
                    try classes(of: c, into: &container)
                } else {
                    container.children = try nodes(c)
                }
                out.append(.container(container))
            case "img", "video", "audio", "ref", "animation", "text":
                if let m = try media(c) { out.append(.media(m)) }
            case "smilText":
                out.append(.media(try smilText(c)))
            case "brush":
                out.append(.media(try brush(c)))
            case "param", "metadata", "meta", "prefetch":
                break  // a prefetch is the content fetcher's: it takes no time on screen
            case "priorityClass":
                warn(c, "<priorityClass> outside an <excl> is not played")
            default:
                warn(c, "<\(c.name)> is not played", once: "<\(c.name)>")
            }
        }
        return out
    }

    /// An `excl` whose children are `priorityClass` elements: each class, highest first, and its children as the
    /// excl's, in document order. A timed element beside the classes is an error (SMIL allows one or the other).
    private mutating func classes(of e: MarkupElement, into container: inout SMILContainer) throws(SMILError) {
        for c in e.children where Self.namespaces.contains(c.namespace) {
            guard c.name == "priorityClass" else {
                if ["seq", "par", "excl", "img", "video", "audio", "ref", "animation", "brush", "text", "smilText"].contains(c.name) {
                    throw fail(c, "<\(c.name)> beside <priorityClass> elements: an <excl> holds one or the other")
                }
                continue
            }
            checkAttributes(c)
            func value<T: RawRepresentable & CaseIterable>(_ name: String, _ fallback: T) throws(SMILError) -> T where T.RawValue == String {
                guard let text = c.attribute(name)?.trimmingCharacters(in: .whitespaces) else { return fallback }
                guard let v = T(rawValue: text) else {
                    throw fail(c, "\(name)=\"\(ErrorQuote.cut(text))\" is not \(T.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return v
            }
            let rank = container.priorityClasses.count
            container.priorityClasses.append(SMILPriorityClass(
                id: id(c), peers: try value("peers", SMILPriorityClass.Peers.stop), higher: try value("higher", SMILPriorityClass.Higher.pause),
                lower: try value("lower", SMILPriorityClass.Lower.defer),
                pauseDisplay: try value("pauseDisplay", SMILPriorityClass.PauseDisplay.show), source: at(c)))
            let kids = try nodes(c)
            container.children += kids
            container.childClasses += Array(repeating: rank, count: kids.count)
        }
    }

    /// A `brush`: its `color` (SMIL's default: black) over its region for its duration.
    private mutating func brush(_ e: MarkupElement) throws(SMILError) -> SMILMedia {
        checkAttributes(e)
        defer { mediaCount += 1 }
        var m = SMILMedia(index: mediaCount, id: id(e), kind: .brush, src: "", region: e.attribute("region"),
                          transIn: e.attribute("transIn"), transOut: e.attribute("transOut"), timing: try timing(e), source: at(e))
        m.color = color(e, "color", otherwise: "black") ?? .black
        return m
    }

    /// A `smilText`: its own text (its `br`s and `tev`s are not read) shown by its text attributes.
    private mutating func smilText(_ e: MarkupElement) throws(SMILError) -> SMILMedia {
        checkAttributes(e)
        defer { mediaCount += 1 }
        var m = SMILMedia(index: mediaCount, id: id(e), kind: .text, src: "", region: e.attribute("region"),
                          transIn: e.attribute("transIn"), transOut: e.attribute("transOut"), timing: try timing(e), source: at(e))
        m.text = e.text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "\n")
        m.textStyle = try textStyle(e)
        return m
    }

    /// The text attributes of `e` and of its `param`s. A colour that is none is a warning (the default is kept).
    private mutating func textStyle(_ e: MarkupElement) throws(SMILError) -> SMILTextStyle {
        var style = SMILTextStyle()
        func read(_ name: String, _ value: String, at element: MarkupElement) throws(SMILError) {
            if name == "textColor" || name == "textBackgroundColor", SMILValues.color(value) == nil {
                warn(element, "\(name)=\"\(ErrorQuote.cut(value))\" is not a colour; \(name == "textColor" ? "white" : "none") is used")
                return
            }
            if let why = style.read(name, value) { throw fail(element, why) }
        }
        for name in SMILTextStyle.names {
            if let v = e.attribute(name) { try read(name, v, at: e) }
        }
        for p in e.children where p.name == "param" {
            guard let name = p.attribute("name"), SMILTextStyle.names.contains(name), let v = p.attribute("value") else { continue }
            try read(name, v, at: p)
        }
        return style
    }

    /// Whether a media element is text: `text`, or a `ref` of type `text/plain` (or a `.txt` file).
    private static func isText(_ e: MarkupElement) -> Bool {
        if e.name == "text" { return true }
        guard e.name == "ref" else { return false }
        if let t = e.attribute("type")?.lowercased() { return t.hasPrefix("text/plain") }
        return e.attribute("src")?.lowercased().hasSuffix(".txt") == true
    }

    /// One media element; nil for one that is skipped (a `text/html` ref).
    private mutating func media(_ e: MarkupElement) throws(SMILError) -> SMILMedia? {
        checkAttributes(e)
        guard let src = e.attribute("src"), !src.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw fail(e, "<\(e.name)> has no src")
        }
        let type = e.attribute("type")
        if let t = type?.lowercased(), t.hasPrefix("text/html") || t.hasPrefix("application/xhtml") {
            warn(e, "\(ErrorQuote.cut(src)): web pages (\(t)) are not played")
            return nil
        }
        if Self.isWidget(e) {
            warn(e, "\(ErrorQuote.cut(src)): widgets (application/widget, .wgt) are not played", once: "widget")
            return nil
        }
        let kind: SMILMediaKind = e.name == "img" ? .image : e.name == "video" ? .video : e.name == "audio" ? .audio : .ref
        var level = 1.0
        if let text = e.attribute("soundLevel") {
            guard let l = SMILValues.soundLevel(text) else { throw fail(e, "soundLevel=\"\(ErrorQuote.cut(text))\" is not a percentage") }
            level = l
        }
        var params: [String: String] = [:]
        for p in e.children where p.name == "param" {
            guard let name = p.attribute("name"), let value = p.attribute("value") else {
                warn(p, "<param> without name and value is not read")
                continue
            }
            if ["projection", "ken-burns", "caption"].contains(name) { params[name] = value }
            else if !(Self.isText(e) && SMILTextStyle.names.contains(name)) { warn(p, "param \(name) is not read", once: "param " + name) }
        }
        defer { mediaCount += 1 }
        var m = SMILMedia(index: mediaCount, id: id(e), kind: kind, src: src, type: type, region: e.attribute("region"),
                          fit: try fit(e), soundLevel: level, transIn: e.attribute("transIn"), transOut: e.attribute("transOut"),
                          params: params, timing: try timing(e), source: at(e))
        m.mediaAlign = try align(e)
        if Self.isText(e) {
            m.kind = .text
            m.textStyle = try textStyle(e)
        }
        return m
    }

    /// The timing attributes.
    mutating func timing(_ e: MarkupElement) throws(SMILError) -> SMILTiming {
        func offset(_ name: String, _ text: String) throws(SMILError) -> Double {
            let t = text.trimmingCharacters(in: .whitespaces)
            // an offset may be signed (`begin="-2s"` starts part-way); only offsets for now
            let negative = t.hasPrefix("-")
            guard let v = SMILValues.clock(negative || t.hasPrefix("+") ? String(t.dropFirst()) : t) else {
                throw fail(e, "\(name)=\"\(ErrorQuote.cut(text))\" is not a clock value or a wallclock() time")
            }
            return negative ? -v : v
        }
        /// A `begin` or `end` list (`0s; 20min`, `notify(stop); 30s`): its offsets, wallclock values and syncbase
        /// and event values, and whether it holds `indefinite` (or a trigger name with no `<trigger>`). Every begin
        /// of a child of a `par` or `excl` is one; each begin ends at the first end after it.
        func list(_ name: String) throws(SMILError) -> TimeList? {
            guard let text = e.attribute(name) else { return nil }
            var out = TimeList()
            // `indefinite`: only what the other values say (an end of nothing but indefinite never comes)
            for part in text.split(separator: ";", omittingEmptySubsequences: false) {
                if part.trimmingCharacters(in: .whitespaces) == "indefinite" {
                    out.indefinite = true
                    continue
                }
                switch dialectValue(String(part), of: e, in: name) {
                case .offset(let o)?: out.offsets.append(o); continue
                case .events(let events)?: out.events += events; out.named = true; continue
                case .unknown?: out.indefinite = true; continue
                case nil: break
                }
                switch SMILWallclock.parse(String(part)) {
                case .success(let w)?: out.wallclocks.append(w)
                case .failure(let why)?: throw fail(e, "\(name)=\"\(ErrorQuote.cut(String(part)))\": \(why)")
                case nil:
                    switch SMILEventBegin.parse(String(part)) {
                    case .success(let event)?: out.events.append(event)
                    case .failure(let why)?: throw fail(e, "\(name)=\"\(ErrorQuote.cut(String(part)))\": \(why)")
                    case nil: out.offsets.append(try offset(name, String(part)))
                    }
                }
            }
            return out
        }
        let begin = try list("begin"), end = try list("end")
        func duration(_ name: String) throws(SMILError) -> SMILDuration? {
            guard let text = e.attribute(name) else { return nil }
            switch text.trimmingCharacters(in: .whitespaces) {
            case "indefinite": return .indefinite
            case "media": return .media
            default:
                guard let v = SMILValues.clock(text) else { throw fail(e, "\(name)=\"\(ErrorQuote.cut(text))\" is not a clock value") }
                return .seconds(v)
            }
        }
        var count: SMILRepeatCount?
        if let text = e.attribute("repeatCount") {
            let t = text.trimmingCharacters(in: .whitespaces)
            if t == "indefinite" { count = .indefinite } else {
                guard let n = SMILValues.number(t), n > 0 else { throw fail(e, "repeatCount=\"\(ErrorQuote.cut(text))\" is not a number above 0 or indefinite") }
                count = .count(n)
            }
        }
        var fill = SMILFill.auto
        if let text = e.attribute("fill") {
            switch text.trimmingCharacters(in: .whitespaces) {
            case "freeze": fill = .freeze
            case "remove": fill = .remove
            case "hold": fill = .hold
            case "auto", "default": fill = .auto
            case "transition": fill = .freeze
            default: throw fail(e, "fill=\"\(ErrorQuote.cut(text))\" is not freeze, remove, hold or auto")
            }
        } else if begin?.named == true {
            // signageOS: triggered content plays its dur or repeats and is gone, the region shows what it showed
            fill = .remove
        }
        let repeatFor = try duration("repeatDur")
        if repeatFor == .media { throw fail(e, "repeatDur=\"media\" is not a duration") }
        var timing = SMILTiming(begin: begin.map { $0.offsets.first ?? .infinity }, duration: try duration("dur"), repeatCount: count,
                                repeatDuration: repeatFor, fill: fill)
        if let begin {
            timing.begins = begin.offsets
            timing.wallclockBegins = begin.wallclocks
            timing.eventBegins = begin.events
            timing.hasBegin = true
        }
        if let end {
            timing.ends = end.offsets.sorted()
            timing.wallclockEnds = end.wallclocks
            timing.eventEnds = end.events
            timing.hasEnd = true
            timing.endIndefinite = end.indefinite
        }
        return timing
    }

    /// A `begin` or `end` list as read.
    struct TimeList {
        var offsets: [Double] = []
        var wallclocks: [SMILWallclock] = []
        var events: [SMILEventBegin] = []
        /// `indefinite` is in it (or a name that fires nothing).
        var indefinite = false
        /// It names a `<trigger>` of `<head>`.
        var named = false
    }

    private func endSync(_ e: MarkupElement) throws(SMILError) -> SMILEndSync {
        guard let text = e.attribute("endsync")?.trimmingCharacters(in: .whitespaces) else { return .last }
        switch text {
        case "first": return .first
        case "last": return .last
        case "all": return .all
        case "media": return .last
        default:
            guard !text.isEmpty, !text.contains(" ") else { throw fail(e, "endsync=\"\(ErrorQuote.cut(text))\" is not first, last, all or an id") }
            return .id(text)
        }
    }

    /// Every medium's region and transitions name ones the head defines; an endsync id names a child.
    func checkReferences(_ c: SMILContainer, regions: Set<String>, transitions: [String: SMILTransition],
                         ids: Set<String>) throws(SMILError) {
        for child in c.children {
            for (name, events) in [("begin", child.timing.eventBegins), ("end", child.timing.eventEnds)] {
                for event in events {
                    if let id = event.elementID, !ids.contains(id) {
                        throw SMILError(source: child.source, reason: "\(name) names \(ErrorQuote.cut(id)), which is no element's id")
                    }
                }
            }
        }
        if case .id(let id) = c.endSync, c.kind != .seq, !c.children.contains(where: { $0.id == id }) {
            throw SMILError(source: c.source, reason: "endsync=\"\(ErrorQuote.cut(id))\" names no child of this <\(c.kind.rawValue)>")
        }
        for child in c.children {
            switch child {
            case .container(let inner): try checkReferences(inner, regions: regions, transitions: transitions, ids: ids)
            case .media(let m):
                if let r = m.region, !regions.contains(r) {
                    throw SMILError(source: m.source, reason: "region=\"\(ErrorQuote.cut(r))\" is not a region of the layout")
                }
                for (name, t) in [("transIn", m.transIn), ("transOut", m.transOut)] {
                    if let t, transitions[t] == nil {
                        throw SMILError(source: m.source, reason: "\(name)=\"\(ErrorQuote.cut(t))\" is not a transition in <head>")
                    }
                }
            }
        }
    }
}

extension SMILNode {
    /// The element's id, if any.
    var id: String? {
        switch self {
        case .media(let m): return m.id
        case .container(let c): return c.id
        }
    }
}
