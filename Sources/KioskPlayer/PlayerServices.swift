import Foundation
import KioskCore

/// What every screen of a player shares, once, beside the screens: the log, the first screen's sound (the audio
/// device every screen without one of its own shares), the command inbox, the
/// layouts read off the loop, the producers and the wall clock, and the run's own settings. A `Screen` holds it and reads
/// what it uses; nothing here knows of a screen.
final class PlayerServices {
    /// Where lines go.
    let log: Log
    /// The sound of the first screen's item: the player's audio device (`--audio-device`).
    let sound: ItemSound
    /// Where long clips were left.
    let resume: ResumeBook
    /// Whether clips come as planes (the shader converts) or RGBA (swscale on the decode thread).
    let videoFrames: VideoFrameChoice
    /// Where every command comes in; send from any thread.
    let inbox = CommandInbox()
    /// Layouts read off the loop, and the playlist's layout items read ahead (a fetcher's swaps are each screen's).
    let intake = ContentIntake()
    /// Asked once a turn for commands, and for when they next need a turn (schedules, the play log).
    var producers: [LoopProducer] = []
    /// Producers whose commands are for one screen (a further screen's own schedule), with its name.
    var screenProducers: [(screen: String, producer: LoopProducer)] = []
    /// The local wall clock item windows are judged by: the instant at a player time, and the time zone.
    var wallClock: (at: (Double) -> Date, zone: TimeZone) = ({ _ in Date() }, .current)
    /// With a virtual clock the player waits for decodes instead of holding the current item, so the result is
    /// the same however fast the machine is.
    let waitForDecodes: Bool
    /// Whether items' sound goes to the audio device (false for `record`, which only notes where it plays).
    var playsSound = true
    /// Whether an empty (or wholly unplayable) playlist idles, waiting for commands to bring items, instead of
    /// ending the run.
    var keepsRunningWhenEmpty = false
    /// How the run ends: a `quit` command, and the player time `run(length:)` stops at.
    var run = RunLimits()
    /// Today's figures from the play log (nil: none is kept).
    var playStats: PlayStats?
    /// The health monitor, when one runs: each status carries its latest report.
    var health: HealthMonitor?

    /// Services with `log`, `sound` and the decode settings; the rest starts empty.
    init(log: Log, sound: ItemSound, resume: ResumeBook, videoFrames: VideoFrameChoice, waitForDecodes: Bool) {
        self.log = log
        self.sound = sound
        self.resume = resume
        self.videoFrames = videoFrames
        self.waitForDecodes = waitForDecodes
    }

    /// The earliest producer deadline, capped at `limit`.
    func producerDeadline(_ limit: Double) -> Double {
        (producers + screenProducers.map(\.producer)).compactMap(\.deadline).reduce(limit) { min($0, $1) }
    }

    /// Runs the producers' turns at `t`: their commands join the inbox ahead of the next drain.
    func turnProducers(at t: Double) {
        for p in producers {
            for c in p.turn(at: t) { inbox.queueFromLoop(c) }
        }
        for (screen, p) in screenProducers {
            for c in p.turn(at: t) { inbox.queueFromLoop(c, toScreen: screen) }
        }
    }
}

/// How a run ends besides its playlist: a `quit` command, or the length it was given.
struct RunLimits {
    /// Set by a `quit` command.
    var quitRequested = false
    /// The player time `run(length:)` stops at (nil: none): no rest goes past it.
    var end: Double?
}

/// Content that comes in besides the playlist's own items, shared by the screens (each read is kept by its file's
/// path): SMIL files a remote asked to load, read off the frame loop; the playlist's layout items, read ahead on the
/// decode threads. What a content fetcher brings is each screen's own (`Screen.fetched`, `FetchedContent`). Each
/// part is thread-safe.
final class ContentIntake {
    /// SMIL files a remote asked to load, read off the frame loop (`LayoutLoads`).
    let layoutLoads = LayoutLoads()
    /// The playlist's layout items, read ahead on the decode threads (`LayoutItemReads`).
    let layoutItems = LayoutItemReads()
}

/// Where a screen's events go: its observers, in order, and the board remote-control servers read (with the
/// answers to this frame's commands, given once the status they changed is posted).
final class PlayerEvents {
    /// Called on the player's thread for every event, in order.
    private(set) var observers: [(PlayerEvent) -> Void] = []
    /// Where status and events are posted for remote-control servers (one made before the player, so a server can
    /// bind first, may be set before `run`).
    var board = PlayerBoard()
    /// Answers to this frame's commands, given once the status they changed has been posted, so that a remote
    /// client reading a property right after its command sees the change.
    private var answers: [(CommandInbox.Reply, CommandReply)] = []

    /// Adds an observer.
    func observe(_ observer: @escaping (PlayerEvent) -> Void) { observers.append(observer) }

    /// Hands `events` to every observer, in order, then to the board, a failed item's reason filled in from
    /// `failure` (its decode's).
    func tell(_ events: [PlayerEvent], failure: (ItemID) -> String?) {
        for e in events {
            for o in observers { o(e) }
        }
        board.post(events.map { e in
            guard case .itemFailed(let id, let path, _) = e, let why = failure(id) else { return e }
            return .itemFailed(id, path: path, reason: why)
        })
    }

    /// `answer` goes to `reply` once this frame's status is posted.
    func answer(_ reply: @escaping CommandInbox.Reply, with answer: CommandReply) { answers.append((reply, answer)) }

    /// Posts `status`, then gives this frame's commands their answers.
    func post(_ status: PlayerStatus) {
        board.post(status)
        answerCommands()
    }

    /// Gives this frame's commands their answers (after the status they changed is on the board).
    func answerCommands() {
        let due = answers
        answers.removeAll()
        for (reply, answer) in due { reply(answer) }
    }
}
