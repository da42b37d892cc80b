import Foundation
import KioskCore
import KioskMedia
import KioskOutput
import KioskRender

/// One frame of a layout, drawn headless (the regions and their captions; not the screen's clock or messages):
/// what `kiosk snapshot FILE.smil --at T` writes, and what tests hold
/// against references. Every medium shown is decoded first (with the player's decoder, bounded by
/// `--decode-timeout`), so the picture does not depend on the machine's speed.
public enum LayoutSnapshot {
    /// The screen of `config.size` showing the layout `file` at `t` seconds on its clock (stills lasting
    /// `--duration`); each medium that will not play is said once on `log`.
    public static func image(file: SMILFile, at t: Double, anchor: SMILTimeline.WallAnchor? = nil, config: PlayerConfig,
                             log: Log) throws -> RGBAImage {
        for w in file.document.warnings { log.warn(w) }
        for p in file.problems { log.warn(p) }
        let presenter = try FramePresenter.headless(size: config.size, log: log)
        let screen = LayoutScreen(file: file, config: config, context: presenter.output.context, waitsForDecodes: true,
                                  anchor: anchor, log: log)
        if config.overlays.enabled {  // each medium's caption param, in its region, as play draws it
            let painter = try? OverlayPainter(family: config.overlays.font, boxOpacity: config.overlays.boxOpacity, log: log)
            screen.captions = painter.map { RegionCaptions(painter: $0, size: config.overlays.captionSize) }
        }
        return try presenter.capture(try screen.frame(at: t).frame)
    }

    /// The screen of `config.size` showing `showings` (by region name) of `document`, whose media are the files
    /// `paths` names (by media index; one missing is drawn as its region's background).
    public static func image(document: SMILDocument, paths: [Int: String], showings: [String: RegionShowing],
                             config: PlayerConfig, log: Log) throws -> RGBAImage {
        let presenter = try FramePresenter.headless(size: config.size, log: log)
        let screen = LayoutScreen(file: SMILFile(document: document, paths: paths), config: config,
                                  context: presenter.output.context, waitsForDecodes: true, log: log)
        return try presenter.capture(try screen.frame(showings: showings).frame)
    }
}

/// A layout's media as playlist items: one per media element, its id the element's `index`, so one decode cache
/// serves every region; each with its `projection` param. A medium without a file (missing, refused) is an item
/// that fails to decode, and its region shows its background.
struct LayoutMedia {
    /// The items, ids 0, 1, 2… in media order.
    let playlist: LivePlaylist
    private let paths: [Int: String]

    /// The items for `file`'s media.
    init(file: SMILFile) {
        paths = file.paths
        let count = (file.document.mediaInDocumentOrder.map(\.index).max() ?? -1) + 1
        playlist = LivePlaylist((0..<count).map { PlaylistItem(path: file.paths[$0] ?? "", override: file.overrides[$0]) })
    }

    /// The file of `media` ("" when it has none).
    func path(_ media: SMILMedia) -> String { paths[media.index] ?? "" }
}
