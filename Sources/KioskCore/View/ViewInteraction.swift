import Foundation

/// What a layer is, for input to act on it: the picture's size on the canvas and whether it is a sphere.
public struct LayerGeometry: Sendable, Equatable {
    /// The picture's size (the texture shown).
    public var picture: PixelSize
    /// The canvas it is drawn on.
    public var canvas: PixelSize
    /// A 360/180/fisheye item (drag turns the view) rather than a flat one (drag pans the zoomed picture).
    public var spherical: Bool

    /// Creates a geometry.
    public init(picture: PixelSize, canvas: PixelSize, spherical: Bool) {
        self.picture = picture
        self.canvas = canvas
        self.spherical = spherical
    }
}

extension FlatView {
    /// The centre after clamping: the picture point really shown at the canvas centre.
    public func clampedCenter(picture: PixelSize, canvas: PixelSize) -> UnitPoint {
        transform(picture: picture, canvas: canvas).apply(.center)
    }

    /// The picture point (clamped to the picture) under canvas pixel `p`.
    public func picturePoint(at p: CanvasPoint, picture: PixelSize, canvas: PixelSize) -> UnitPoint {
        let u = transform(picture: picture, canvas: canvas)
            .apply(UnitPoint(x: p.x / Double(max(1, canvas.width)), y: p.y / Double(max(1, canvas.height))))
        return UnitPoint(x: min(max(u.x, 0), 1), y: min(max(u.y, 0), 1))
    }

    /// Zoomed by `scale` about canvas pixel `p`: the picture point under `p` stays under it.
    public func zoomed(by scale: Double, about p: CanvasPoint, picture: PixelSize, canvas: PixelSize) -> FlatView {
        let before = transform(picture: picture, canvas: canvas)
        let s = UnitPoint(x: p.x / Double(max(1, canvas.width)), y: p.y / Double(max(1, canvas.height)))
        let u = before.apply(s)
        var v = self
        v.zoom = zoom * scale
        let after = v.transform(picture: picture, canvas: canvas)
        // u = s * scale' + offset', with offset' = c' - 0.5 * scale'
        v.center = UnitPoint(x: u.x - (s.x - 0.5) * after.scaleX, y: u.y - (s.y - 0.5) * after.scaleY)
        v.center = v.clampedCenter(picture: picture, canvas: canvas)
        return v
    }

    /// Panned by (dx, dy) canvas pixels: the picture follows the finger, clamped to the content.
    public func panned(dx: Double, dy: Double, picture: PixelSize, canvas: PixelSize) -> FlatView {
        let t = transform(picture: picture, canvas: canvas)
        var v = self
        let c = clampedCenter(picture: picture, canvas: canvas)
        v.center = UnitPoint(x: c.x - dx / Double(max(1, canvas.width)) * t.scaleX,
                             y: c.y - dy / Double(max(1, canvas.height)) * t.scaleY)
        v.center = v.clampedCenter(picture: picture, canvas: canvas)
        return v
    }
}

/// The zoom and pan of a flat item and the turn of a sphere, as the user's gestures leave them: with the
/// animations (double tap, settling after a pinch) and the sphere's inertia. Times are the player's clock.
public struct ViewInteraction: Sendable {
    /// Zoom a double tap goes to.
    public static let doubleTapZoom = 2.5
    /// Seconds a zoom animation takes.
    public static let animationTime = 0.25
    /// Seconds for the sphere's inertia to fall to 1/e.
    public static let inertiaTime = 0.35

    private struct Animation: Sendable {
        var from: FlatView
        var to: FlatView
        var start: Double
    }

    /// The flat view the user set, or nil when untouched (the slideshow's own view shows).
    public private(set) var flat: FlatView?
    private var animation: Animation?
    /// The sphere view the user set, or nil when untouched (the slideshow's panning view shows).
    public private(set) var sphere: SphereView?
    private var inertia: (yaw: Double, pitch: Double, from: Double)?

    /// Untouched.
    public init() {}

    /// The flat view at `t`, `base` when untouched.
    public func flatView(at t: Double, base: FlatView) -> FlatView {
        if let a = animation {
            let p = min(1, max(0, (t - a.start) / Self.animationTime))
            let e = 1 - (1 - p) * (1 - p)  // ease out
            var v = a.to
            v.zoom = a.from.zoom + (a.to.zoom - a.from.zoom) * e
            v.center = UnitPoint(x: a.from.center.x + (a.to.center.x - a.from.center.x) * e,
                                 y: a.from.center.y + (a.to.center.y - a.from.center.y) * e)
            v.elastic = true
            return v
        }
        return flat ?? base
    }

    /// The sphere view at `t`, `base` when untouched (inertia carries a released drag on).
    public func sphereView(at t: Double, base: SphereView, canvas: PixelSize) -> SphereView {
        guard var v = sphere else { return base }
        if let i = inertia {
            // the integral of v0 * exp(-dt/T) from 0 to dt
            let dt = max(0, t - i.from)
            let k = Self.inertiaTime * (1 - exp(-dt / Self.inertiaTime))
            v.yaw += i.yaw * k
            v.pitch += i.pitch * k
            v = v.clamped
        }
        return v
    }

    /// Where the flat view is going: the end of a running animation, else the view now (`base` when untouched).
    public func targetFlat(base: FlatView) -> FlatView { animation?.to ?? flat ?? base }

    /// Whether a flat item is zoomed in (or zooming) at `t`: the slideshow pauses meanwhile.
    public func isZoomed(at t: Double) -> Bool {
        if let a = animation, t - a.start < Self.animationTime { return max(a.from.zoom, a.to.zoom) > 1.001 }
        return (flat?.zoom ?? 1) > 1.001
    }

    /// Whether the user changed the view at all.
    public var isTouched: Bool { flat != nil || sphere != nil }

    /// Ends a finished animation (call once per frame).
    public mutating func settle(at t: Double) {
        if let a = animation, t - a.start >= Self.animationTime {
            animation = nil
            flat = a.to.zoom <= 1.0001 ? nil : a.to
        }
        if let i = inertia, t - i.from > 6 * Self.inertiaTime, let s = sphere {
            sphere = sphereView(at: t, base: s, canvas: PixelSize(width: 1, height: 1))
            inertia = nil
        }
    }

    /// Back to the slideshow's own view; animated for a zoomed flat item.
    public mutating func reset(at t: Double, base: FlatView) {
        sphere = nil
        inertia = nil
        if let f = flat ?? animation?.to, f.zoom > 1.0001 || animation != nil {
            animateFlat(to: base, at: t, base: base)
        } else {
            flat = nil
            animation = nil
        }
    }

    private mutating func animateFlat(to target: FlatView, at t: Double, base: FlatView) {
        let from = flatView(at: t, base: base)
        animation = Animation(from: from, to: target, start: t)
        flat = target
    }

    /// Goes to `target` (a command's zoom or centre), clamped to 1×–4× and to the picture, animated.
    public mutating func set(flat target: FlatView, t: Double, base: FlatView, geometry g: LayerGeometry) {
        var v = target
        v.elastic = false
        v.zoom = min(max(v.zoom, FlatView.minZoom), FlatView.maxZoom)
        v.center = v.clampedCenter(picture: g.picture, canvas: g.canvas)
        animateFlat(to: v.zoom <= 1.0001 ? base : v, at: t, base: base)
    }

    /// Sets the sphere view (a command's angles or field of view); any coasting stops.
    public mutating func set(sphere target: SphereView) {
        inertia = nil
        sphere = target.clamped
    }

    /// A double tap at `p`: toggles between fitted and `doubleTapZoom` centred on the picture point tapped.
    public mutating func doubleTap(at p: CanvasPoint, t: Double, base: FlatView, geometry g: LayerGeometry) {
        let now = flatView(at: t, base: base)
        if now.zoom > 1.001 {
            animateFlat(to: base, at: t, base: base)
        } else {
            var target = base
            target.zoom = Self.doubleTapZoom
            target.center = now.picturePoint(at: p, picture: g.picture, canvas: g.canvas)
            target.center = target.clampedCenter(picture: g.picture, canvas: g.canvas)
            animateFlat(to: target, at: t, base: base)
        }
    }

    /// Zooms by `scale` about `p`, animated (keys, wheel): stays within 1×–4×.
    public mutating func zoomStep(by scale: Double, about p: CanvasPoint, t: Double, base: FlatView, geometry g: LayerGeometry) {
        let now = flatView(at: t, base: base)
        var target = now.zoomed(by: scale, about: p, picture: g.picture, canvas: g.canvas)
        target.elastic = false
        target.zoom = min(max(target.zoom, FlatView.minZoom), FlatView.maxZoom)
        target.center = target.clampedCenter(picture: g.picture, canvas: g.canvas)
        animateFlat(to: target.zoom <= 1.0001 ? base : target, at: t, base: base)
    }

    /// A pinch step: zooms by `scale` about `p` and follows the fingers by (dx, dy), past the limits with
    /// resistance (a rubber band) until `pinchEnded`.
    public mutating func pinch(scale: Double, about p: CanvasPoint, dx: Double, dy: Double, t: Double, base: FlatView,
                               geometry g: LayerGeometry) {
        var now = flatView(at: t, base: base)
        animation = nil
        now.elastic = true
        // Past a limit each step counts for less: the farther past, the stiffer.
        var s = scale
        if (now.zoom >= FlatView.maxZoom && s > 1) || (now.zoom <= FlatView.minZoom && s < 1) {
            let limit = now.zoom >= FlatView.maxZoom ? FlatView.maxZoom : FlatView.minZoom
            let over = abs(log(now.zoom / limit))
            s = exp(log(s) * 0.35 / (1 + 8 * over))
        }
        var v = now.zoomed(by: s, about: p, picture: g.picture, canvas: g.canvas)
        let r = FlatView.elasticZoomRange
        v.zoom = min(max(v.zoom, r.lowerBound), r.upperBound)
        v = v.panned(dx: dx, dy: dy, picture: g.picture, canvas: g.canvas)
        flat = v
    }

    /// The pinch ended: a zoom past the limits settles back into 1×–4× (animated).
    public mutating func pinchEnded(t: Double, base: FlatView, geometry g: LayerGeometry) {
        guard var v = flat else { return }
        v.elastic = false
        v.zoom = min(max(v.zoom, FlatView.minZoom), FlatView.maxZoom)
        v.center = v.clampedCenter(picture: g.picture, canvas: g.canvas)
        animateFlat(to: v.zoom <= 1.0001 ? base : v, at: t, base: base)
    }

    /// A one-finger drag on a zoomed flat item: pans, clamped to the content.
    public mutating func pan(dx: Double, dy: Double, t: Double, base: FlatView, geometry g: LayerGeometry) {
        let now = flatView(at: t, base: base)
        guard now.zoom > 1.001 else { return }
        animation = nil
        var v = now.panned(dx: dx, dy: dy, picture: g.picture, canvas: g.canvas)
        v.elastic = false
        flat = v
    }

    /// A drag on a sphere: turns the view with the finger.
    public mutating func turn(dx: Double, dy: Double, t: Double, base: SphereView, canvas: PixelSize) {
        let now = sphereView(at: t, base: base, canvas: canvas)
        inertia = nil
        sphere = now.dragged(dx: dx, dy: dy, canvas: canvas)
    }

    /// A drag on a sphere ended moving at (vx, vy) pixels per second: the view coasts on, slowing down.
    public mutating func release(vx: Double, vy: Double, t: Double, base: SphereView, canvas: PixelSize) {
        let now = sphereView(at: t, base: base, canvas: canvas)
        sphere = now
        let yaw = -vx * now.hFOV / Double(max(1, canvas.width))
        let pitch = vy * now.vFOV / Double(max(1, canvas.height))
        inertia = abs(yaw) + abs(pitch) > 1 ? (yaw, pitch, t) : nil
    }

    /// A pinch (or wheel, or key) on a sphere: narrows or widens the field of view.
    public mutating func fov(scale: Double, t: Double, base: SphereView, canvas: PixelSize) {
        sphere = sphereView(at: t, base: base, canvas: canvas).zoomed(by: scale)
        if let i = inertia {
            let d = exp(-max(0, t - i.from) / Self.inertiaTime)
            inertia = (i.yaw * d, i.pitch * d, t)
        }
    }
}
