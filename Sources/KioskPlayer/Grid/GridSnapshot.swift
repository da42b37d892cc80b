import Foundation
import KioskCore
import KioskMedia
import KioskOutput
import KioskRender

/// `kiosk snapshot PATH... --grid`: the overview grid of the items as the player draws it, for previews and tests.
/// Every item is probed (for the chips and badges) and each visible tile's thumbnail decoded before drawing, so
/// the picture is complete; `--layout-json` writes where each tile's thumbnail and each chip is.
public enum GridSnapshot {
    /// What to draw.
    public struct Request: Sendable {
        /// The items, in playlist order.
        public var items: [PlaylistItem]
        /// The chip that is on.
        public var filter: GridFilter = .all
        /// Rows scrolled down.
        public var scrollRows = 0.0
        /// Where to write the layout (one JSON object per line), if anywhere.
        public var layoutJSON: String?

        /// A request for `items`.
        public init(items: [PlaylistItem]) { self.items = items }
    }

    /// The grid's pixels for `request` on `config.size`; writes the layout when asked. Items that cannot be
    /// probed or decoded get a dark tile and one warning each.
    public static func image(_ request: Request, config: PlayerConfig, log: Log) throws -> RGBAImage {
        LocalMediaPolicy.apply(config)
        let canvas = config.size
        let playlist = LivePlaylist(request.items)
        var failed = Set<String>()
        let entries = playlist.ids.compactMap { id -> GridEntry? in
            guard let item = playlist.item(id) else { return nil }
            do {
                return GridEntry(id: id, path: item.path,
                                 facts: try TileFactsProbe.facts(path: item.path, override: item.override, limits: config.limits))
            } catch {
                log.warn("grid: \(error)")
                failed.insert(item.path)
                return GridEntry(id: id, path: item.path, facts: TileFacts(guessingFrom: item.path))
            }
        }
        var state = GridState(entries: entries, current: nil, canvas: canvas, columns: config.grid.columns, at: 0)
        _ = state.handle(.filter(request.filter), at: 0)
        state.setScroll(rows: request.scrollRows)
        let tiles = state.tiles(at: 0, margin: 0)
        let presenter = try FramePresenter.headless(size: canvas, log: log)
        let output = presenter.output
        var pictures: [Int: Texture] = [:]
        for tile in tiles where !failed.contains(tile.entry.path) {
            do {
                let item = playlist.item(tile.entry.id)
                let thumb = try Thumbnailer.thumbnail(path: tile.entry.path, override: item?.override, side: state.layout.tileSide,
                                                      limits: config.limits, timeout: config.decodeTimeout)
                pictures[tile.index] = try Texture(context: output.context, image: thumb.image)
            } catch {
                log.warn("grid: \(error)")
                failed.insert(tile.entry.path)
            }
        }
        let text = try? OverlayPainter(family: config.overlays.font, boxOpacity: 0.6, log: log)
        let look = GridPainter(state: state, tiles: tiles, pictures: pictures, failed: { failed.contains($0) })
        let drawn = try look.overlays(text: text)
        let image = try presenter.capture(RenderFrame(background: GridPainter.background, layers: [], overlays: drawn.layers))
        if let path = request.layoutJSON {
            try writeLayout(state: state, tiles: state.tiles(at: 0, margin: state.layout.rows), badges: drawn.badges, to: path)
        }
        return image
    }

    /// One JSON object per line: each tile of the grid, on the canvas or scrolled off it (`path`, `index`, `kind`, `x`, `y`, `width`, `height` of its thumbnail
    /// in canvas pixels, and `badges`: the [x, y, width, height] of each badge drawn over it), then each chip
    /// (`chip`, `active`, the same rectangle).
    static func writeLayout(state: GridState, tiles: [(index: Int, entry: GridEntry, rect: PixelRect)], badges: [PixelRect],
                            to path: String) throws {
        var lines: [String] = []
        func line(_ object: [String: Any]) throws {
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            lines.append(String(decoding: data, as: UTF8.self))
        }
        for t in tiles {
            try line(["path": t.entry.path, "index": t.index, "x": t.rect.x, "y": t.rect.y, "width": t.rect.width,
                      "height": t.rect.height, "kind": t.entry.facts.kind.rawValue,
                      "badges": badges.filter { Self.holds(t.rect, centreOf: $0) }.map { [$0.x, $0.y, $0.width, $0.height] }])
        }
        for chip in state.layout.chips {
            try line(["chip": chip.filter.rawValue, "active": chip.filter == state.filter, "x": chip.rect.x, "y": chip.rect.y,
                      "width": chip.rect.width, "height": chip.rect.height])
        }
        do {
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw PlayerError("--layout-json: \(path): \(error.localizedDescription)")
        }
    }

    /// Whether `r` holds the centre of `b`.
    static func holds(_ r: PixelRect, centreOf b: PixelRect) -> Bool {
        let cx = b.x + b.width / 2, cy = b.y + b.height / 2
        return cx >= r.x && cx < r.maxX && cy >= r.y && cy < r.maxY
    }
}
