/// What the text on screen needs from the rest of the player's config.
extension PlayerConfig {
    /// Whether decodes may read files' own caption, tags and dates (`ItemMetadata`): captions show them, and
    /// so do a sound file's now-playing card and a video's `--clip-info` (see `readsMetadata(of:)`).
    public var readsMetadata: Bool { overlays.enabled }

    /// Whether a decoded item of `kind` reads them: every item with captions, sound files for their card, videos
    /// with `--clip-info`; none with `--no-overlays`.
    public func readsMetadata(of kind: MediaKind) -> Bool {
        guard overlays.enabled else { return false }
        switch kind {
        case .audio: return true
        case .video: return captions != nil || overlays.clipInfo
        case .image, .animation: return captions != nil
        }
    }
}
