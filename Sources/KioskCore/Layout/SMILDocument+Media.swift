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
}
