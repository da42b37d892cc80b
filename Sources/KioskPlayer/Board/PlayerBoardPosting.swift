import Foundation
import KioskCore
import KioskMedia
import KioskOutput
import KioskRender

/// What the player tells remote-control servers: its status once a frame and its events, on its board (the
/// screenshots they ask for are the `FramePresenter`'s).
extension Player {
    /// Posts the status now (before the first frame: the playlist, settings and output), so a server started
    /// before `run` never shows an empty player.
    public func postStatusNow() {
        for screen in screens { screen.postStatus(scene: nil) }
    }
}

extension Screen {
    /// Posts the status as of this frame (`scene`: what is on screen, if anything) to the board.
    func postStatus(scene: Scene?) {
        guard let output = presenter?.output else { return }
        var s = PlayerStatus()
        s.playlist = show.playlist.snapshot
        s.currentID = show.currentID
        s.pauseReasons = show.pauseReasons
        (s.volume, s.mute) = sound.level
        s.idle = show.isIdle
        s.finished = show.isFinished && !show.isIdle
        s.loop = show.options.loop
        s.shuffle = show.options.shuffle
        s.imageDuration = show.options.duration
        s.transition = show.options.transition.description
        s.transitionTime = show.options.transitionTime
        s.displayWidth = output.target.size.width
        s.displayHeight = output.target.size.height
        s.displayFPS = output.refreshInterval.map { 1 / $0 }
        s.effect = effects.spec?.description
        s.effectSplit = effects.split(at: frameTime)
        s.output = output.name
        s.rotation = output.rotation.rawValue
        s.screenOn = !screenOff
        s.tvPower = tvPower
        s.playStats = services.playStats
        s.alert = alertMode?.alert
        s.content = fetched.control.status  // this screen's fetcher's, left on its thread (it wakes the loop when it changes)
        s.health = services.health?.report  // left by the monitor's thread (it wakes the loop when it reads)
        s.screenView = grid.isOpen ? .grid : .slideshow
        s.gridFilter = grid.filter
        s.gridFocus = grid.focusedPath
        if let layout = layoutMode {
            s.layout = layout.screen.file.document.file
            s.regions = layout.regions(at: frameTime)
            if layout.endsSlot == nil {  // the layout plays instead of the playlist: it is what plays
                s.idle = false
                s.finished = false
                // its pass's length; no position (the loop rests between the layout's changes, so a time posted
                // at the last turn would stand still on the board)
                let pass = layout.screen.timeline.duration
                s.duration = pass.isFinite && pass > 0 ? pass : nil
            }
        }
        if let scene {
            let slot = scene.current
            if let item = cache.item(slot.id) {
                s.itemWidth = item.info.width
                s.itemHeight = item.info.height
                s.itemKind = item.info.kind.rawValue
            }
            if let p = playing {
                s.timePosition = p.position
                s.duration = p.length > 0 ? p.length : slot.length
            } else {
                s.timePosition = scene.currentTime
                s.duration = slot.length.isFinite ? slot.length : nil
            }
            s.projection = composer?.projection(ofSlot: slot.sequence) ?? "flat"
            s.view = viewControl.status(at: scene.currentTime) ?? PlayerStatus.View()
        }
        if layoutMode == nil {  // the slideshow is the one-region layout: region main shows the playlist's item
            s.regions = SlideshowLayout.status(path: scene?.current.path ?? show.currentID.flatMap { show.playlist.item($0)?.path },
                                               time: scene == nil ? 0 : s.timePosition ?? 0)
        }
        events.post(s)  // and this frame's commands get their answers
        // the health alerts raised and cleared since the last post, after the status whose report holds them
        if let changes = services.health?.takeAlertChanges(forScreen: name), !changes.isEmpty {
            events.board.post(changes.map { .healthAlert($0) })
        }
    }
}
