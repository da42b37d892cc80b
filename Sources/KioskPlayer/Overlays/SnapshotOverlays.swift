import Foundation
import KioskCore
import KioskMedia
import KioskRender

/// What `kiosk snapshot` draws over its one item, as `kiosk play` would at that moment of the slot: the item's
/// caption (`--captions`, `--caption FORMAT`), the clock at the wall-clock time given (`--start-time`, else now),
/// the slot's progress, a clip's title and time; nothing with `--no-overlays`.
enum SnapshotOverlays {
    /// The overlay layers for `path` at `at` seconds into its slot (`length` long, `kind` of item), on `canvas`.
    static func layers(path: String, kind: OverlayContext.Item.Kind, at: Double, length: Double, config: PlayerConfig,
                       canvas: PixelSize, wall: (now: Date, zone: TimeZone), hasArtwork: Bool = false,
                       log: Log) throws -> [RenderOverlay] {
        guard config.overlays.enabled else { return [] }
        let state = OverlayState(settings: config.overlays, captions: config.captions)
        state.handle(.itemStarted(ItemID(0), path: path, sequence: 0), at: 0)
        let mediaKind: MediaKind = kind == .sound ? .audio : kind == .clip ? .video : .image
        let metadata = config.readsMetadata(of: mediaKind) ? MediaMetadataReader.read(path: path, log: log) : nil
        let caption = config.captions.flatMap { settings in metadata.flatMap { settings.format.render($0, index: 1, count: 1) } }
        let item = OverlayContext.Item(sequence: 0, kind: kind, index: 1, count: 1, slotTime: at, slotLength: length,
                                       name: Screen.displayName(nil, path: path), caption: caption, metadata: metadata,
                                       hasArtwork: hasArtwork)
        let scene = state.scene(at: at, context: OverlayContext(canvas: canvas, item: item, now: wall.now, timeZone: wall.zone))
        guard !scene.isEmpty else { return [] }
        return try OverlayPainter(family: config.overlays.font, boxOpacity: config.overlays.boxOpacity, log: log)
            .overlays(for: scene, canvas: canvas)
    }
}
