import XCTest
@testable import KioskCore

/// The live playlist's tables (ids in order, items by id and by path, path-order tracking, snapshots) against a
/// plain array that is edited the obvious way, over seeded random edits.
final class LivePlaylistTests: XCTestCase {
    private struct Reference {
        var entries: [(id: ItemID, path: String)] = []
        var sorted: Bool {
            zip(entries, entries.dropFirst()).allSatisfy { !PathOrder.precedes($1.path, $0.path) }
        }
    }

    func testRandomEditsMatchAPlainArray() {
        var rng = SeededGenerator(seed: 20261201)
        let playlist = LivePlaylist()
        var ref = Reference()
        var snapshots: [(StatusPlaylist, [(ItemID, String)])] = []
        func path() -> String { "/m/f\(Int.random(in: 0..<40, using: &rng)).jpg" }
        for step in 0..<3000 {
            switch Int.random(in: 0..<7, using: &rng) {
            case 0:
                let items = (0..<Int.random(in: 1...3, using: &rng)).map { _ in PlaylistItem(path: path()) }
                let at = Int.random(in: 0...ref.entries.count, using: &rng)
                let edit = playlist.insert(items, at: at)
                ref.entries.insert(contentsOf: zip(edit.added, items.map(\.path)).map { ($0, $1) }, at: at)
            case 1:
                let n = Int.random(in: 1...40, using: &rng)
                let placed = (0..<n).map { _ in (item: PlaylistItem(path: path()), before: Int.random(in: 0...ref.entries.count, using: &rng)) }
                let edit = playlist.insert(placed)
                // The reference: stable by position, then by the order given.
                let order = placed.indices.sorted { (placed[$0].before, $0) < (placed[$1].before, $1) }
                var out: [(id: ItemID, path: String)] = []
                var k = 0
                for p in 0...ref.entries.count {
                    while k < order.count, placed[order[k]].before <= p {
                        out.append((edit.added[k], placed[order[k]].item.path))
                        k += 1
                    }
                    if p < ref.entries.count { out.append(ref.entries[p]) }
                }
                ref.entries = out
            case 2 where !ref.entries.isEmpty:
                let victim = ref.entries[Int.random(in: 0..<ref.entries.count, using: &rng)].id
                XCTAssertNotNil(playlist.remove(victim))
                ref.entries.removeAll { $0.id == victim }
            case 3 where !ref.entries.isEmpty:
                let n = Int.random(in: 1...50, using: &rng)
                let gone = Set((0..<n).map { _ in ref.entries[Int.random(in: 0..<ref.entries.count, using: &rng)].id })
                let edit = playlist.remove(gone)
                XCTAssertEqual(edit.removed.map(\.id), ref.entries.filter { gone.contains($0.id) }.map(\.id))
                ref.entries.removeAll { gone.contains($0.id) }
            case 4 where !ref.entries.isEmpty:
                let id = ref.entries[Int.random(in: 0..<ref.entries.count, using: &rng)].id
                let to = Int.random(in: 0..<ref.entries.count, using: &rng)
                XCTAssertTrue(playlist.move(id, to: to))
                let e = ref.entries.remove(at: ref.entries.firstIndex { $0.id == id } ?? 0)
                ref.entries.insert(e, at: to)
            case 5:
                snapshots.append((playlist.snapshot, ref.entries.map { ($0.id, $0.path) }))
            default:
                if step % 500 == 0 {
                    let items = (0..<Int.random(in: 0...30, using: &rng)).map { _ in PlaylistItem(path: path()) }
                    let edit = playlist.replace(with: items)
                    ref.entries = zip(edit.added, items.map(\.path)).map { ($0, $1) }
                }
            }
            XCTAssertEqual(playlist.ids, ref.entries.map(\.id), "step \(step)")
            if playlist.isPathSorted { XCTAssertTrue(ref.sorted, "step \(step): said to be in path order and is not") }
        }
        for e in ref.entries {
            XCTAssertEqual(playlist.item(e.id)?.path, e.path)
            XCTAssertEqual(playlist.position(of: e.id), ref.entries.firstIndex { $0.id == e.id })
        }
        for p in Set(ref.entries.map(\.path)) {
            XCTAssertEqual(playlist.ids(withPath: p), ref.entries.filter { $0.path == p }.map(\.id))
        }
        // Every snapshot still shows the playlist as it was when taken.
        XCTAssertGreaterThan(snapshots.count, 100)
        for (snap, was) in snapshots {
            XCTAssertEqual(snap.map(\.id), was.map(\.0))
            XCTAssertEqual(snap.map(\.path), was.map(\.1))
        }
    }

    func testPathOrderIsKeptAndLostFromTheNeighbours() {
        let playlist = LivePlaylist()
        playlist.insert([PlaylistItem(path: "/m/b.jpg"), PlaylistItem(path: "/m/d.jpg")], at: 0)
        XCTAssertTrue(playlist.isPathSorted)
        XCTAssertEqual(playlist.pathOrderPosition(of: "/m/c.jpg"), 1)
        XCTAssertEqual(playlist.pathOrderPosition(of: "/m/a.jpg"), 0)
        XCTAssertEqual(playlist.pathOrderPosition(of: "/m/img10.jpg"), 2)
        playlist.insert([(PlaylistItem(path: "/m/c.jpg"), 1)])
        XCTAssertTrue(playlist.isPathSorted)
        playlist.insert([PlaylistItem(path: "/m/a.jpg")], at: 3)
        XCTAssertFalse(playlist.isPathSorted, "a.jpg after d.jpg")
        // Out of path order, the place is found by a scan: before the first entry that sorts after it.
        XCTAssertEqual(playlist.pathOrderPosition(of: "/m/bb.jpg"), 1)
        _ = playlist.replace(with: [PlaylistItem(path: "/m/x.jpg")])
        XCTAssertTrue(playlist.isPathSorted)
    }

    func testTheTableDropsEmptyChunksAndCountsItems() {
        var table = ItemTable()
        for i in 0..<3000 { table.set(PlaylistItem(path: "/m/\(i).jpg"), for: ItemID(i)) }
        XCTAssertEqual(table.count, 3000)
        let before = table
        for i in 0..<2048 { table.remove(ItemID(i)) }
        XCTAssertEqual(table.count, 952)
        XCTAssertNil(table[ItemID(5)])
        XCTAssertEqual(table[ItemID(2500)]?.path, "/m/2500.jpg")
        XCTAssertEqual(before[ItemID(5)]?.path, "/m/5.jpg", "a copy taken before is not changed")
        XCTAssertNil(table[ItemID(-1)])
        XCTAssertNil(table[ItemID(1_000_000)])
    }
}
