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

    /// Whether any element begins at a `wallclock()` time (its timeline then depends on when the layout starts).
    public var hasWallclockBegins: Bool {
        func walk(_ node: SMILNode) -> Bool {
            switch node {
            case .media(let m): return !m.timing.wallclockBegins.isEmpty
            case .container(let c): return !c.timing.wallclockBegins.isEmpty || c.children.contains(where: walk)
            }
        }
        return body.children.contains(where: walk)
    }
}
