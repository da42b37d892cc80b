import Foundation
import KioskCore
import KioskRemote

/// What the fleet needs from the rest of kiosk, passed in so this target depends on the core alone.
public struct FleetServices: Sendable {
    /// The items a `load` names (a local file, folder or playlist), through the same media gate as IPC's
    /// loadfile; throws the reason it is refused.
    public var load: @Sendable (String) throws(FleetRefusal) -> [PlaylistItem]
    /// The schedule's targets, by the names the `playlist` command and Home Assistant's select use.
    public var playlists: [FleetPlaylist]
    /// The play log, for the `stats` topic.
    public var reports: PlayReports
    /// IPC's media gate, for the mpv command table that turns the fleet's commands into player commands (MQTT's
    /// own commands name no local file through it: a `load` goes through `load`).
    public var gate: MediaGate

    /// Services.
    public init(load: @escaping @Sendable (String) throws(FleetRefusal) -> [PlaylistItem], playlists: [FleetPlaylist],
                reports: PlayReports = PlayReports(), gate: MediaGate) {
        self.load = load
        self.playlists = playlists
        self.reports = reports
        self.gate = gate
    }
}

/// One of the schedule's targets as the fleet names it.
public struct FleetPlaylist: Sendable, Equatable {
    /// The name (`morning` for a folder `/media/morning`, `ads` for `ads.m3u`).
    public var name: String
    /// The folder or playlist file.
    public var path: String
    /// A target.
    public init(name: String, path: String) {
        self.name = name
        self.path = path
    }
}

/// This kiosk as a member of a fleet: an MQTT client (libmosquitto) that turns messages on `kiosk/ID/cmd/…` into
/// commands in the player's inbox, and publishes the player's board: retained state and availability, events,
/// Home Assistant discovery, and camera pictures on request. It works on a thread of its own; libmosquitto's
/// network thread and the player's thread only leave news in its mailbox.
public final class FleetClient: @unchecked Sendable {
    private let settings: FleetSettings
    private let topics: FleetTopics
    private let board: PlayerBoard
    private let services: FleetServices
    private let log: Log
    private let mailbox = FleetMailbox()
    private let connection: BrokerConnection
    private let camera: FleetCamera
    /// IPC's command table: the mpv command arrays a message becomes, as player commands.
    private let translator: MPVCommandTranslator
    private let ended = DispatchSemaphore(value: 0)
    private var started = false
    /// Starts one of the schedule's targets (the schedule's driver plays it at its next turn); set before `start`.
    private var choosePlaylist: (@Sendable (String) -> Void)?

    // The fleet thread's own state.
    private var sink: CommandSink?
    private var subscription: BoardSubscription?
    private var connected = false
    /// Whether this outage has had its one warning.
    private var warned = false
    /// This outage's warning was the time-out one, before any attempt said why (a slow first attempt).
    private var reasonUntold = false
    /// When to warn that the broker was never reached (monotonic seconds).
    private var unreachableDeadline: Double?
    private var status = PlayerStatus()
    private var counters = FleetCounters()
    private var publishedState: String?
    /// The health report and its alerts' changes.
    private var health: FleetHealth
    /// When the stats are next published: the top of the next local hour (monotonic seconds).
    private var nextStats: Double?

    /// Seconds without a connection after which the one warning is written.
    static let unreachableWarning = 5.0

    /// A client for `settings` reading `board`; with `screen`, a screen after the first of a kiosk with several, on
    /// `kiosk/ID/screen/NAME/…` with a connection (and last will) of its own. Nothing connects until `start`.
    public init(settings: FleetSettings, board: PlayerBoard, services: FleetServices, screen: String? = nil, log: Log) throws(FleetError) {
        self.settings = settings
        self.board = board
        self.services = services
        self.log = log
        topics = FleetTopics(id: settings.id, screen: screen)
        health = FleetHealth(topics)
        let endpoint = BrokerConnection.Endpoint(host: settings.host, port: settings.port,
                                                 clientID: "kiosk-\(settings.id)" + (screen.map { "-\($0)" } ?? ""),
                                                 keepalive: settings.keepalive, username: settings.username,
                                                 password: settings.password, tlsCAFile: settings.tlsCAFile)
        connection = try BrokerConnection(endpoint, will: .init(topic: topics.availability, payload: "offline"),
                                          events: mailbox)
        camera = try FleetCamera()
        translator = MPVCommandTranslator(board: board, gate: services.gate, log: log)
    }

    /// `playlist` commands start a target through `choose` (the schedule's driver, which plays it as its own until
    /// its next edge); call before `start`.
    public func choosePlaylists(through choose: @escaping @Sendable (String) -> Void) {
        choosePlaylist = choose
    }

    /// The topics' root, `kiosk/ID`.
    public var baseTopic: String { topics.base }

    /// Connects (in the background: an unreachable broker is one warning, and playback goes on) and serves the
    /// fleet, sending commands to `sink`.
    public func start(sending sink: CommandSink) throws(FleetError) {
        guard !started else { return }
        self.sink = sink
        let mailbox = self.mailbox
        subscription = board.subscribe(wake: { mailbox.boardHasNews() })
        status = board.status
        unreachableDeadline = MonotonicClock.seconds() + Self.unreachableWarning
        try connection.start()
        started = true
        let thread = Thread { [self] in
            run()
            ended.signal()
        }
        thread.name = "kiosk-mqtt"
        thread.start()
    }

    /// The schedule started playing `paths` (one target, the command line's paths, or none while off); any thread.
    public func schedulePlays(_ paths: [String]) {
        let name = paths.count == 1 ? services.playlists.first(where: { $0.path == paths[0] })?.name : nil
        mailbox.post(.schedulePlays(name))
    }

    /// Says `offline`, leaves the broker and ends the thread (bounded).
    public func stop() {
        defer { camera.remove() }
        guard started else { return }
        started = false
        mailbox.stop()
        if ended.wait(timeout: .now() + 5) == .timedOut { log.warn("mqtt: the client did not stop within 5 s") }
        connection.stop()
    }

    // MARK: - the fleet's thread

    private func run() {
        while true {
            let (news, boardNews, stop) = mailbox.take(until: [unreachableDeadline, nextStats].compactMap { $0 }.min())
            for n in news { handle(n) }
            if boardNews { takeBoard() }
            publishState()
            if let due = nextStats, MonotonicClock.seconds() >= due { publishStats(why: nil) }
            if let due = unreachableDeadline, MonotonicClock.seconds() >= due { warnUnreachable(nil) }
            if stop { break }
        }
        subscription?.cancel()
        goodbye()
    }

    private func handle(_ news: FleetMailbox.News) {
        switch news {
        case .connected:
            connected = true
            warned = false
            unreachableDeadline = nil
            log.info("mqtt: connected to \(settings.host):\(settings.port) as \(topics.base)")
            announce()
        case .refused(let why):
            if !warned { log.warn("mqtt: the broker at \(settings.host):\(settings.port) refused \(topics.base): \(why)") }
            warned = true
        case .unreachable(let why):
            warnUnreachable(why)
        case .lost(let why):
            connected = false
            if !warned {
                log.warn("mqtt: lost the broker at \(settings.host):\(settings.port) (\(why)): playing on, reconnecting in the background")
            }
            warned = true
        case .message(let topic, let payload):
            receive(topic, payload)
        case .oversized(let topic, let bytes):
            counters.received += 1
            log.warn("mqtt: \(topic): refused: a payload of \(bytes) bytes is over \(FleetRequest.maxPayload / 1024) KiB (dropped unread)")
        case .published:
            break
        case .replied(let topic, let reply):
            switch reply {
            case .done:
                counters.applied += 1
                log.debug("mqtt: \(topic): done")
            case .failed(let why):
                log.info("mqtt: \(topic): \(why)")
            }
        case .snapshot(let reply, let path):
            do {
                let jpeg = try camera.taken(reply, path: path)
                connection.publish(topics.camera, jpeg, retain: true)
                log.info("mqtt: snapshot: \(jpeg.count) bytes on \(topics.camera)")
            } catch {
                log.warn("mqtt: \(error)")
            }
        case .schedulePlays(let name):
            counters.playlist = name
        }
    }

    /// One warning for this outage: `why` the first attempt failed, or that none succeeded in time.
    private func warnUnreachable(_ why: String?) {
        unreachableDeadline = nil
        guard !warned else {
            if reasonUntold, let why {  // the reason the warning could not give, once, as info
                reasonUntold = false
                log.info("mqtt: still cannot reach the broker at \(settings.host):\(settings.port) (\(why))")
            }
            return
        }
        warned = true
        reasonUntold = why == nil
        let reason = why.map { " (\($0))" } ?? " within \(Int(saturating: Self.unreachableWarning, rounding: .towardZero)) s"
        log.warn("mqtt: cannot reach the broker at \(settings.host):\(settings.port)\(reason): playing on, trying again in the background")
    }

    /// On every (re)connection: subscribe, say `online`, publish discovery and the state.
    private func announce() {
        if !connection.subscribe(topics.commands) { log.warn("mqtt: cannot subscribe to \(topics.commands)") }
        connection.publish(topics.availability, Array("online".utf8), retain: true)
        for config in HomeAssistantDiscovery.configs(topics, playlists: services.playlists.map(\.name)) {
            connection.publish(config.topic, Array(config.json.text.utf8), retain: true)
        }
        publishedState = nil
        health.reconnected()
        publishState()
        publishStats(why: nil)
    }

    /// Today's figures on the stats topic (retained), and the next publication set for the top of the next hour in
    /// the play log's zone (the player's `--timezone`, so a half-hour zone publishes at its own whole hours);
    /// `why` a request (its topic), answered with a log line. Without a play log there is nothing to publish.
    private func publishStats(why request: String?) {
        let now = Date()
        nextStats = services.reports.available ? MonotonicClock.seconds() + Self.secondsToNextHour(after: now, in: services.reports.zone) : nil
        guard connected else { return }
        do throws(PlayReportRefusal) {
            let json = try services.reports.today(at: now)
            connection.publish(topics.stats, Array(json.text.utf8), retain: true)
            if let request { log.info("mqtt: \(request): today's figures on \(topics.stats)") }
        } catch {
            if let request { log.warn("mqtt: \(request): refused: \(error)") } else { log.debug("mqtt: stats: \(error)") }
        }
    }

    /// Seconds from `now` to the next whole hour on the local clock of `zone` (a zone half an hour off UTC too).
    static func secondsToNextHour(after now: Date, in zone: TimeZone) -> Double {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let next = calendar.nextDate(after: now, matching: DateComponents(minute: 0, second: 0), matchingPolicy: .nextTime)
        return max(1, next.map { $0.timeIntervalSince(now) } ?? 3600)
    }

    /// A message on our subscription: checked, then run.
    private func receive(_ topic: String, _ payload: [UInt8]) {
        guard let command = topics.command(in: topic) else {
            log.debug("mqtt: ignored a message on \(topic): not under \(topics.commandPrefix)")
            return
        }
        counters.received += 1
        do throws(FleetRefusal) {
            switch try FleetRequest.parse(command, payload: payload) {
            case .mpv(let requests):
                // all or nothing: a message runs once every command of it is a player command the table takes
                var commands: [PlayerCommand] = []
                for request in requests {
                    do throws(MPVCommandRefusal) {
                        commands += try translator.commands(request)
                    } catch {
                        throw FleetRefusal(error.description)
                    }
                }
                send(commands, for: topic)
            case .load(let path):
                let items = try services.load(path)
                guard !items.isEmpty else { throw FleetRefusal("nothing playable in \(path)") }
                send([.load(items, .replace)], for: topic)
            case .playlist(let name):
                guard let target = services.playlists.first(where: { $0.name == name }) else {
                    let names = services.playlists.map(\.name)
                    throw FleetRefusal("'\(FleetRequest.clipped(name))' is not one of the schedule's playlists"
                                       + (names.isEmpty ? " (there is no schedule)" : " (\(names.joined(separator: ", ")))"))
                }
                guard let choose = choosePlaylist else { throw FleetRefusal("there is no schedule to play it") }
                choose(target.path)
                send([.screen(on: true)], for: topic)  // wakes the player: the schedule's turn runs before the inbox
            case .alert(var request):
                if let image = request.image {  // a picture goes through the media gate, as a load's files do
                    guard let item = try services.load(image).first, !request.clears else { throw FleetRefusal("no picture at \(image)") }
                    request.image = item.path
                }
                send([.alert(request)], for: topic)
            case .stats:
                guard services.reports.available else { throw FleetRefusal(PlayReports.noPlayLog) }
                publishStats(why: topic)
            case .signPlayLog:
                do throws(PlayReportRefusal) {
                    try services.reports.signHead()
                } catch {
                    throw FleetRefusal(error.description)
                }
                log.info("mqtt: \(topic): \(PlayReports.signingLine)")
            case .snapshot:
                let path = try camera.take(now: MonotonicClock.seconds())
                let mailbox = self.mailbox
                sink?.send(.screenshot(path: path)) { mailbox.post(.snapshot($0, path: path)) }
            }
        } catch {
            log.warn("mqtt: \(topic): refused: \(error)")
        }
    }

    /// Sends `commands` for one message; the message counts as applied once all are done.
    private func send(_ commands: [PlayerCommand], for topic: String) {
        let tally = ReplyTally(count: commands.count)
        let mailbox = self.mailbox
        for c in commands {
            sink?.send(c) { reply in
                if let all = tally.record(reply) { mailbox.post(.replied(topic: topic, all)) }
            }
        }
    }

    private func takeBoard() {
        guard let (events, fresh) = subscription?.take() else { return }
        if let fresh { status = fresh }
        guard connected else { return }
        for e in events {
            if case .healthAlert(let change) = e { health.publish(change, on: topics, through: connection) }
            guard let json = FleetStateJSON.event(e) else { continue }
            connection.publish(topics.event, Array(json.text.utf8), retain: false)
        }
    }

    /// Publishes the state when it differs from the last published (retained).
    private func publishState() {
        guard connected else { return }
        health.publish(status, on: topics, through: connection)
        let text = FleetStateJSON.state(status, counters).text
        guard text != publishedState else { return }
        if connection.publish(topics.state, Array(text.utf8), retain: true) != nil { publishedState = text }
    }

    /// At the end of the run: `offline` (retained), waited for up to a second so it reaches the broker.
    private func goodbye() {
        guard connected, let mid = connection.publish(topics.availability, Array("offline".utf8), retain: true) else { return }
        let deadline = MonotonicClock.seconds() + 1
        while MonotonicClock.seconds() < deadline {
            let (news, _, _) = mailbox.take(until: deadline)
            if news.contains(where: { if case .published(mid) = $0 { return true } else { return false } }) { return }
        }
    }
}

/// Gathers the replies to one message's commands: the first failure, or done once all are done.
private final class ReplyTally: @unchecked Sendable {
    private let lock = NSLock()
    private var left: Int
    private var failure: CommandReply?

    init(count: Int) { left = count }

    /// Records one reply; returns the message's answer with the last.
    func record(_ reply: CommandReply) -> CommandReply? {
        lock.lock()
        defer { lock.unlock() }
        if case .failed = reply, failure == nil { failure = reply }
        left -= 1
        return left == 0 ? (failure ?? .done()) : nil
    }
}
