/// How one frame's overlays are laid out from `OverlayState` and the frame's `OverlayContext`, and when they
/// next change. Where things go (within the safe area, inset by `margin`):
/// - the clock at `--clock-position` (top right), the on-screen message top left (mpv's place); while a layout
///   plays and no position was asked, the first corner where it covers none of the layout's regions, else none;
/// - the caption centred at the top or bottom, up to 3 lines, 90 % of the width wide;
/// - `--clip-info` bottom left, the countdown bottom right, the progress bar along the bottom edge;
/// - for a sound file, the now-playing card (`NowPlayingCard.Layout`).
///
/// Captions with `--caption-time S` show fully for S seconds of the slot (pauses excluded), then fade out
/// linearly over `captionFade` seconds and are gone; turned on again by a tap during the slot, they show for
/// S seconds (of player time) from the tap, with the same fade. On-screen messages do not fade.
extension OverlayState {
    /// The corners the clock tries, in order, when a layout's regions are to be kept clear.
    public static let clockCorners: [OverlayAnchor] = [.topRight, .topLeft, .bottomRight, .bottomLeft]
    /// Margin between the safe area's edge and the texts, of the canvas height (the same in pixels across).
    public static let margin = 0.03
    /// Seconds a timed caption takes to fade out.
    public static let captionFade = 0.5
    /// Height of the progress bar, of the canvas height.
    public static let barHeight = 0.006
    /// Time step while something moves continuously (a fade, a bar): the scene is asked again this soon.
    public static let animationStep = 1.0 / 60

    /// What is overlaid at player time `t`, given what the player knows this frame.
    public func scene(at t: Double, context c: OverlayContext) -> OverlayScene {
        let safe = safeArea
        guard settings.enabled else { return OverlayScene(safeArea: safe) }
        let area = textArea(safe, canvas: c.canvas)
        var scene = OverlayScene(safeArea: safe)
        if let clock = settings.clock {
            var text = OverlayText(role: .clock, text: clock.text(at: c.now, in: c.timeZone), anchor: settings.clockPosition,
                                   area: area, sizeFraction: settings.osdSize, maxWidthFraction: 0.5, box: true)
            if !settings.clockPositionAsked && !c.regions.isEmpty {  // a layout's regions are not covered unless asked
                text.avoid = c.regions
                text.fallbacks = Self.clockCorners.filter { $0 != text.anchor }
            }
            scene.texts.append(text)
        }
        if let item = c.item {
            if let caption = captionText(item, at: t, area: area) { scene.texts.append(caption) }
            switch item.kind {
            case .sound:
                let card = NowPlayingCard(name: item.name, metadata: item.metadata, elapsed: item.slotTime,
                                          length: item.slotLength, hasArtwork: item.hasArtwork, canvas: c.canvas, safeArea: safe)
                scene.card = card
                scene.texts += card.texts
                scene.bars.append(card.bar)
            case .clip:
                if settings.clipInfo {
                    let title = item.metadata?.title ?? item.name
                    scene.texts.append(OverlayText(role: .clipInfo, text: "\(title)  \(DurationText.progress(item.slotTime, of: item.slotLength))",
                                                   anchor: .bottomLeft, area: area, sizeFraction: settings.osdSize * 0.8,
                                                   maxWidthFraction: 0.6, box: true))
                }
                if settings.progress == .countdown {
                    scene.texts.append(OverlayText(role: .countdown, text: DurationText.remaining(item.remaining), anchor: .bottomRight,
                                                   area: area, sizeFraction: settings.osdSize, maxWidthFraction: 0.3, box: true))
                }
            case .still:
                break
            }
            if settings.progress == .bar, item.kind != .sound {
                scene.bars.append(OverlayBar(role: .progress, rect: OverlayRect(x: safe.x, y: safe.maxY - Self.barHeight,
                                                                                 width: safe.width, height: Self.barHeight),
                                             filled: Self.fraction(item)))
            }
        }
        if let osd = osdText(at: t, item: c.item) {
            scene.texts.append(OverlayText(role: .osd, text: osd, anchor: .topLeft, area: area, sizeFraction: settings.osdSize,
                                           maxLines: 2, maxWidthFraction: 0.6, box: true))
        }
        return scene
    }

    /// The earliest player time after `t` at which `scene(at:context:)` may differ, with the clocks moving on
    /// from `context` (the wall clock and the slot's time), and no event or note in between; nil when nothing
    /// changes by itself. The player's loop may sleep until then.
    public func nextChange(after t: Double, context c: OverlayContext) -> Double? {
        guard settings.enabled else { return nil }
        var times: [Double] = []
        if let clock = settings.clock { times.append(t + clock.secondsToNextChange(after: c.now)) }
        if let m = message, t < m.endsAt {
            times.append(m.postedAt > t ? m.postedAt : m.endsAt)
            if m.followsSlotTime, let item = c.item, !item.paused { times.append(t + Self.toNextSecond(item.slotTime)) }
        }
        if let item = c.item {
            if let start = nextNoticeStart(item, at: t), start > t { times.append(start) }
            if let seconds = captions?.seconds, captionsShown, item.caption != nil {
                let age = captionAge(item, at: t)
                if age < seconds {
                    times.append(t + seconds - age)
                } else if age < seconds + Self.captionFade {
                    times.append(t + Self.animationStep)
                }
            }
            if !item.paused {
                let step = t + max(Self.animationStep, item.slotLength / Double(max(1, c.canvas.width)))
                switch item.kind {
                case .sound:
                    times += [t + Self.toNextSecond(item.slotTime), step]
                case .clip:
                    if settings.clipInfo { times.append(t + Self.toNextSecond(item.slotTime)) }
                    if settings.progress == .countdown, item.remaining > 0 {
                        times.append(t + item.remaining - (item.remaining.rounded(.up) - 1))
                    }
                    if settings.progress == .bar { times.append(step) }
                case .still:
                    if settings.progress == .bar { times.append(step) }
                }
            }
        }
        return times.filter { $0 > t && $0.isFinite }.min()
    }

    /// The part of the canvas overlays keep within: `--overscan` percent off each edge.
    public var safeArea: OverlayRect { settings.safeArea }

    // MARK: - parts

    /// The safe area less the margin (the same number of pixels on every side).
    private func textArea(_ safe: OverlayRect, canvas: PixelSize) -> OverlayRect {
        let aspect = Double(max(1, canvas.width)) / Double(max(1, canvas.height))
        return safe.inset(dx: Self.margin / aspect, dy: Self.margin)
    }

    /// The on-screen message's text at `t`: the newest message while it lasts, or (level 2) the next item's
    /// name in the slot's last seconds, whichever came later.
    private func osdText(at t: Double, item: OverlayContext.Item?) -> String? {
        let shown = message.flatMap { $0.shows(at: t) ? $0 : nil }
        if let item, let start = nextNoticeStart(item, at: t), start <= t, let name = item.nextName,
           shown.map({ $0.postedAt < start }) ?? true {
            return "Next: \(name)"
        }
        return shown?.text(item: item)
    }

    /// Level 2: the player time the next item's name starts to show in this slot (nil when it does not).
    private func nextNoticeStart(_ item: OverlayContext.Item, at t: Double) -> Double? {
        guard settings.osdLevel >= 2, item.nextName != nil, item.slotLength.isFinite, item.remaining > 0 else { return nil }
        return t - (item.slotTime - (item.slotLength - OverlaySettings.nextNoticeSeconds))
    }

    /// Seconds the caption has shown: the slot's time, or less when it was turned on again during the slot.
    private func captionAge(_ item: OverlayContext.Item, at t: Double) -> Double {
        guard let r = captionReveal, r.sequence == item.sequence else { return item.slotTime }
        return min(item.slotTime, t - r.at)
    }

    /// The caption as it shows at `t` in `area`, nil when none shows.
    private func captionText(_ item: OverlayContext.Item, at t: Double, area: OverlayRect) -> OverlayText? {
        guard let captions, captionsShown, let text = item.caption, !text.isEmpty else { return nil }
        var opacity = 1.0
        if let seconds = captions.seconds {
            let age = captionAge(item, at: t)
            if age >= seconds + Self.captionFade { return nil }
            if age > seconds { opacity = ((1 - (age - seconds) / Self.captionFade) * 1000).rounded() / 1000 }
        }
        return OverlayText(role: .caption, text: text, anchor: captions.position == .top ? .top : .bottom, area: area,
                           sizeFraction: settings.captionSize, opacity: opacity, maxLines: 3, maxWidthFraction: 0.9, box: true)
    }

    /// The slot's elapsed over its length, 0…1 (0 for an unbounded slot).
    static func fraction(_ item: OverlayContext.Item) -> Double {
        guard item.slotLength.isFinite, item.slotLength > 0 else { return 0 }
        return min(1, max(0, item.slotTime / item.slotLength))
    }

    /// Seconds from `time` to the next whole second.
    static func toNextSecond(_ time: Double) -> Double { time.rounded(.down) + 1 - time }
}
