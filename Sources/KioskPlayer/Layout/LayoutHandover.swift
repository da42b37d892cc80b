import Foundation
import KioskCore
import KioskRender

/// A layout going out while new content swaps in region by region (`kiosk play URL`): each of its regions that
/// shows an item keeps showing it, on the old layout's own clock and over the new layout, until that item ends;
/// then the region is let go, and the new layout's region of the same name begins there. A region showing nothing,
/// an item held on its last frame or one with no end is let go at once. So no showing is cut short by new content,
/// and each region takes it at its own item's end.
final class LayoutHandover {
    /// One region's showing: its medium and activation (a repeat is another showing).
    struct Showing: Equatable {
        let media: Int
        let activation: Int
    }

    /// The layout going out.
    let screen: LayoutScreen
    /// The player time its clock counts from.
    private let start: Double
    /// The regions still showing their item, each with the showing it waits to end.
    private(set) var held: [String: Showing]

    /// The layout `screen` (its clock counting from player time `start`) goes out at player time `t`: its regions
    /// showing an item that ends are held.
    init(screen: LayoutScreen, start: Double, at t: Double) {
        self.screen = screen
        self.start = start
        held = Self.running(screen.clocks.byRegion(at: max(0, t - start)))
    }

    /// The regions showing an item that will end.
    private static func running(_ shown: [String: SMILActive]) -> [String: Showing] {
        var out: [String: Showing] = [:]
        for (region, a) in shown where !a.frozen && a.length.isFinite {
            out[region] = Showing(media: a.media.index, activation: a.activation)
        }
        return out
    }

    /// Whether every region was let go.
    var isDone: Bool { held.isEmpty }

    /// The regions of the layout going out that were not held: let go from the start.
    var notHeld: [String] { screen.file.document.regions.map(\.name).filter { held[$0] == nil } }

    /// The regions still held, in the layout's order.
    var heldRegions: [String] { screen.file.document.regions.map(\.name).filter { held[$0] != nil } }

    /// Lets go of the regions whose item ended by player time `t`; they are returned in the layout's order.
    func release(at t: Double) -> [String] {
        let now = Self.running(screen.clocks.byRegion(at: max(0, t - start)))
        let ended = Set(held.filter { now[$0.key] != $0.value }.keys)
        guard !ended.isEmpty else { return [] }
        for region in ended { held[region] = nil }
        return screen.file.document.regions.map(\.name).filter(ended.contains)
    }

    /// The play log's ends of `regions`' showings (let go, or never held): each region's showing of this layout
    /// ends there (a region without one is let be).
    func closing(_ regions: [String]) -> [PlayerEvent] {
        regions.map { .regionShowing(RegionShowingChange(layout: screen.file.document.file, region: $0, path: nil, kind: "",
                                                         element: nil, interrupt: false)) }
    }

    /// The held regions at player time `t`, drawn over nothing (to go over the new layout's frame).
    func frame(at t: Double) throws -> (frame: RenderFrame, key: LayoutFrameKey) {
        let regions = Set(held.keys)
        let showings = screen.clocks.showings(at: max(0, t - start)).filter { regions.contains($0.key) }
        return try screen.frame(showings: showings, only: regions)
    }

    /// The player time after `t` when a held region's picture next changes by itself (its item's end among them);
    /// nil: every frame.
    func nextChange(after t: Double) -> Double? {
        screen.nextChange(after: max(0, t - start)).map { start + $0 }
    }

    /// The sound of a held region at player time `t`, if one is heard.
    func voice(at t: Double) -> LayoutVoice? {
        screen.voice(at: max(0, t - start)) { [held] in held[$0] != nil }
    }

    /// `top` over `bottom`: every layer of `top` above every one of `bottom`, each frame's order kept.
    static func frame(_ top: RenderFrame, over bottom: RenderFrame) -> RenderFrame {
        let ceiling = (bottom.layers.map(\.z) + bottom.overlays.map(\.z)).max() ?? 0
        let floor = (top.layers.map(\.z) + top.overlays.map(\.z)).min() ?? 0
        let lift = ceiling + 1 - floor
        var out = bottom
        out.layers += top.layers.map { var l = $0; l.z += lift; return l }
        out.overlays += top.overlays.map { var o = $0; o.z += lift; return o }
        return out
    }
}

/// A layout frame with the held regions of the one going out over it: equal for frames that draw the same.
struct HandoverFrameKey: Equatable {
    let coming: LayoutFrameKey
    let going: LayoutFrameKey?
}
