import Foundation
import KioskCore
import XCTest

/// The now-playing card of a sound file: what it says with and without tags and cover art, its texts and bar
/// in the scene, and its layout on landscape and portrait canvases.
final class OverlayCardTests: XCTestCase {
    typealias F = OverlayFixture

    private func tagged() -> ItemMetadata {
        var m = ItemMetadata(path: "/music/Album/03 song.flac")
        m.offer("Harbour Lights", for: \.title)
        m.offer("The Pier Band", for: \.artist)
        m.offer("Night Tides", for: \.album)
        m.offer("3/12", for: \.track)
        m.offer(date: CivilDateTime(parsing: "2019-05-04"))
        return m
    }

    func testATaggedSoundFileWithCoverArt() throws {
        let s = OverlayState(settings: F.settings { $0.progress = .bar })
        let scene = s.scene(at: 0, context: F.context(F.item(.sound, time: 83.4, length: 245, metadata: tagged(), artwork: true)))
        let card = try XCTUnwrap(scene.card)
        XCTAssertEqual(card.title, "Harbour Lights")
        XCTAssertEqual(card.artist, "The Pier Band")
        XCTAssertEqual(card.album, "Night Tides")
        XCTAssertEqual(card.track, "3/12")
        XCTAssertEqual(card.year, "2019")
        XCTAssertEqual(card.elapsed, 83.4)
        XCTAssertEqual(card.length, 245)
        XCTAssertTrue(card.hasArtwork)
        XCTAssertEqual(card.otherLines, ["The Pier Band", "Night Tides", "Track 3/12 · 2019"])
        XCTAssertEqual(card.timeText, "1:23 / 4:05")
        let l = card.layout
        XCTAssertFalse(l.portrait)
        XCTAssertEqual(l.lines.count, 4)
        XCTAssertEqual(scene, OverlayScene(texts: [
            OverlayText(role: .cardTitle, text: "Harbour Lights", anchor: .left, area: l.lines[0], sizeFraction: 0.055,
                        maxWidthFraction: l.lines[0].width),
            OverlayText(role: .cardLine, text: "The Pier Band", anchor: .left, area: l.lines[1], sizeFraction: 0.04,
                        maxWidthFraction: l.lines[1].width),
            OverlayText(role: .cardLine, text: "Night Tides", anchor: .left, area: l.lines[2], sizeFraction: 0.04,
                        maxWidthFraction: l.lines[2].width),
            OverlayText(role: .cardLine, text: "Track 3/12 · 2019", anchor: .left, area: l.lines[3], sizeFraction: 0.04,
                        maxWidthFraction: l.lines[3].width),
            OverlayText(role: .cardTime, text: "1:23 / 4:05", anchor: .left, area: l.time, sizeFraction: 0.04,
                        maxWidthFraction: l.time.width),
        ], bars: [OverlayBar(role: .cardProgress, rect: l.progress, filled: 83.4 / 245)], card: card))
        // Landscape: a square in pixels, the text column to its right, the bar along the square's bottom.
        XCTAssertEqual(l.artwork.width * 1920, l.artwork.height * 1080, accuracy: 1e-9)
        XCTAssertEqual(l.artwork.height, 0.5, accuracy: 1e-12)
        XCTAssertGreaterThan(l.lines[0].x, l.artwork.maxX)
        XCTAssertEqual(l.progress.maxY, l.artwork.maxY, accuracy: 1e-12)
        XCTAssertLessThan(l.lines[3].maxY, l.time.y, "the lines stay above the time")
        XCTAssertLessThanOrEqual(l.lines[0].maxX, 1)
        XCTAssertNil(scene.bar(.progress), "the card has its own bar, even with --progress bar")
    }

    func testAnUntaggedSoundFileWithoutCoverArtUsesItsName() throws {
        let scene = OverlayState().scene(at: 0, context: F.context(F.item(.sound, time: 5, length: 60)))
        let card = try XCTUnwrap(scene.card)
        XCTAssertEqual(card.title, "photo")
        XCTAssertEqual([card.artist, card.album, card.track, card.year], [nil, nil, nil, nil])
        XCTAssertFalse(card.hasArtwork)
        XCTAssertEqual(card.otherLines, [])
        XCTAssertEqual(card.layout.lines.count, 1)
        XCTAssertEqual(scene.texts.map(\.role), [.cardTitle, .cardTime])
        XCTAssertEqual(scene.texts.map(\.text), ["photo", "0:05 / 1:00"])
        XCTAssertEqual(scene.bar(.cardProgress)?.filled, 5.0 / 60)
        XCTAssertEqual(OverlayState().nextChange(after: 0, context: F.context(F.item(.sound, time: 5.5, length: 60))),
                       60.0 / 1920, "the bar moves a pixel")
    }

    func testThePortraitLayoutPutsTheSquareAboveTheLines() throws {
        let portrait = PixelSize(width: 1080, height: 1920)
        let scene = OverlayState().scene(at: 0, context: F.context(F.item(.sound, time: 1, length: 200, metadata: tagged(), artwork: true),
                                                                   canvas: portrait))
        let l = try XCTUnwrap(scene.card).layout
        XCTAssertTrue(l.portrait)
        XCTAssertEqual(l.anchor, .centre)
        XCTAssertEqual(l.artwork.width * 1080, l.artwork.height * 1920, accuracy: 1e-9, "a square in pixels")
        XCTAssertEqual(l.artwork.x + l.artwork.width / 2, 0.5, accuracy: 1e-12, "centred")
        XCTAssertLessThan(l.artwork.maxY, l.lines[0].y)
        XCTAssertLessThan(l.lines[3].maxY, l.time.y)
        XCTAssertLessThan(l.time.maxY, l.progress.y)
        XCTAssertLessThan(l.progress.maxY, 1)
        XCTAssertEqual(scene.texts.map(\.anchor), Array(repeating: .centre, count: 5))
    }
}
