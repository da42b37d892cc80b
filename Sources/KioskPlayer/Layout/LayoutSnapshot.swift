import Foundation
import KioskCore
import KioskMedia
import KioskOutput
import KioskRender

/// One frame of a layout, drawn headless: what `kiosk snapshot FILE.smil --at T` writes, and what tests hold
/// against references. Every medium shown is decoded first (with the player's decoder, bounded by
/// `--decode-timeout`), so the picture does not depend on the machine's speed.
public enum LayoutSnapshot {
    /// The screen of `config.size` showing the layout `file` at `t` seconds on its clock (stills lasting
    /// `--duration`); each medium that will not play is said once on `log`.
    public static func image(file: SMILFile, at t: Double, config: PlayerConfig, log: Log) throws -> RGBAImage {
        for w in file.document.warnings { log.warn(w) }
        for p in file.problems { log.warn(p) }
        let output = try HeadlessOutput(size: config.size, pacing: nil)
        let renderer = try Renderer(context: output.context, log: log)
        let screen = LayoutScreen(file: file, config: config, context: output.context, waitsForDecodes: true, log: log)
        try renderer.draw(try screen.frame(at: t).frame, into: output.target, rotation: .none)
        return try output.readPixels()
    }

    /// The screen of `config.size` showing `showings` (by region name) of `document`, whose media are the files
    /// `paths` names (by media index; one missing is drawn as its region's background).
    public static func image(document: SMILDocument, paths: [Int: String], showings: [String: RegionShowing],
                             config: PlayerConfig, log: Log) throws -> RGBAImage {
        LocalMediaPolicy.apply(config)
        let media = LayoutMedia(document: document, paths: paths)
        let cache = DecodeCache(playlist: media.playlist, timeout: config.decodeTimeout, log: log,
                                decode: Player.decoder(for: Player.decodeConfig(config), log: log))
        let shown = showings.values.flatMap { [$0.current, $0.outgoing].compactMap { $0 } }
        for e in shown where paths[e.media.index] != nil { cache.request(ItemID(e.media.index)) }
        for e in shown where paths[e.media.index] != nil { cache.wait(for: ItemID(e.media.index)) }
        let output = try HeadlessOutput(size: config.size, pacing: nil)
        let renderer = try Renderer(context: output.context, log: log)
        let composer = LayoutComposer(document: document, config: config, context: output.context, playlist: media.playlist)
        defer { composer.releaseAll() }
        let (frame, _) = try composer.frame(showings: showings, cache: cache, stillDuration: config.slideshow.duration,
                                            path: media.path)
        try renderer.draw(frame, into: output.target, rotation: .none)
        return try output.readPixels()
    }
}

/// A layout's media as playlist items: one per media element, its id the element's `index`, so one decode cache
/// serves every region. A medium without a file (missing, refused) is an item that fails to decode, and its
/// region shows its background.
struct LayoutMedia {
    /// The items, ids 0, 1, 2… in media order.
    let playlist: LivePlaylist
    private let paths: [Int: String]

    /// The items for `document`'s media, with files from `paths`.
    init(document: SMILDocument, paths: [Int: String]) {
        self.paths = paths
        let count = (document.mediaInDocumentOrder.map(\.index).max() ?? -1) + 1
        playlist = LivePlaylist((0..<count).map { PlaylistItem(path: paths[$0] ?? "") })
    }

    /// The file of `media` ("" when it has none).
    func path(_ media: SMILMedia) -> String { paths[media.index] ?? "" }
}
