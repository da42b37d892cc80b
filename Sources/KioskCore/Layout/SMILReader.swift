import Foundation

/// Why a SMIL document cannot be played: `FILE:LINE: reason`, naming the attribute.
public struct SMILError: Error, Sendable, Equatable, CustomStringConvertible {
    public var source: SourceLine
    public var reason: String
    /// `FILE:LINE: reason`.
    public var description: String { "\(source): \(reason)" }
}

/// Reads a SMIL 3.0 document's markup tree into a `SMILDocument`: the signage subset (`head/layout` with
/// `root-layout` and `region`, `head/transition`, and a body of `seq`, `par`, `excl`, `img`, `video`, `audio`,
/// `ref`, with `param`). Elements and attributes outside it get one warning each (at most 10) and are left out;
/// bad values, unknown regions and transitions are errors naming FILE:LINE. Pure: no files (the loader reads them).
public struct SMILReader {
    /// The SMIL 3.0 namespace (SMIL 2.0's and none are taken too).
    public static let namespaces: Set<String?> = [nil, "http://www.w3.org/ns/SMIL", "http://www.w3.org/2001/SMIL20/Language"]
    /// Most warning lines kept (each unknown name is one line, however often it comes).
    public static let maxWarnings = 20

    private let file: String
    /// Each warning line, the name it is kept once for (nil: every time) and how many more times that came.
    private var warnings: [(line: String, key: String?, more: Int)] = []
    private var warned = 0
    private var warnedKeys: Set<String> = []
    var mediaCount = 0
    /// The `<trigger>`s of `<head>`, by id (signageOS's named triggers).
    var triggers: [String: SMILNamedTrigger] = [:]
    /// The id a tap anywhere activates (the body's), when a mouse trigger needs one.
    var tapID: String?

    /// Reads `root` (the `smil` element) of the file named `file`.
    public static func read(_ root: MarkupElement, file: String) throws(SMILError) -> SMILDocument {
        var reader = SMILReader(file: file)
        return try reader.document(root)
    }

    private init(file: String) { self.file = file }

    func at(_ e: MarkupElement) -> SourceLine { SourceLine(file: file, line: e.line) }

    func fail(_ e: MarkupElement, _ reason: String) -> SMILError { SMILError(source: at(e), reason: reason) }

    /// A warning naming `e`'s FILE:LINE. With `once`, only the first for that name is a line; the rest are counted
    /// on it (`… (3 more in the file)`).
    mutating func warn(_ e: MarkupElement, _ what: String, once key: String? = nil) {
        if let key {
            if let i = warnings.firstIndex(where: { $0.key == key }) {
                warnings[i].more += 1
                return
            }
            guard warnedKeys.insert(key).inserted else { return }  // its line was past the most kept
        }
        warned += 1
        if warnings.count < Self.maxWarnings { warnings.append(("\(at(e)): \(what)", key, 0)) }
    }

    /// The warning lines, each with its count of repeats.
    private var warningLines: [String] {
        var lines = warnings.map { $0.more > 0 ? "\($0.line) (\($0.more) more in the file)" : $0.line }
        if warned > warnings.count { lines.append("\(file): \(warned - warnings.count) more warnings not shown") }
        return lines
    }

    /// The attributes kiosk reads, per element; others are warned about (namespaced ones are other vocabularies).
    private static let known: [String: Set<String>] = {
        let timing: Set<String> = ["begin", "dur", "end", "repeatCount", "repeatDur", "fill", "id", "title"]
        let media = timing.union(["src", "type", "region", "fit", "soundLevel", "transIn", "transOut", "mediaAlign", "alt", "sha256"])
            .union(SMILTextStyle.names)
        return ["smil": ["version", "baseProfile", "id", "title"], "head": ["id"], "layout": ["type", "id"],
                "root-layout": ["width", "height", "backgroundColor", "id", "title"],
                "region": ["regionName", "id", "left", "top", "width", "height", "right", "bottom", "z-index",
                           "backgroundColor", "fit", "mediaAlign", "opacity", "title"],
                "transition": ["id", "type", "subtype", "dur", "fadeColor", "direction"],
                "body": timing, "seq": timing, "par": timing.union(["endsync"]), "excl": timing.union(["endsync"]),
                "img": media, "video": media, "audio": media, "ref": media, "animation": media,
                "brush": timing.union(["color", "region", "transIn", "transOut", "alt"]),
                "smilText": timing.union(["region", "transIn", "transOut", "alt"]).union(SMILTextStyle.names), "text": media,
                "priorityClass": ["id", "peers", "higher", "lower", "pauseDisplay", "title"],
                "param": ["name", "value", "id"], "meta": ["name", "content", "id"], "metadata": ["id"]]
    }()

    mutating func checkAttributes(_ e: MarkupElement) {
        let allowed = Self.known[e.name] ?? []
        for a in e.attributes where a.namespace == nil && !allowed.contains(a.name) {
            if a.name == "expr" {  // A-SMIL's and signageOS's conditional play
                warn(e, "attribute expr of <\(e.name)> is not evaluated: the element plays as if it were true", once: "@expr")
            } else {
                warn(e, "attribute \(a.name) of <\(e.name)> is not read", once: "@" + a.name)
            }
        }
    }

    /// `xml:id`, else `id`.
    func id(_ e: MarkupElement) -> String? {
        e.attribute("id", namespace: "http://www.w3.org/XML/1998/namespace") ?? e.attribute("id")
    }

    private func smilChildren(_ e: MarkupElement) -> [MarkupElement] { e.children.filter { Self.namespaces.contains($0.namespace) } }

    private mutating func document(_ root: MarkupElement) throws(SMILError) -> SMILDocument {
        guard root.name == "smil", Self.namespaces.contains(root.namespace) else {
            throw fail(root, "the root element is <\(root.name)>, not <smil>")
        }
        checkAttributes(root)
        var rootLayout = SMILRootLayout(width: 0, height: 0)
        var regions: [SMILRegion] = []
        var transitions: [String: SMILTransition] = [:]
        var body: SMILContainer?
        let bodyElement = smilChildren(root).first { $0.name == "body" }
        tapID = bodyElement.flatMap(id) ?? Self.screenID
        for child in smilChildren(root) {
            switch child.name {
            case "head":
                let sensors = Set(smilChildren(child).filter { $0.name == "sensors" }.flatMap { $0.children(named: "sensor") }.compactMap(id))
                for h in smilChildren(child) {
                    switch h.name {
                    case "layout":
                        checkAttributes(h)
                        for l in smilChildren(h) {
                            switch l.name {
                            case "root-layout": rootLayout = try self.rootLayout(l)
                            case "region": regions.append(try region(l))
                            default: warn(l, "<\(l.name)> in <layout> is not read", once: "<\(l.name)>")
                            }
                        }
                    case "transition":
                        let t = try transition(h)
                        transitions[t.id] = t
                    case "triggers": readTriggers(h, sensors: sensors)
                    case "meta", "metadata", "sensors": break
                    default: warn(h, "<\(h.name)> in <head> is not read", once: "<\(h.name)>")
                    }
                }
            case "body":
                checkAttributes(child)
                // a mouse trigger is a tap on any medium: the body (every medium's container) carries its id
                let tapped = triggers.values.contains { $0.fires.contains(.activate(tapID ?? Self.screenID)) }
                body = SMILContainer(kind: .seq, id: id(child) ?? (tapped ? tapID : nil), timing: try timing(child),
                                     children: try nodes(child), source: at(child))
            default:
                warn(child, "<\(child.name)> is not read", once: "<\(child.name)>")
            }
        }
        var names = Set<String>()  // one pass: the second definition of a name is the one named
        if let dup = regions.first(where: { !names.insert($0.name).inserted }) {
            throw SMILError(source: dup.source, reason: "region \(dup.name) is defined twice")
        }
        guard let body else { throw fail(root, "no <body>") }
        try checkReferences(body, regions: names, transitions: transitions, ids: body.allIDs)
        return SMILDocument(file: file, rootLayout: rootLayout, regions: regions, transitions: transitions, body: body,
                            warnings: warningLines)
    }

    private mutating func rootLayout(_ e: MarkupElement) throws(SMILError) -> SMILRootLayout {
        checkAttributes(e)
        func size(_ name: String) throws(SMILError) -> Double {
            guard let text = e.attribute(name) else { return 0 }
            guard case .pixels(let p)? = SMILValues.length(text), p > 0 else {
                throw fail(e, "\(name)=\"\(ErrorQuote.cut(text))\" is not a size in pixels")
            }
            return p
        }
        return SMILRootLayout(width: try size("width"), height: try size("height"),
                              backgroundColor: color(e, "backgroundColor", otherwise: "black") ?? .black)
    }

    /// The colour attribute `name`; one that is no colour is a warning, and nil (the caller's default, named by
    /// `otherwise` in the warning), as the signage players take it.
    mutating func color(_ e: MarkupElement, _ name: String, otherwise: String) -> LayoutColor? {
        guard let text = e.attribute(name) else { return nil }
        guard let c = SMILValues.color(text) else {
            warn(e, "\(name)=\"\(ErrorQuote.cut(text))\" is not a colour; \(otherwise) is used")
            return nil
        }
        return c
    }

    func fit(_ e: MarkupElement) throws(SMILError) -> SMILFit? {
        guard let text = e.attribute("fit") else { return nil }
        guard let f = SMILFit(rawValue: text.trimmingCharacters(in: .whitespaces)) else {
            throw fail(e, "fit=\"\(ErrorQuote.cut(text))\" is not fill, meet, meetBest, slice or hidden")
        }
        return f
    }

    func align(_ e: MarkupElement) throws(SMILError) -> MediaAlign? {
        guard let text = e.attribute("mediaAlign") else { return nil }
        guard let a = MediaAlign(rawValue: text.trimmingCharacters(in: .whitespaces)) else {
            throw fail(e, "mediaAlign=\"\(ErrorQuote.cut(text))\" is not one of \(MediaAlign.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return a
    }

    private mutating func region(_ e: MarkupElement) throws(SMILError) -> SMILRegion {
        checkAttributes(e)
        if let sub = e.children.first(where: { $0.name == "region" }) {  // signageOS's sub-regions for triggered content
            warn(sub, "a <region> inside a <region> is not read: media play in the outer region", once: "sub-region")
        }
        guard let name = e.attribute("regionName") ?? id(e), !name.isEmpty else { throw fail(e, "a region needs regionName or xml:id") }
        func length(_ attribute: String) throws(SMILError) -> LayoutLength? {
            guard let text = e.attribute(attribute), text != "auto" else { return nil }
            guard let l = SMILValues.length(text) else { throw fail(e, "\(attribute)=\"\(ErrorQuote.cut(text))\" is not pixels or a percentage") }
            return l
        }
        var z = 0
        if let text = e.attribute("z-index") {
            guard let v = Int(text.trimmingCharacters(in: .whitespaces)), abs(v) <= 1_000_000 else { throw fail(e, "z-index=\"\(ErrorQuote.cut(text))\" is not a whole number") }
            z = v
        }
        var opacity = 1.0
        if let text = e.attribute("opacity") {
            let value = text.hasSuffix("%") ? SMILValues.number(String(text.dropLast())).map { $0 / 100 } : SMILValues.number(text)
            guard let o = value, (0...1).contains(o) else { throw fail(e, "opacity=\"\(ErrorQuote.cut(text))\" is not 0...1 or 0%...100%") }
            opacity = o
        }
        var r = SMILRegion(name: name, left: try length("left"), top: try length("top"), width: try length("width"),
                           height: try length("height"), right: try length("right"), bottom: try length("bottom"), zIndex: z,
                           backgroundColor: color(e, "backgroundColor", otherwise: "transparent"), fit: try fit(e) ?? .hidden, opacity: opacity,
                           source: at(e))
        r.mediaAlign = try align(e) ?? .topLeft
        return r
    }

    private mutating func transition(_ e: MarkupElement) throws(SMILError) -> SMILTransition {
        checkAttributes(e)
        guard let id = id(e) else { throw fail(e, "a transition needs an xml:id") }
        guard let type = e.attribute("type") else { throw fail(e, "transition \(id) has no type") }
        var duration = 1.0
        if let text = e.attribute("dur") {
            guard let d = SMILValues.clock(text) else { throw fail(e, "dur=\"\(ErrorQuote.cut(text))\" is not a clock value") }
            duration = d
        }
        return SMILTransition(id: id, type: type, subtype: e.attribute("subtype"), duration: duration,
                              fadeColor: color(e, "fadeColor", otherwise: "black") ?? .black, reversed: e.attribute("direction") == "reverse",
                              source: at(e))
    }
}
