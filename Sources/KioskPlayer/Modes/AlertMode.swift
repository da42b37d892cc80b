import Foundation
import KioskCore
import KioskRender

/// The turn while an emergency alert has the screen: over everything (a layout, the slideshow, the grid, a
/// schedule's screen off), white text on deep red (about 7:1 contrast), large, with the time above it and the
/// alert's picture, if it has one, at the top. The slideshow is held (pause reason `alert`) and a layout's clock
/// stops, so both resume where they were when it ends: when it is cleared, or at its end on the wall clock.
final class AlertMode: PlayerMode {
    let name = "alert"
    private unowned let screen: Screen
    /// The alert.
    let alert: EmergencyAlert
    /// Its picture, decoded once (through the media gate: beneath `--media-root` when one is set).
    private let picture: RGBAImage?
    private var pictureTexture: Texture?

    /// The background: #A00000.
    static let red = RGBColor(red: 0.63, green: 0, blue: 0)

    init(screen: Screen, alert: EmergencyAlert) {
        self.screen = screen
        self.alert = alert
        let size = screen.config.size
        picture = alert.image.flatMap {
            IdlePicture.load($0, canvas: PixelSize(width: size.width, height: size.height * 2 / 5), timeout: screen.config.decodeTimeout,
                             log: screen.log, what: "alert image", instead: "the alert shows without it")
        }
    }

    /// No sound while it shows (a screen off beneath it lights the display: `ScreenOffMode.covered`).
    func takesScreen() {
        screen.sound.pause(true)
    }

    func turn(at t: Double) throws -> ModeTurn {
        let p = screen
        let wall = p.services.wallClock.at(t)
        guard alert.isOn(at: wall.timeIntervalSince1970) else {
            p.endAlert("its time is up", at: t)
            return .rest(.none)
        }
        p.postStatus(scene: nil)
        let size = p.config.size
        var frame = RenderFrame(background: Self.red, layers: [])
        if let picture, let context = p.presenter?.output.context {
            let texture = try pictureTexture ?? Texture(context: context, image: picture)
            pictureTexture = texture
            let area = PixelRect(x: 0, y: size.height / 20, width: size.width, height: size.height * 2 / 5)
            let pass = FlatPass(transform: FlatView(fit: .contain).transform(picture: texture.size, canvas: area.size))
            frame.layers.append(RenderLayer(texture: texture, pass: pass, rect: area))
        }
        let clock = Self.clockText(wall, zone: p.services.wallClock.zone)
        if let painter = p.overlayPainter {
            let top = picture == nil ? 0.04 : 0.47
            let texts = [
                OverlayText(role: .clock, text: clock, anchor: .top, area: UnitRect(x: 0.05, y: top, width: 0.9, height: 0.12),
                            sizeFraction: 0.07, maxLines: 1, maxWidthFraction: 0.9, box: false),
                OverlayText(role: .osd, text: alert.text, anchor: .centre,
                            area: UnitRect(x: 0.05, y: top + 0.12, width: 0.9, height: 0.96 - top - 0.12),
                            sizeFraction: picture == nil ? 0.085 : 0.065, maxLines: 6, maxWidthFraction: 0.9, box: false),
            ]
            frame.overlays = try painter.overlays(for: OverlayScene(texts: texts), canvas: size)
        }
        // again at the next minute (the clock) or at the alert's end, whichever comes first
        let second = wall.timeIntervalSince1970
        let nextMinute = t + (60 - second.truncatingRemainder(dividingBy: 60))
        let end = alert.until.map { t + ($0.secondsSince1970 - second) } ?? .infinity
        var rest = Rest.until(min(p.wakeTime(min(nextMinute, end)), end))
        if let untimed = p.untimedClock { rest = .then(.none, { untimed.advance(by: 1.0 / 30) }) }
        return .frame(ModeFrame(pictures: frame, key: FrameKey("alert \(alert.text) \(clock) \(picture != nil)"), overlaid: false,
                                shown: p.presenter?.output.needsEveryFrame == true ? .none : rest, unchanged: rest, notShown: rest))
    }

    /// `HH:MM` on the wall clock in `zone`.
    static func clockText(_ date: Date, zone: TimeZone) -> String {
        let (_, second) = LocalClock.wallClock(of: date, in: zone)
        let s = Int(saturating: second, rounding: .down)
        return String(format: "%02d:%02d", s / 3600, s / 60 % 60)
    }
}

extension Screen {
    /// Runs an alert command at player time `t`: shows the alert (replacing one on screen) or clears it.
    func runAlert(_ request: AlertRequest, at t: Double) -> CommandReply {
        guard !request.clears, let text = request.text else {
            guard alertMode != nil else { return .done() }
            endAlert("cleared", at: t)
            return .done()
        }
        if let s = request.seconds, s.seconds <= 0 { return .failed("alert: \(s.seconds) is not a number of seconds above 0") }
        let until = request.seconds.map { WallInstant(clamping: services.wallClock.at(t)).adding($0) }
        startAlert(EmergencyAlert(text: text, until: until, image: request.image), at: t)
        return .done()
    }

    /// The alert takes the screen from the next turn, over every other mode: beneath it the slideshow is held and
    /// a layout's clock stops (`covered`).
    func startAlert(_ alert: EmergencyAlert, at t: Double) {
        modes.push(AlertMode(screen: self, alert: alert), as: .alert, at: t)
        publish([.alert(alert)])
        let end = alert.until.map { " until " + Self.wallText($0.date, zone: services.wallClock.zone) } ?? " until cleared"
        log.warn("alert: \"\(alert.text.replacingOccurrences(of: "\n", with: " / "))\"\(end)")
    }

    /// The alert ends: the screen goes back to what it showed (off again, if a schedule had it off), and the
    /// slideshow and a layout go on where they were.
    func endAlert(_ why: String, at t: Double) {
        guard alertMode != nil else { return }
        log.warn("alert: ends: \(why)")
        publish([.alert(nil)])
        modes.pop(.alert, at: t)  // what it covered goes on (`uncovered`)
        sound.pause(false)
    }

    private static func wallText(_ date: Date, zone: TimeZone) -> String {
        let (day, second) = LocalClock.wallClock(of: date, in: zone)
        let s = Int(saturating: second, rounding: .down)
        return "\(day) " + String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
    }
}
