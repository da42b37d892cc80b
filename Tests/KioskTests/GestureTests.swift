import Foundation
import XCTest
@testable import KioskCore

/// The gesture recogniser and the interaction state machine over recorded touch sequences
/// (Fixtures/gestures/*.json: timestamped points in canvas pixels on a 1920x1080 canvas).
final class GestureTests: XCTestCase {
    private struct Recording: Decodable {
        struct Point: Decodable { var t: Double; var phase: String; var slot: Int; var x: Double; var y: Double }
        var canvas: [Int]
        var events: [Point]
        var gestures: [String]
    }

    private static let canvas = PixelSize(width: 1920, height: 1080)
    private static let photo = LayerGeometry(picture: PixelSize(width: 1920, height: 1080), canvas: canvas, spherical: false)
    private static let sphere = LayerGeometry(picture: PixelSize(width: 2048, height: 1024), canvas: canvas, spherical: true)

    private func recording(_ name: String) throws -> Recording {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/gestures/\(name).json")
        return try JSONDecoder().decode(Recording.self, from: Data(contentsOf: url))
    }

    private func events(_ r: Recording, offset: Double = 0) -> [InputEvent] {
        r.events.compactMap { e in
            TouchPhase(rawValue: e.phase).map { .touch($0, slot: e.slot, at: CanvasPoint(x: e.x, y: e.y), time: e.t + offset) }
        }
    }

    /// The gestures' names (kinds only, `swipe forward`/`swipe back`), duplicates of drag and pinch collapsed.
    private func gestures(_ r: Recording) -> [String] {
        var g = GestureRecognizer(canvas: PixelSize(width: r.canvas[0], height: r.canvas[1]))
        var out: [Gesture] = []
        for e in r.events {
            guard let phase = TouchPhase(rawValue: e.phase) else { continue }
            out += g.touch(phase, slot: e.slot, at: CanvasPoint(x: e.x, y: e.y), time: e.t)
        }
        out += g.tick(at: (r.events.last?.t ?? 0) + 1)
        var names: [String] = []
        for x in out {
            let n: String
            switch x {
            case .tap: n = "tap"
            case .doubleTap: n = "doubleTap"
            case .longPress: n = "longPress"
            case .twoFingerTap: n = "twoFingerTap"
            case .drag: n = "drag"
            case .dragEnded: n = "dragEnded"
            case .swipe(let f): n = f ? "swipe forward" : "swipe back"
            case .pinch: n = "pinch"
            case .pinchEnded: n = "pinchEnded"
            }
            if names.last != n || !(n == "drag" || n == "pinch") { names.append(n) }
        }
        return names
    }

    func testRecordedSequencesGiveTheirGestures() throws {
        for name in ["swipe-fast-left", "swipe-fast-right", "swipe-slow-is-pan", "pinch-past-4x", "double-tap-edge",
                     "two-finger-tap", "long-press", "tap", "sphere-drag-right"] {
            let r = try recording(name)
            XCTAssertEqual(gestures(r), r.gestures, name)
        }
    }

    /// A slideshow of three stills with 5 s slots and the interaction over it, with the composer's hook called
    /// for the current slot as the player does each frame.
    private final class Rig {
        let show = Slideshow(items: (0..<3).map { PlaylistItem(path: "item\($0)") }, options: {
            var o = SlideshowOptions(); o.transition = .none; return o
        }())
        let input: Interaction
        let geometry: LayerGeometry
        var requests: [InteractionRequest] = []
        var views: (flat: FlatView, sphere: SphereView) = (FlatView(), SphereView())

        init(_ geometry: LayerGeometry, settings: InteractionSettings = InteractionSettings()) {
            self.geometry = geometry
            input = Interaction(canvas: geometry.canvas, settings: settings)
            frame(at: 0)
        }

        /// One frame at `t`.
        @discardableResult
        func frame(at t: Double) -> Scene? {
            requests += show.run(input.step(at: t), at: t)
            guard let scene = show.update(at: t, availability: { _ in .ready(.still) }) else { return nil }
            views = input.views(sequence: scene.current.sequence, current: true, geometry: geometry,
                                flat: FlatView(), sphere: SphereView(yaw: 10, hFOV: 90))
            return scene
        }

        private var t = 0.0

        /// Feeds events (later than the last frame), with frames every 1/60 s in between, until `until`.
        func play(_ events: [InputEvent], until: Double) {
            var i = 0
            while t <= until {
                while i < events.count, events[i].time <= t {
                    requests += show.run(input.handle(events[i]), at: events[i].time)
                    i += 1
                }
                frame(at: t)
                t += 1.0 / 60
            }
        }

        var index: Int? { show.currentID?.value }
    }

    func testFastSwipeShowsTheNextItemAndSlowSwipeDoesNot() throws {
        let fast = Rig(Self.photo)
        fast.play(events(try recording("swipe-fast-left")), until: 1.2)
        XCTAssertEqual(fast.index, 1)
        let back = Rig(Self.photo)
        back.play(events(try recording("swipe-fast-right")), until: 1.2)
        XCTAssertEqual(back.index, 2, "previous from the first item wraps to the last")
        let slow = Rig(Self.photo)
        slow.play(events(try recording("swipe-slow-is-pan")), until: 3.5)
        XCTAssertEqual(slow.index, 0)
        XCTAssertEqual(slow.views.flat.zoom, 1, "a pan when not zoomed does nothing to the view")
    }

    func testInteractionRestartsTheTimer() throws {
        let rig = Rig(Self.photo)
        // the slow pan ends at 3.0 s: the first item's 5 s slot starts again then, so it is still on at 7.5 s
        rig.play(events(try recording("swipe-slow-is-pan")), until: 7.5)
        XCTAssertEqual(rig.index, 0)
        rig.play([], until: 8.2)
        XCTAssertEqual(rig.index, 1)
    }

    func testPinchPast4xRubberBandsAndSettlesAt4x() throws {
        let rig = Rig(Self.photo)
        let evs = events(try recording("pinch-past-4x"))
        // mid-pinch (fingers 16x apart by the end): past 4x but not by much
        var peak = 0.0
        var t = 0.0
        var i = 0
        while t <= 2 {
            while i < evs.count, evs[i].time <= t { rig.requests += rig.show.run(rig.input.handle(evs[i]), at: evs[i].time); i += 1 }
            rig.frame(at: t)
            peak = max(peak, rig.views.flat.zoom)
            t += 1.0 / 60
        }
        XCTAssertGreaterThan(peak, 4.05, "rubber band past 4x")
        XCTAssertLessThan(peak, 5.01)
        XCTAssertEqual(rig.views.flat.zoom, 4, accuracy: 1e-9, "settled back at 4x")
        XCTAssertEqual(rig.views.flat.center.x, 0.5, accuracy: 0.01, "zoomed about the pinch centre")
        XCTAssertTrue(rig.show.isPaused, "the slideshow pauses while zoomed in")
        XCTAssertEqual(rig.index, 0)
    }

    func testDoubleTapAtTheEdgeZoomsClampedAndTogglesBack() throws {
        let rig = Rig(Self.photo)
        rig.play(events(try recording("double-tap-edge")), until: 1.5)
        XCTAssertEqual(rig.views.flat.zoom, 2.5, accuracy: 1e-9)
        // the tap was at the top-right corner: the centre is clamped so no background shows (1 - 0.5/2.5)
        XCTAssertEqual(rig.views.flat.center.x, 0.8, accuracy: 1e-6)
        XCTAssertEqual(rig.views.flat.center.y, 0.2, accuracy: 1e-6)
        XCTAssertTrue(rig.show.isPaused)
        let again = events(try recording("double-tap-edge"), offset: 1.5)
        rig.play(again, until: 3.2)
        XCTAssertEqual(rig.views.flat.zoom, 1, accuracy: 1e-9)
        XCTAssertFalse(rig.show.isPaused, "zoomed back out: the slideshow resumes")
    }

    func testDoubleTapMidZoomIsAnimated() throws {
        let rig = Rig(Self.photo)
        let evs = events(try recording("double-tap-edge"))
        for e in evs { rig.requests += rig.show.run(rig.input.handle(e), at: e.time) }
        rig.frame(at: 0.8 + ViewInteraction.animationTime / 2)
        XCTAssertGreaterThan(rig.views.flat.zoom, 1.1)
        XCTAssertLessThan(rig.views.flat.zoom, 2.4)
    }

    func testPanWhenZoomedIsClampedToThePicture() {
        let g = Self.photo
        let v = FlatView(zoom: 2).panned(dx: -5000, dy: 5000, picture: g.picture, canvas: g.canvas)
        XCTAssertEqual(v.center.x, 0.75, accuracy: 1e-9)
        XCTAssertEqual(v.center.y, 0.25, accuracy: 1e-9)
        let w = FlatView(zoom: 2).panned(dx: -192, dy: 0, picture: g.picture, canvas: g.canvas)
        XCTAssertEqual(w.center.x, 0.55, accuracy: 1e-9, "the picture follows the finger: 192 px at 2x is 5% of it")
    }

    func testZoomAboutAPointKeepsThatPointUnderIt() {
        let g = Self.photo
        let p = CanvasPoint(x: 1200, y: 300)
        let before = FlatView(zoom: 1.5, center: UnitPoint(x: 0.6, y: 0.4))
        let after = before.zoomed(by: 1.6, about: p, picture: g.picture, canvas: g.canvas)
        let a = before.picturePoint(at: p, picture: g.picture, canvas: g.canvas)
        let b = after.picturePoint(at: p, picture: g.picture, canvas: g.canvas)
        XCTAssertEqual(a.x, b.x, accuracy: 1e-9)
        XCTAssertEqual(a.y, b.y, accuracy: 1e-9)
        XCTAssertEqual(after.zoom, 2.4, accuracy: 1e-9)
    }

    func testTwoFingerTapTogglesPauseAndTapAndLongPressAskForHooks() throws {
        let rig = Rig(Self.photo)
        rig.play(events(try recording("two-finger-tap")), until: 1)
        XCTAssertTrue(rig.show.isPaused)
        rig.play(events(try recording("two-finger-tap"), offset: 1), until: 2)
        XCTAssertFalse(rig.show.isPaused)
        let tap = Rig(Self.photo)
        tap.play(events(try recording("tap")), until: 1.5)
        XCTAssertTrue(tap.requests.contains(.command(.overlay(.toggleInfo))))
        let long = Rig(Self.photo)
        long.play(events(try recording("long-press")), until: 1.5)
        XCTAssertTrue(long.requests.contains(.command(.grid(.open))), "a long press opens the grid")
        XCTAssertFalse(long.requests.contains(.command(.overlay(.toggleInfo))))
    }

    func testDragTurnsASphereWithInertiaAndPinchChangesItsFieldOfView() throws {
        let rig = Rig(Self.sphere)
        rig.play(events(try recording("sphere-drag-right")), until: 0.92)
        let released = rig.views.sphere.yaw
        // dragging right by 480 of 1920 px at 90 degrees looks 22.5 degrees left of the start yaw 10
        XCTAssertEqual(released, 10 - 22.5, accuracy: 1.5)
        rig.play([], until: 3)
        XCTAssertLessThan(rig.views.sphere.yaw, released - 3, "inertia carries the turn on")
        XCTAssertEqual(rig.index, 0, "a drag on a sphere never changes the item")
        let pinch = Rig(Self.sphere)
        pinch.play(events(try recording("pinch-past-4x")), until: 2)
        XCTAssertEqual(pinch.views.sphere.hFOV, SphereView.fovRange.lowerBound, accuracy: 1, "pinching out narrows the view to its limit")
        XCTAssertEqual(pinch.views.flat.zoom, 1)
    }

    func testTouchIdleReturnsToTheSlideshow() throws {
        var s = InteractionSettings()
        s.touchIdle = 3
        let rig = Rig(Self.photo, settings: s)
        rig.play(events(try recording("double-tap-edge")), until: 3.5)
        XCTAssertTrue(rig.show.isPaused)
        rig.play([], until: 4.5)
        XCTAssertEqual(rig.views.flat.zoom, 1)
        XCTAssertFalse(rig.show.isPaused)
        XCTAssertTrue(rig.requests.contains(.note("no input for 3.0 s: back to the slideshow")))
    }

    func testMouseWheelZoomsAndDragPans() {
        let rig = Rig(Self.photo)
        let p = CanvasPoint(x: 960, y: 540)
        rig.play([.wheel(steps: 3, at: p, time: 0.1), .pointerButton(pressed: true, at: p, time: 0.5),
                  .pointerMove(at: CanvasPoint(x: 1060, y: 540), time: 0.55),
                  .pointerButton(pressed: false, at: CanvasPoint(x: 1060, y: 540), time: 0.6)], until: 1)
        XCTAssertEqual(rig.views.flat.zoom, 1.953125, accuracy: 1e-9)
        XCTAssertLessThan(rig.views.flat.center.x, 0.5, "dragging right shows more of the left")
        XCTAssertEqual(rig.index, 0)
    }

    func testTouchpadPinchAndSwipe() {
        let rig = Rig(Self.photo)
        let c = CanvasPoint(x: 960, y: 540)
        rig.play([.touchpadPinch(scale: 1.5, at: c, ended: false, time: 0.1), .touchpadPinch(scale: 1, at: c, ended: true, time: 0.2)],
                 until: 0.6)
        XCTAssertEqual(rig.views.flat.zoom, 1.5, accuracy: 1e-9)
        let swipe = Rig(Self.photo)
        swipe.play([.touchpadSwipe(dx: -150, dy: 10, ended: false, time: 0.1), .touchpadSwipe(dx: -150, dy: 0, ended: true, time: 0.2)],
                   until: 0.5)
        XCTAssertEqual(swipe.index, 1)
    }

    func testTouchesOnAPortraitScreenAreGivenInCanvasPixels() throws {
        // The input layer turns screen points through the rotation; a tap seen by the core is in canvas pixels.
        let portrait = LayerGeometry(picture: PixelSize(width: 1080, height: 1920), canvas: PixelSize(width: 1080, height: 1920), spherical: false)
        let rig = Rig(portrait)
        let evs: [InputEvent] = [.touch(.down, slot: 0, at: CanvasPoint(x: 100, y: 1800), time: 0.5), .touch(.up, slot: 0, at: CanvasPoint(x: 100, y: 1800), time: 0.55),
                                 .touch(.down, slot: 0, at: CanvasPoint(x: 102, y: 1802), time: 0.7), .touch(.up, slot: 0, at: CanvasPoint(x: 102, y: 1802), time: 0.75)]
        rig.play(evs, until: 1.5)
        XCTAssertEqual(rig.views.flat.zoom, 2.5, accuracy: 1e-9)
        XCTAssertEqual(rig.views.flat.center.x, 0.2, accuracy: 1e-6)
        XCTAssertEqual(rig.views.flat.center.y, 0.8, accuracy: 1e-6)
    }
}
