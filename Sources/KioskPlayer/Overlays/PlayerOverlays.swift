import Foundation
import KioskCore
import KioskMedia  // SoundPicture
import KioskRender

/// The player's side of the overlays: what it knows in a frame, handed to its `OverlayState`. Drawing them is
/// the renderer's: once a frame, `overlayScene(at:)` says what to draw, and `overlayDeadline(after:)` when the
/// loop must wake to draw it again.
extension Screen {
    /// What is overlaid at player time `t` (the frame's time): notes the current view's zoom (a change shows
    /// as a message), then lays out the scene from the player's state.
    func overlayScene(at t: Double) -> OverlayScene {
        if show.currentSlot != nil, let zoom = viewControl.status(at: t)?.zoom { overlays.noteZoom(zoom, at: t) }
        return overlays.scene(at: t, context: overlayContext(at: t))
    }

    /// The player time after `t` at which the overlays next change by themselves (the clock's next minute, a
    /// message running out, a bar moving); nil when they do not.
    func overlayDeadline(after t: Double) -> Double? {
        overlays.nextChange(after: t, context: overlayContext(at: t))
    }

    /// This frame's overlays at `t` (nil without a painter). Cheap: nothing is laid out here; the scene is part
    /// of the frame's key, so a frame whose pictures did not change is drawn again only when its overlays did.
    func overlayFrame(at t: Double) -> OverlayScene? {
        guard overlayPainter != nil else { return nil }
        return overlayScene(at: t)
    }

    /// The layers that draw `scene` on a `canvas`, for a frame that is drawn. A block that cannot be drawn (no
    /// glyph room, a font that broke) is left out with one warning; the pictures go on.
    func overlayLayers(_ scene: OverlayScene?, canvas: PixelSize) -> [RenderOverlay] {
        guard let painter = overlayPainter, let scene, !scene.isEmpty else { return [] }
        do {
            return try painter.overlays(for: scene, canvas: canvas)
        } catch {
            let why = "\(error)"
            if why != overlayFailure { log.warn("overlays: \(why); drawing the pictures without them") }
            overlayFailure = why
            return []
        }
    }

    /// The painter for the config's overlays; nil with `--no-overlays`, or (with one warning) when no font at
    /// all can be found.
    func makeOverlayPainter() -> OverlayPainter? {
        guard config.overlays.enabled else { return nil }
        do {
            return try OverlayPainter(family: config.overlays.font, boxOpacity: config.overlays.boxOpacity, log: log)
        } catch {
            log.warn("overlays: \(error); showing no text")
            return nil
        }
    }

    /// What the player knows at `t` that overlays show: the canvas, the item on screen and the wall clock.
    func overlayContext(at t: Double) -> OverlayContext {
        let canvas = screenSize
        var c = OverlayContext(canvas: canvas, item: overlayItem(at: t), now: services.wallClock.at(t), timeZone: services.wallClock.zone)
        // the clock keeps off the regions of a layout on screen (not under an alert or the grid) unless placed
        if alertMode == nil, !grid.isOpen, let document = layoutMode?.screen.file.document {
            let placement = LayoutPlacement(root: document.rootLayout, screen: canvas)
            let w = Double(max(1, canvas.width)), h = Double(max(1, canvas.height))
            c.regions = document.regions.map { placement.screenFrame(of: $0, in: document.rootLayout) }.filter { !$0.isEmpty }
                .map { OverlayRect(x: $0.x / w, y: $0.y / h, width: $0.width / w, height: $0.height / h) }
        }
        return c
    }

    /// The item on screen as overlays see it, nil while nothing shows.
    private func overlayItem(at t: Double) -> OverlayContext.Item? {
        guard let slot = show.currentSlot else { return nil }
        let playlist = show.playlist
        let entry = playlist.item(slot.id)
        let decoded = cache.item(slot.id)
        let kind: OverlayContext.Item.Kind
        var hasArtwork = false
        switch decoded?.info.kind {
        case .video?: kind = .clip
        case .audio?:
            kind = .sound
            if case .clip(let clip)? = decoded?.picture { hasArtwork = (clip as? SoundPicture)?.hasCoverArt ?? false }
        default: kind = .still
        }
        let index = (playlist.position(of: slot.id) ?? 0) + 1
        let metadata = decoded?.metadata
        let caption = overlays.captions.flatMap { settings in
            metadata.flatMap { settings.format.render($0, index: index, count: playlist.count) }
        }
        let next = show.upcoming.flatMap { id in playlist.item(id).map { Self.displayName($0.title, path: $0.path) } }
        return OverlayContext.Item(sequence: slot.sequence, kind: kind, index: index, count: playlist.count,
                                   slotTime: show.currentTime(at: t), slotLength: slot.length,
                                   name: Self.displayName(entry?.title, path: slot.path), caption: caption,
                                   paused: show.isPaused, metadata: metadata, hasArtwork: hasArtwork, nextName: next)
    }

    /// An item's name on screen: the playlist's title, else the file name without its extension.
    static func displayName(_ title: String?, path: String) -> String {
        if let title, !title.isEmpty { return title }
        return ItemMetadata(path: path).filename
    }
}
