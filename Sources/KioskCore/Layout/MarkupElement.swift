/// An XML element as a plain value: what the markup reader (libxml2, in KioskMedia) hands the pure readers of
/// SMIL and XMP, so they can be tested on trees written in Swift.
public struct MarkupElement: Sendable, Hashable {
    /// An attribute: its local name, namespace URI (nil: none) and value.
    public struct Attribute: Sendable, Hashable {
        public var name: String
        public var namespace: String?
        public var value: String
        /// Creates an attribute.
        public init(name: String, namespace: String? = nil, value: String) {
            self.name = name; self.namespace = namespace; self.value = value
        }
    }

    /// The local name (`region`, not `smil:region`).
    public var name: String
    /// The namespace URI, if any.
    public var namespace: String?
    /// The attributes, in document order.
    public var attributes: [Attribute]
    /// The child elements, in document order.
    public var children: [MarkupElement]
    /// The element's own text (its text and CDATA children joined), untrimmed.
    public var text: String
    /// 1-based line of its start tag.
    public var line: Int

    /// Creates an element.
    public init(name: String, namespace: String? = nil, attributes: [Attribute] = [], children: [MarkupElement] = [],
                text: String = "", line: Int = 1) {
        self.name = name; self.namespace = namespace; self.attributes = attributes; self.children = children
        self.text = text; self.line = line
    }

    /// The value of the attribute `name` in no namespace (or, with `namespace`, in that one).
    public func attribute(_ name: String, namespace: String? = nil) -> String? {
        attributes.first { $0.name == name && $0.namespace == namespace }?.value
    }

    /// The children named `name`.
    public func children(named name: String) -> [MarkupElement] { children.filter { $0.name == name } }
}
