import KioskCore

/// How the loop paces itself after a frame: the presentation log of clip frames (debug), and `--untimed`'s clock
/// that jumps to the next frame as soon as it is decoded.
extension Screen {
    /// The presentation log (debug): each clip frame's time against the clock and the audio clock.
    func logPresentation(_ scene: Scene) {
        guard log.level >= .debug, let p = playing, let pts = composer?.shownPTS[scene.current.sequence] else { return }
        let heard = sound.clock(for: scene.current.sequence).map { String(format: "%.4f", $0) } ?? "none"
        log.debug("presented \(p.path) frame \(String(format: "%.4f", pts)) s at clock \(String(format: "%.4f", clock.now)) s, audio \(heard) s")
    }

    /// `--untimed`: moves the clock straight to the next video frame's time once it is decoded; past a still's
    /// slot (or in 1/30 s steps through a transition) when no clip is playing.
    func advanceUntimed(_ clock: VirtualClock, scene: Scene, playing: PlayingClip?) {
        let left = scene.current.length - scene.currentTime
        if scene.outgoing == nil, let p = playing {
            let now = p.clip.startTime + scene.currentTime
            if let next = p.clip.peekFrame(timeout: config.decodeTimeout), next.pts > now {
                clock.advance(by: min(next.pts - now, max(left, 1e-6)))
            } else if p.clip.isFinished && p.clip.failure == nil {
                clock.advance(by: max(left, 1e-6))
            }  // a broken clip: the next turn ends its item (`endsEarly`)
            return
        }
        if scene.outgoing == nil && left > config.slideshow.transitionTime {
            clock.advance(by: max(1e-6, left - config.slideshow.transitionTime))
        } else {
            clock.advance(by: 1.0 / 30)
        }
    }
}
