import Foundation
import KioskCore
import KioskMedia
import KioskPlayer
import KioskRemote
import KioskWeb

/// `kiosk play --http ADDR:PORT`: the web page. Its flags are checked before the player starts (a bad address, a
/// missing password file off loopback, TLS half given: a usage error, exit 2); it serves once the player runs,
/// through the same commands, board, media gate and reports as IPC.
final class WebControl {
    private let server: WebServer
    private let relay = CommandRelay()
    /// Each screen after the first (`--screen`): its name and where its commands go once the player runs.
    private var screenRelays: [(name: String, relay: CommandRelay)] = []
    private let recent = RecentLog()
    private let hooks = WebHooks()

    /// What a saved schedule runs so the player takes it up (the reload SIGHUP runs); set once it exists.
    func onScheduleSaved(_ reload: @escaping @Sendable () -> Void) { hooks.set(reload) }

    /// The server the options ask for; nil without `--http`. `grid` names the thumbnail cache it shares with the grid;
    /// `limits` are the player's (an upload it would refuse to show is refused).
    /// With several screens, `firstScreen` names the first and `screens` are the others with their boards (each
    /// is `?screen=NAME` on the page's API).
    static func start(_ o: ParsedOptions, grid: GridSettings, limits: DecodeLimits, links: RemoteLinks, firstScreen: String? = nil,
                      screens: [(name: String, board: PlayerBoard)] = [], log: Log) throws -> WebControl? {
        guard let given = o.string("http") else {
            for flag in ["http-password-file", "http-token-file", "http-tls-cert", "http-tls-key", "http-upload-mb"] where o.string(flag) != nil {
                throw UsageError("--\(flag) needs --http ADDR:PORT")
            }
            return nil
        }
        let (address, port) = try endpoint(given)
        let passwordFile = o.string("http-password-file")
        if !isLoopback(address), passwordFile == nil {
            throw UsageError("--http \(given): an address other than loopback needs --http-password-file FILE (make it with 'kiosk passwd FILE')")
        }
        let cert = o.string("http-tls-cert"), key = o.string("http-tls-key")
        guard (cert == nil) == (key == nil) else { throw UsageError("--http-tls-cert and --http-tls-key go together") }
        // without a password every local user reaches the page, so it may not hand them the kiosk user's files:
        // what it plays and writes (loadfile, screenshot-to-file, a schedule's targets) stays in --media-root
        if passwordFile == nil, o.string("media-root") == nil {
            throw UsageError("--http \(given) without --http-password-file needs --media-root DIR: every local user can reach the page, "
                             + "so what it plays and writes must stay in DIR")
        }
        var tls: (key: String, cert: String)?
        if let cert, let key {
            guard let c = FileAccess.contents(cert).flatMap({ String(data: $0, encoding: .utf8) }) else { throw UsageError("--http-tls-cert: cannot read \(cert)") }
            guard let k = FileAccess.contents(key).flatMap({ String(data: $0, encoding: .utf8) }) else { throw UsageError("--http-tls-key: cannot read \(key)") }
            tls = (k, c)
        }
        do {
            let security = WebSecurity(passwordHash: try passwordFile.map { p throws(WebSetupError) in try WebPassword.readHash(p) },
                                       token: try o.string("http-token-file").map { p throws(WebSetupError) in try WebPassword.readToken(p) },
                                       uploadLimit: Int64(o.integer("http-upload-mb") ?? 2048) * 1_048_576)
            let gate = try RemoteControl.mediaGate(o, log: log)
            return try WebControl(o, address: address, port: port, tls: tls, security: security, gate: gate, grid: grid, limits: limits,
                                  links: links, firstScreen: firstScreen, screens: screens, log: log)
        } catch let e as WebSetupError {
            throw UsageError(e.description)
        }
    }

    private init(_ o: ParsedOptions, address: String, port: UInt16, tls: (key: String, cert: String)?, security: WebSecurity, gate: MediaGate,
                 grid: GridSettings, limits: DecodeLimits, links: RemoteLinks, firstScreen: String?,
                 screens: [(name: String, board: PlayerBoard)], log: Log) throws {
        let runner = MPVRequestRunner(board: links.board, sink: relay, gate: gate, reports: links.reports, log: log)
        let camera = WebCamera(sink: relay)
        let recent = self.recent
        log.tap { _, line in recent.add(line) }
        let board = links.board
        let hooks = self.hooks
        let relay = self.relay
        let scheduleFile = o.string("schedule")
        let schedule = scheduleFile.map { path in
            WebSchedule(path: path, check: { text in Self.checkSchedule(text, file: path, confinedTo: gate.root, log: log) },
                        reload: { hooks.run() })
        }
        // Under a service manager (kiosk.service: Restart=always) a quit is a restart; elsewhere there is no button.
        let managed = ProcessInfo.processInfo.environment["INVOCATION_ID"] != nil
        var backend = WebBackend(status: { board.status }, command: { runner.run($0) }, screenshot: { () throws(WebRefusal) in try camera.picture() },
                                 reports: links.reports, mediaRoot: gate.root,
                                 probe: { path in
                                     guard MediaExtensions.isMedia(path), let info = try? MediaFile.probe(path) else { return nil }
                                     return MediaSummary(kind: info.kind.rawValue, width: info.width, height: info.height, duration: info.duration)
                                 },
                                 recentLog: { recent.lines })
        backend.schedule = schedule
        if !screens.isEmpty {
            backend.firstScreen = firstScreen
            screenRelays = screens.map { ($0.name, CommandRelay()) }
            backend.screens = zip(screens, screenRelays).map { screen, relay in
                let runner = MPVRequestRunner(board: screen.board, sink: relay.relay, gate: gate, reports: links.reports, log: log)
                let camera = WebCamera(sink: relay.relay)
                let board = screen.board
                return WebScreenParts(name: screen.name, status: { board.status }, command: { runner.run($0) },
                                      screenshot: { () throws(WebRefusal) in try camera.picture() })
            }
        }
        backend.maxPixels = limits.maxPixels
        // the grid's own thumbnail cache (tiles of 360 px, one per folder in the process), so a file the grid has
        // shown costs no decode and the cache's budget counts both
        let thumbs = ThumbnailDiskCache.forGrid(grid, stateDirectory: ProcessInfo.processInfo.environment["STATE_DIRECTORY"], log: log)
        backend.thumbnail = { path in try? Thumbnailer.jpeg(path: path, side: 360, cache: thumbs) }
        if managed { backend.restart = { relay.send(.quit, reply: nil) } }
        let app = WebApp(backend: backend, security: security, log: log)
        server = try WebServer(address: address, port: port, tls: tls, handler: app, log: log)
        let shown = address.contains(":") ? "[\(address)]" : address
        log.info("http: serving the web page on \(tls == nil ? "http" : "https")://\(shown):\(port)/"
                 + (security.passwordHash == nil ? " (no password: loopback only)" : ""))
    }

    /// Serves `player` from now on.
    func serve(_ player: Player) {
        relay.target = player.inbox
        for screen in screenRelays { screen.relay.target = player.commandSink(forScreen: screen.name) }
    }

    /// Closes the server.
    func stop() { server.stop() }

    /// check-config's verdict on a schedule's `text` as the file `file`: its problems, or the next 7 days. With a
    /// media root, every target must lie in it: the page may not point the screen at files it cannot reach itself.
    static func checkSchedule(_ text: String, file: String, confinedTo root: String?, log: Log) -> Result<[WebScheduleSpan], WebScheduleProblems> {
        var check = ConfigCheck(log: log)
        check.confinedTo = root
        guard let entries = check.checkSchedule(text, file: file, zone: .current, from: Date()) else {
            return .failure(WebScheduleProblems(check.problems))
        }
        return .success(entries.map { e in
            let target = e.target?.description ?? "the command line's paths"
            return WebScheduleSpan(start: e.start, end: e.end, label: e.isFallback ? target + " (fallback)" : target, off: e.target == .off)
        })
    }

    /// `ADDR:PORT` (`127.0.0.1:8080`, `[::1]:8080`, `0.0.0.0:80`).
    static func endpoint(_ text: String) throws(UsageError) -> (String, UInt16) {
        var host = "", portText = ""
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = String(text[close...].dropFirst().drop(while: { $0 == ":" }))
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = String(text[text.index(after: colon)...])
        }
        guard !host.isEmpty, let port = UInt16(portText), port > 0 else {
            throw UsageError("--http: '\(text)' is not ADDR:PORT (127.0.0.1:8080, [::1]:8080, 0.0.0.0:80)")
        }
        var a4 = in_addr(), a6 = in6_addr()
        guard inet_pton(AF_INET, host, &a4) == 1 || inet_pton(AF_INET6, host, &a6) == 1 else {
            throw UsageError("--http: '\(host)' is not an IP address (a name is not looked up)")
        }
        return (host, port)
    }

    /// Whether `address` is loopback (127.0.0.0/8, ::1).
    static func isLoopback(_ address: String) -> Bool {
        address == "::1" || address.hasPrefix("127.")
    }
}

/// The reload a saved schedule runs, set once the player's reloader exists.
private final class WebHooks: @unchecked Sendable {
    private let lock = NSLock()
    private var reload: (@Sendable () -> Void)?
    func set(_ r: @escaping @Sendable () -> Void) { lock.lock(); reload = r; lock.unlock() }
    func run() { lock.lock(); let r = reload; lock.unlock(); r?() }
}

/// The last 500 lines kiosk logged (at its level), for the system page.
private final class RecentLog: @unchecked Sendable {
    private let lock = NSLock()
    private var ring: [String] = []
    func add(_ line: String) {
        lock.lock()
        ring.append(line)
        if ring.count > 500 { ring.removeFirst(ring.count - 500) }
        lock.unlock()
    }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return ring }
}
