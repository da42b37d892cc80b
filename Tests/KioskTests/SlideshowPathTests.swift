import XCTest
@testable import KioskCore

/// Edits by path, as a folder watcher sends them: items loaded into path order, items named by path, many
/// removed in one edit; while playing, also of the item on screen, and while shuffling.
final class SlideshowPathTests: XCTestCase {
    private let ready: (ItemID) -> Availability = { _ in .ready(.still) }

    private func show(_ paths: [String], shuffle: Bool = false) -> Slideshow {
        var o = SlideshowOptions()
        o.duration = 5
        o.transition = .none
        o.shuffle = shuffle
        o.seed = 7
        return Slideshow(items: paths.map { PlaylistItem(path: $0) }, options: o)
    }

    private func paths(_ s: Slideshow) -> [String] { s.playlist.entries.map(\.item.path) }

    private func items(_ paths: String...) -> [PlaylistItem] { paths.map { PlaylistItem(path: $0) } }

    func testSortedLoadPutsEachItemBeforeTheFirstEntryThatSortsAfterIt() {
        let s = show(["/f/b/x.jpg", "/f/IMG_2.jpg", "/f/IMG_10.jpg"])
        let reply = s.apply(.load(items("/f/z.jpg", "/f/IMG_1.jpg", "/f/IMG_3.jpg", "/f/a.jpg"), .sorted), at: 0)
        XCTAssertEqual(paths(s), ["/f/a.jpg", "/f/b/x.jpg", "/f/IMG_1.jpg", "/f/IMG_2.jpg", "/f/IMG_3.jpg", "/f/IMG_10.jpg", "/f/z.jpg"])
        XCTAssertEqual(reply, .done(ids: [3, 4, 5, 6]), "new ids in playlist order")
        XCTAssertEqual(s.playlist.ids, [3, 0, 4, 1, 5, 2, 6])
        XCTAssertEqual(s.takeEvents(), [.playlistChanged(count: 7)], "one edit")
    }

    func testSortedLoadIntoAnUnsortedPlaylistAndOfAPathAlreadyThere() {
        let unsorted = show(["/m", "/c", "/x"])
        XCTAssertEqual(unsorted.apply(.load(items("/d", "/a", "/c"), .sorted), at: 0)?.isDone, true)
        XCTAssertEqual(paths(unsorted), ["/a", "/c", "/d", "/m", "/c", "/x"], "each goes before /m, the first entry after it")
        let sorted = show(["/a", "/c", "/e"])
        XCTAssertEqual(sorted.apply(.load(items("/c"), .sorted), at: 0), .done(ids: [3]))
        XCTAssertEqual(sorted.playlist.ids, [0, 1, 3, 2], "an equal path does not sort after it: the new one goes after")
    }

    func testItemsByPathAndManyRemovedInOneEdit() {
        let s = show(["/f/a.jpg", "/f/b.jpg", "/f/c.jpg", "/f/b.jpg", "/f/d.jpg"])
        XCTAssertEqual(s.apply(.goTo(.path("/f/c.jpg")), at: 0), .done(ids: [2]))
        XCTAssertEqual(s.apply(.remove(.path("/f/b.jpg")), at: 0), .done(ids: [1]), "the first entry with the path")
        XCTAssertEqual(s.apply(.remove(.path("/f/nope.jpg")), at: 0), .failed("no such item: path /f/nope.jpg"))
        _ = s.takeEvents()
        let reply = s.apply(.removeMany([.path("/f/b.jpg"), .path("/f/b.jpg"), .path("/f/nope.jpg"), .id(0), .path("/f/a.jpg")]), at: 0)
        XCTAssertEqual(reply, .done(ids: [0, 3]), "each ref once; what names nothing is skipped")
        XCTAssertEqual(paths(s), ["/f/c.jpg", "/f/d.jpg"])
        XCTAssertEqual(s.takeEvents(), [.playlistChanged(count: 2)], "one edit")
        XCTAssertEqual(s.apply(.removeMany([.path("/f/nope.jpg")]), at: 0), .done(ids: []))
        XCTAssertEqual(s.takeEvents(), [], "nothing removed, nothing changed")
    }

    func testRemovingTheItemOnScreenByPathMovesOnAtOnce() {
        let s = show(["/f/a.jpg", "/f/b.jpg", "/f/c.jpg", "/f/d.jpg"])
        XCTAssertEqual(s.update(at: 0, availability: ready)?.current.id, 0)
        XCTAssertEqual(s.update(at: 5, availability: ready)?.current.id, 1)
        XCTAssertEqual(s.apply(.removeMany([.path("/f/b.jpg"), .path("/f/c.jpg")]), at: 6), .done(ids: [1, 2]))
        XCTAssertEqual(s.update(at: 6, availability: ready)?.current.id, 3, "the first survivor after it, at once")
        XCTAssertTrue(s.takeEvents().contains(.itemEnded(1, path: "/f/b.jpg", reason: .removed)))
        XCTAssertEqual(s.apply(.removeMany([.path("/f/a.jpg"), .path("/f/d.jpg")]), at: 7)?.isDone, true)
        XCTAssertNil(s.update(at: 7, availability: ready), "an emptied playlist idles")
        XCTAssertTrue(s.isIdle)
        XCTAssertEqual(s.apply(.load(items("/f/e.jpg"), .sorted), at: 8)?.isDone, true)
        XCTAssertEqual(s.update(at: 8, availability: ready)?.current.id, 4, "and plays what arrives")
    }

    func testWhileShufflingSortedItemsKeepPathOrderInThePlaylistAndAreShuffledIntoThePass() {
        let s = show((0..<10).map { "/f/\($0 + 10).jpg" }, shuffle: true)
        let first = s.update(at: 0, availability: ready)?.current.id
        let before = s.passOrder
        XCTAssertEqual(s.apply(.load(items("/f/15b.jpg", "/f/1.jpg", "/f/99.jpg"), .sorted), at: 1), .done(ids: [10, 11, 12]))
        XCTAssertEqual(paths(s).first, "/f/1.jpg")
        XCTAssertEqual(paths(s)[7], "/f/15b.jpg")
        XCTAssertEqual(paths(s).last, "/f/99.jpg")
        let pass = s.passOrder
        XCTAssertEqual(Set(pass), Set(s.playlist.ids), "every item is in the pass")
        XCTAssertEqual(pass.filter { before.contains($0) }, before, "the pass keeps its order")
        let current = pass.firstIndex { $0 == first } ?? -1
        for id in [ItemID(10), 11, 12] {
            XCTAssertGreaterThan(pass.firstIndex(of: id) ?? -1, current, "new items come later in this pass")
        }
    }
}
