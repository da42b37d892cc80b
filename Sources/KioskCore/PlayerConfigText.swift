/// What the text on screen needs from the rest of the player's config.
extension PlayerConfig {
    /// Whether decodes also read each file's own caption, tags and dates (`ItemMetadata`): captions show them.
    public var readsMetadata: Bool { captions != nil }
}
