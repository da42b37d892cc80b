import Foundation
import KioskCore
import KioskMedia
import KioskOutput
import KioskRender

/// Draws frames and shows them: the one place the player draws, takes screenshots, presents, counts frames and
/// waits (kmscube's draw-then-flip; mpv's `draw_frame`, `flip_page` and `wait_events`). Every mode's frames,
/// `record`'s and the snapshots' come through here.
///
/// The redraw test lives here and only here: a frame is drawn when its key differs from the frame on screen,
/// when the output came back after being lost, when the output wants every frame (a recorder), or when a
/// screenshot waits for it.
final class FramePresenter {
    /// Where frames go.
    let output: Output
    private let renderer: Renderer
    private let clock: Clock
    private let log: Log
    /// Frames that reached the screen.
    private(set) var presented = 0
    /// The clock's time when the first frame had been presented, if one was.
    private(set) var firstFrameTime: Double?
    /// Called once, right after the first frame has been presented.
    var onFirstFrame: (() -> Void)?
    private var pendingScreenshots: [PendingScreenshot] = []
    /// Proof thumbnails asked for (`thumbnail`): each answered from the next settled frame drawn.
    private var thumbnailWaiters: [(RGBAImage?) -> Void] = []
    /// Frames drawn in a change while thumbnails wait: at `thumbnailPatience` the next is read whatever it shows.
    private var thumbnailWait = 0
    /// Frames a thumbnail waits for a change to end (4 s at 60 Hz).
    static let thumbnailPatience = 240
    /// Reads them (made at the first).
    private var thumbnails: ThumbnailReadback?
    /// The waiters of the readback under way, and the frames drawn since it began.
    private var thumbnailReading: (waiters: [(RGBAImage?) -> Void], frames: Int)?
    /// Frames a readback is left to the GPU before the CPU waits for it (at most `thumbnailWaitLimit` seconds).
    static let thumbnailFrames = 8
    static let thumbnailWaitLimit = 0.1
    /// The size of a proof thumbnail.
    static let thumbnailSize = PixelSize(width: 32, height: 18)
    /// The key of the frame on screen, and the output's generation it was shown in.
    private var onScreen: (key: FrameKey, generation: Int)?

    /// What became of a frame handed to `show`.
    enum Outcome: Equatable {
        /// It was drawn and reached the screen.
        case shown
        /// It looks like the frame on screen: nothing was drawn.
        case unchanged
        /// It was drawn but is not on screen (a flip still pending): the next turn tries again.
        case notShown
        /// The display is lost: nothing was drawn.
        case unavailable
    }

    /// A presenter drawing into `output` with `renderer`, counting on `clock`.
    init(output: Output, renderer: Renderer, clock: Clock, log: Log) {
        self.output = output
        self.renderer = renderer
        self.clock = clock
        self.log = log
    }

    /// A presenter over a headless output of `size`, for frames that are only read back (snapshots).
    static func headless(size: PixelSize, log: Log) throws -> FramePresenter {
        let output = try HeadlessOutput(size: size, pacing: nil)
        return FramePresenter(output: output, renderer: try Renderer(context: output.context, log: log),
                              clock: VirtualClock(), log: log)
    }

    /// Whether this turn must draw even a frame that did not change: the output records every frame, or a
    /// screenshot waits.
    var wantsFrame: Bool {
        output.needsEveryFrame || !pendingScreenshots.isEmpty || !thumbnailWaiters.isEmpty || thumbnailReading != nil
    }

    /// Forgets the frame on screen, so the next one is drawn whatever its key (a mode took over the screen).
    func forget() { onScreen = nil }

    /// Draws the frame `draw` builds, unless `key` says it is the frame on screen; then takes the screenshots
    /// asked for from it and presents it. `draw` is only called when the frame is drawn.
    func show(key: FrameKey, draw: () throws -> RenderFrame) throws -> Outcome {
        guard output.isAvailable else { return .unavailable }
        if let shown = onScreen, shown.key == key, shown.generation == output.generation, !wantsFrame { return .unchanged }
        let frame = try draw()
        try renderer.draw(frame, into: output.target, rotation: output.rotation)
        takeScreenshots()
        collectThumbnails()
        takeThumbnails(settled: frame.isSettled)
        // the output feeds its own presentation clock with the flip (DRM); here frames are only counted
        guard case .shown = try output.present() else { return .notShown }
        onScreen = (key, output.generation)
        presented += 1
        if presented == 1 {
            firstFrameTime = clock.now
            onFirstFrame?()
        }
        return .shown
    }

    /// Waits until `deadline` on the clock (nil: about the next frame), or less: a command, input or a
    /// producer's wakeup ends the wait at once.
    func wait(until deadline: Double?) { output.wait(until: deadline, on: clock) }

    /// Draws `frame` and reads it back, without presenting it: what snapshots write.
    func capture(_ frame: RenderFrame) throws -> RGBAImage {
        try renderer.draw(frame, into: output.target, rotation: .none)
        return try output.target.readPixels()
    }

    /// Asks for a screenshot of the next frame drawn, written to `path`; `reply` is answered once it is.
    func screenshot(to path: String, reply: CommandInbox.Reply?) {
        pendingScreenshots.append(PendingScreenshot(path: path, reply: reply))
    }

    /// Asks for a proof thumbnail (`thumbnailSize`) of the next settled frame drawn (`RenderFrame.isSettled`: the
    /// transition into the item over, so a picture shown again gives the same thumbnail and the play log stores it
    /// once): `done` gets it on this thread, after the frame is drawn and before it is presented (nil when it could
    /// not be read).
    func thumbnail(_ done: @escaping (RGBAImage?) -> Void) {
        thumbnailWaiters.append(done)
    }

    /// Begins reading the thumbnail asked for from the frame just drawn (a blit into 32×18 pixels, 2 KB read back
    /// behind a fence: `ThumbnailReadback`), unless one is under way; `collectThumbnails` answers it.
    private func takeThumbnails(settled: Bool) {
        guard !thumbnailWaiters.isEmpty, thumbnailReading == nil else { return }
        if !settled, thumbnailWait < Self.thumbnailPatience {
            thumbnailWait += 1
            return
        }
        thumbnailWait = 0
        let waiters = thumbnailWaiters
        thumbnailWaiters.removeAll()
        let reader = thumbnails ?? ThumbnailReadback(context: output.context, size: Self.thumbnailSize)
        thumbnails = reader
        do {
            try reader.begin(output.target)
            thumbnailReading = (waiters, 0)
        } catch {
            log.debug("proof thumbnail: \(error)")
            for w in waiters { w(nil) }
        }
    }

    /// Answers the readback under way once the GPU has written it: looked at each frame drawn without waiting, and
    /// waited for (`thumbnailWaitLimit`) only after `thumbnailFrames` frames.
    private func collectThumbnails() {
        guard let reading = thumbnailReading, let reader = thumbnails else { return }
        let late = reading.frames >= Self.thumbnailFrames
        var image: RGBAImage?
        do {
            image = try reader.collect(waiting: late ? Self.thumbnailWaitLimit : 0)
        } catch {
            log.debug("proof thumbnail: \(error)")
        }
        if image == nil, !late, reader.isReading {
            thumbnailReading?.frames += 1
            return
        }
        if image == nil { reader.cancel() }  // the GPU took more than the frames and the wait: that frame is let go
        thumbnailReading = nil
        for w in reading.waiters { w(image) }
    }

    /// Answers every screenshot still waiting with `why` (the player stopped).
    func dropScreenshots(_ why: String) {
        for s in pendingScreenshots { s.reply?(.failed(why)) }
        pendingScreenshots.removeAll()
    }

    /// Takes the screenshots asked for from the frame just drawn (before it is presented): the pixels are read
    /// here, on the render thread; the PNG is encoded and written on a background thread, which answers each.
    private func takeScreenshots() {
        guard !pendingScreenshots.isEmpty else { return }
        let shots = pendingScreenshots
        pendingScreenshots.removeAll()
        let image: RGBAImage
        do {
            image = try output.target.readPixels()
        } catch {
            for s in shots { s.reply?(.failed("screenshot: \(error)")) }
            return
        }
        let log = self.log
        let thread = Thread {
            for s in shots {
                do {
                    try ScreenshotWriter.write(image, to: s.path)
                    log.info("screenshot: \(s.path) (\(image.size))")
                    s.reply?(.done())
                } catch {
                    log.warn("screenshot: \(error)")
                    s.reply?(.failed("\(error)"))
                }
            }
        }
        thread.name = "kiosk-screenshot"
        thread.start()
    }
}

/// What a frame looks like, for the redraw test: any mode's own equatable key (its pictures' frames, its
/// overlays), compared only with keys of the same type.
struct FrameKey: Equatable {
    private let value: Any
    private let equals: (Any) -> Bool

    /// The key `key`.
    init<Key: Equatable>(_ key: Key) {
        value = key
        equals = { ($0 as? Key) == key }
    }

    static func == (a: FrameKey, b: FrameKey) -> Bool { a.equals(b.value) }
}

/// A screenshot asked for and not taken yet.
struct PendingScreenshot {
    let path: String
    let reply: CommandInbox.Reply?
}
