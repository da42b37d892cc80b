extension SMILDocument {
    /// Every media element of the body, in document order.
    public var mediaInDocumentOrder: [SMILMedia] {
        func walk(_ node: SMILNode) -> [SMILMedia] {
            switch node {
            case .media(let m): return [m]
            case .container(let c): return c.children.flatMap(walk)
            }
        }
        return body.children.flatMap(walk)
    }

    /// The triggers from outside (taps, keys, notifies) that begin or end elements: the layout listens for these
    /// (a key sequence's keys each as an `accesskey`).
    public var outsideTriggers: [SMILEventBegin.Trigger] {
        func walk(_ node: SMILNode) -> [SMILEventBegin.Trigger] {
            let own = (node.timing.eventBegins + node.timing.eventEnds).filter(\.isOutside).flatMap { e -> [SMILEventBegin.Trigger] in
                if case .keySequence(let keys) = e.trigger { return keys.map { .accessKey($0) } }
                return [e.trigger]
            }
            if case .container(let c) = node { return own + c.children.flatMap(walk) }
            return own
        }
        return body.children.flatMap(walk)
    }

    /// The media (by index) begun by a wallclock, syncbase or event begin, or inside an element that is: the
    /// layout's interrupts, which the player reports as they come and go.
    public var interruptingMedia: Set<Int> {
        var out = Set<Int>()
        func walk(_ node: SMILNode, inside: Bool) {
            let t = node.timing
            let here = inside || !t.wallclockBegins.isEmpty || !t.eventBegins.isEmpty
            switch node {
            case .media(let m): if here { out.insert(m.index) }
            case .container(let c): for child in c.children { walk(child, inside: here) }
            }
        }
        for child in body.children { walk(child, inside: false) }
        return out
    }

    /// Whether any element begins or ends when another begins or ends (`intro.end+2s`).
    public var usesSyncbase: Bool {
        func walk(_ node: SMILNode) -> Bool {
            if (node.timing.eventBegins + node.timing.eventEnds).contains(where: { !$0.isOutside }) { return true }
            if case .container(let c) = node { return c.children.contains(where: walk) }
            return false
        }
        return body.children.contains(where: walk)
    }

    /// Whether any element begins or ends at a `wallclock()` time (its timeline then depends on when the layout
    /// starts).
    public var hasWallclockBegins: Bool {
        func walk(_ node: SMILNode) -> Bool {
            let t = node.timing
            if !t.wallclockBegins.isEmpty || !t.wallclockEnds.isEmpty { return true }
            if case .container(let c) = node { return c.children.contains(where: walk) }
            return false
        }
        return body.children.contains(where: walk)
    }
}

extension SMILContainer {
    /// The ids of this container and everything in it.
    var allIDs: Set<String> {
        var ids = Set(id.map { [$0] } ?? [])
        for child in children {
            switch child {
            case .media(let m): if let i = m.id { ids.insert(i) }
            case .container(let c): ids.formUnion(c.allIDs)
            }
        }
        return ids
    }
}
