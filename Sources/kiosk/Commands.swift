import Foundation
import KioskCore
import KioskMedia
import KioskPlayer
import KioskSeat

/// The five commands: each parses its table, builds the parts and runs them.
struct Commands {
    let log: Log
    /// The command's arguments as given, before `--config FILE` was expanded (a reload reads the file again).
    var raw: [String] = []
    /// Where each argument came from (`FILE:LINE`, nil for the command line's own), for `ScreenPlans`.
    var origins: [String?] = []
    /// The config files' `[screen NAME]` sections (play, record, snapshot).
    var sections: [ScreenSection] = []
    /// `record` writes these parts of its canvas instead of `--output` (a span's panels, from `ScreenJobs`).
    var recordCuts: [RecordingCut] = []

    /// Parses `args` against the command's table; `--help` prints its help (the manual page's same text) instead.
    private func parse(_ args: [String], _ help: CommandHelp) throws -> ParsedOptions? {
        if args.contains("--help") || args.contains("-h") {
            print(help.text, terminator: "")
            return nil
        }
        let specs = help.specs, command = help.name
        var o = try ParsedOptions.parse(args, specs: specs, command: command)
        if ["play", "record"].contains(command), o.positional.isEmpty, o.string("schedule") == nil {
            // The built-in demo plays: with the tour's own settings first, so any flag given still wins.
            o = try ParsedOptions.parse(DemoPlaylist.flags + args, specs: specs, command: command)
        }
        if let l = o.string("log-level"), let level = LogLevel(name: l) { log.level = level }
        if ["play", "record"].contains(command), let notice = RealtimeClock.environmentNotice() { log.warn(notice) }
        return o
    }

    /// The items `paths` name (the demo with none), or those `loaded` for them. Nothing playable is an error unless
    /// `allowEmpty` (kiosk then idles, waiting for items from a command or a watched folder).
    private func playlist(_ paths: [String], allowEmpty: Bool = false, loaded: [PlaylistItem]? = nil) throws -> [PlaylistItem] {
        var paths = paths
        if paths.isEmpty {
            guard let demo = DemoPlaylist.locate() else {
                throw PlayerError("the built-in demo playlist was not found (set KIOSK_DEMO to Kiosk/demo/demo.m3u)")
            }
            log.info("no path given: playing the built-in demo \(demo)")
            paths = [demo]
        }
        let items = loaded ?? PlaylistLoader(log: log).load(paths)
        guard !items.isEmpty || allowEmpty else {
            throw PlayerError("nothing to play: no media files in \(paths.joined(separator: " "))")
        }
        return items
    }

    func play(_ args: [String]) throws -> Int32 {
        let screens = try ScreenChoice.play(args, origins: origins, sections: sections)  // --screen
        guard let o = try parse(screens.arguments, .play) else { return 0 }
        var config = try CommandSpecs.config(from: o)
        try RenderChoices.validate(config)
        var request = try OutputRequest(output: o.string("output"), device: o.string("drm-device"),
                                        connector: o.string("drm-connector"), mode: o.string("drm-mode"),
                                        rotate: o.string("rotate"))
        if let placement = screens.firstPlacement { request.place(placement) }
        request.commit(o.string("drm-commit"))
        if config.untimed && request.kind != .headless {
            throw UsageError("--untimed needs --output headless")
        }
        let input = try CommandSpecs.inputOptions(from: o)
        if !screens.more.isEmpty { try input.checkScreens([screens.firstName] + screens.more.map(\.name)) }
        // one http(s) URL: the content fetcher plays it from its cache (`ContentLink`), no path is read here
        let remote = o.positional.contains(where: ContentMap.isRemote)
        var layout = remote ? nil : try LayoutCheck.layout(in: o.positional, command: "play", scheduled: o.string("schedule") != nil, config: config)
        let links = try RemoteLinks(o, log: log)
        defer { links.stop() }
        // each screen after the first: its own board, on an IPC socket of its own, PATH.NAME (`kiosk ctl --screen
        // NAME`), and on MQTT under kiosk/ID/screen/NAME
        let screenBoards = screens.more.map { (name: $0.name, board: PlayerBoard()) }
        let screenRemotes = try screenBoards.compactMap { screen in
            try RemoteControl.bind(o, board: screen.board, reports: links.reports, screen: screen.name, log: log).map { (screen.name, $0) }
        }
        defer { for (_, remote) in screenRemotes { remote.stop() } }
        let screenFleets = try screenBoards.compactMap { screen in
            try FleetControl.client(o, board: screen.board, reports: links.reports, screen: screen.name, log: log).map { (screen.name, $0) }
        }
        defer { for (_, fleet) in screenFleets { fleet.stop() } }
        let web = try WebControl.start(o, grid: config.grid, limits: config.limits, links: links,
                                       firstScreen: screens.more.isEmpty ? nil : screens.firstName, screens: screenBoards, log: log)
        defer { web?.stop() }
        let fleet = links.fleet
        let cec = try CECLink(o, firstName: screens.firstName, more: screens.more, headless: request.kind == .headless, log: log)
        defer { cec?.stop() }
        let state = try StateChoice.keeper(o, untimed: config.untimed, log: log)
        defer { state?.finish() }  // the last save, after the run
        config.restored = state?.restored
        let playLog = try PlayLogChoice.open(o, stateFolder: .some(state?.store.directory), log: log)
        // each screen's content link: its URL fetched into its own cache folder, or waiting for a remote's load URL
        let contents = try ContentLinks.open(o, first: screens.firstName, plans: screens.more,
                                             stateFolder: state?.store.directory
                                                 ?? StateDirectory.standard(environment: ProcessInfo.processInfo.environment,
                                                                            canWrite: { FileManager.default.isWritableFile(atPath: $0) }),
                                             limits: config.limits, log: log)
        defer { contents.stop() }
        let content = contents.link(forScreen: screens.firstName)  // the first screen's: the reports back go with it
        if let content, let folder = state?.store.directory ?? o.string("content-cache") {
            content.reportBack(playLog: playLog?.store.path, folder: StateDirectory.joined(folder, "reports"))
        }
        let fetching = content?.startURL != nil  // else the link waits for a remote's load URL
        let health = HealthMonitor(settings: try HealthFolders.settings(o, stateFolder: state?.store.directory, playLog: playLog?.store.path), log: log)
        defer { health.stop() }
        let stop = StopSignal.install(log: log)
        let watchdog = StopWatchdog(log: log, beforeExit: { state?.finish(timeout: 0.3); return "state as last saved" })
        stop.guardStops(with: watchdog)  // a stuck frame loop still stops within StopWatchdog.grace
        let stall = FrameStall.fromEnvironment(log: log)
        let scheduled = o.string("schedule") != nil
        // Without a schedule the command line's folders are watched here; with one, ScheduledFolders below.
        let folders = WatchedFolders(paths: layout == nil && !fetching ? o.positional : [], watch: !o.has("no-watch") && !scheduled, settle: o.number("settle") ?? 2,
                                     log: log)
        defer { folders.stop() }
        var items = (scheduled && o.positional.isEmpty) || layout != nil || fetching ? []
            : try playlist(o.positional, allowEmpty: config.idleImage != nil || links.any || scheduled
                               || !folders.isEmpty,
                           loaded: o.positional.isEmpty ? nil : folders.items)
        // With a schedule, the folders of whatever plays are watched (its windows' and the fallback's).
        let scheduledFolders = scheduled ? ScheduledFolders(watch: !o.has("no-watch"), settle: o.number("settle") ?? 2, log: log) : nil
        defer { scheduledFolders?.stop() }
        let schedule = try ScheduleSetup.driver(o, fallback: items, realClock: true, folders: scheduledFolders,
                                                onPlay: { paths in fleet?.schedulePlays(paths) }, log: log)
        if let schedule { items = schedule.startingItems(at: 0) }
        if let start = content?.startingContent() {  // the last good index in the cache: plays with no network
            if let file = start.layout { layout = file } else { items = start.items }
        }
        if let schedule, let fleet { fleet.choosePlaylists(through: ScheduleChoice(schedule).choose) }
        let clock = try? ScheduleSetup.wallClock(o, realClock: true)
        let reload = ConfigReload(raw: raw, schedule: schedule, health: health, log: log)
        stop.onReload { reload.reload() }
        web?.onScheduleSaved { reload.reload() }
        let service = SystemdNotifier()  // Type=notify units: ready, watchdog, status; nothing elsewhere
        defer { service.stopping() }
        // each further screen: its items (its schedule's, when it has one: its section's or the global one) and
        // where it was (the state file's `screens`, with the player's sound, resume book and alert)
        var screenSchedules: [(name: String, driver: ScheduleDriver)] = []
        let more = try screens.more.map { plan in
            var screenConfig = plan.config
            screenConfig.restored = state?.restored.flatMap { around in around.screens?[plan.name].map { $0.restoring(within: around) } }
            // a URL: the last good index in the screen's own cache, else nothing until its first check brings it
            let fetched = contents.startingContent(forScreen: plan.name)
            var screenItems = plan.sources.isEmpty || plan.sources.contains(where: ContentMap.isRemote) ? fetched?.items ?? []
                : try playlist(plan.sources, allowEmpty: plan.options.string("schedule") != nil)
            if let driver = try ScheduleSetup.driver(plan.options, fallback: screenItems, realClock: true, log: log.prefixed("screen \(plan.name): ")) {
                screenItems = driver.startingItems(at: 0)
                screenSchedules.append((plan.name, driver))
            }
            return ScreenSetup(name: plan.name, items: fetched?.layout == nil ? screenItems : [], config: screenConfig, layout: fetched?.layout)
        }
        let report = try watchdog.guarding { try PlayJob.play(items: items, layout: layout, config: config,
                                      firstScreen: screens.firstName, screens: more, screenOutputs: screens.moreOutputs,
                                      output: request,
                                      drmDirectory: ProcessInfo.processInfo.environment["KIOSK_DRM_DIR"] ?? "/dev/dri",
                                      input: input,
                                      length: o.number("length"), log: log,
                                      shouldStop: { stop.requested },
                                      onFirstFrame: { [log] in
                                          log.info("first frame presented \(ProcessAge.millisecondsSinceStart()) ms after process start")
                                          service.ready()
                                          stall?.arm()
                                      },
                                      onStart: { player in
                                          if let clock { player.wallClock = clock }
                                          PlayLogChoice.attach(playLog, to: player, reports: links.reports)  // before the remotes read it
                                          links.attach(player, log: log)
                                          for screen in screenBoards { player.setBoard(screen.board, forScreen: screen.name) }
                                          if !screenBoards.isEmpty { player.postStatusNow() }  // each screen's board starts full
                                          for (name, remote) in screenRemotes { remote.serve(player, screen: name) }
                                          for (name, fleet) in screenFleets {
                                              do { try fleet.start(sending: player.commandSink(forScreen: name)) } catch { log.error("mqtt: screen \(name): \(error)") }
                                          }
                                          web?.serve(player)
                                          cec?.start(player)
                                          health.start(player)  // its own thread; each status carries its report
                                          if let schedule { player.keepsRunningWhenEmpty = true; player.producers.append(schedule) }
                                          for (name, driver) in screenSchedules {
                                              player.keepsRunningWhenEmpty = true
                                              player.addProducer(driver, forScreen: name)
                                          }
                                          state?.keep(player)  // after the servers took the board
                                          service.follow(player)
                                          stall?.attach(to: player)
                                          if !folders.isEmpty { player.keepsRunningWhenEmpty = true; folders.start(sending: player.inbox) }
                                          scheduledFolders?.start(sending: player.inbox)
                                          if contents.fetches { player.keepsRunningWhenEmpty = true }
                                          contents.start(player)
                                          let inbox = player.inbox
                                          reload.attach(inbox)
                                          stop.onStop { service.stopping(); inbox.send(.quit) }
                                      }) }
        log.info("played \(report.slotsShown) items, \(report.framesPresented) frames"
                 + (report.presentedFPS.map { String(format: ", %.2f frames/s after the first", $0) } ?? "")
                 + (Self.peakRSSMiB().map { String(format: ", peak RSS %.1f MiB", $0) } ?? ""))
        return 0
    }

    func record(_ args: [String]) throws -> Int32 {
        if ScreenJobs.namesScreens(args, sections: sections) { return try ScreenJobs(commands: self).record(args) }
        guard let o = try parse(args, .record) else { return 0 }
        guard let out = o.string("output") else { throw UsageError("record: --output OUT.mp4|OUT.y4m is required") }
        let ext = (out as NSString).pathExtension.lowercased()
        guard ["mp4", "mkv", "mov", "y4m"].contains(ext) else {
            throw UsageError("--output: '\(out)' must end in .mp4, .mkv, .mov or .y4m")
        }
        let config = try CommandSpecs.config(from: o)
        try RenderChoices.validate(config)
        let stop = StopSignal.install(log: log)
        // A stuck frame loop still stops within StopWatchdog.grace; its partial file (no trailer) is removed.
        let watchdog = StopWatchdog(log: log, beforeExit: { Self.removePartialRecording(out) })
        stop.guardStops(with: watchdog)
        let stall = FrameStall.fromEnvironment(log: log)
        let scheduled = o.string("schedule") != nil
        let realTime = o.has("realtime")
        if !realTime, ["input-ipc-server", "mqtt"].contains(where: { o.string($0) != nil }) {
            throw UsageError("record: --input-ipc-server and --mqtt need --realtime (commands land when they are sent)")
        }
        let links = try RemoteLinks(o, log: log)
        defer { links.stop() }
        let playLog = try PlayLogChoice.open(o, stateFolder: nil, log: log)
        let layout = try LayoutCheck.layout(in: o.positional, command: "record", scheduled: scheduled, config: config)
        var items = (scheduled && o.positional.isEmpty) || layout != nil ? [] : try playlist(o.positional, allowEmpty: scheduled)
        let schedule = try ScheduleSetup.driver(o, fallback: items, realClock: false, log: log)
        if let schedule { items = schedule.startingItems(at: 0) }
        let clock = try? ScheduleSetup.wallClock(o, realClock: false)
        let fps = o.integer("fps") ?? 30
        let report = try watchdog.guarding { try PlayJob.record(items: items, layout: layout, config: config, output: out, fps: fps,
                                                                length: o.number("length"), realTime: realTime, cuts: recordCuts, log: log,
                                        shouldStop: { stop.requested }, onStart: { player in
                                            if let clock { player.wallClock = clock }
                                            PlayLogChoice.attach(playLog, to: player, reports: links.reports)  // before the remotes read it
                                            links.attach(player, waitsForItems: false, log: log)
                                            player.onFirstFrame = { stall?.arm() }
                                            stall?.attach(to: player)
                                            if let schedule { player.keepsRunningWhenEmpty = true; player.producers.append(schedule) }
                                            let inbox = player.inbox
                                            stop.onStop { inbox.send(.quit) }
                                        }) }
        log.info("recorded \(report.framesPresented) frames (\(String(format: "%.3f", Double(report.framesPresented) / Double(fps))) s) to "
                 + (recordCuts.isEmpty ? out : recordCuts.map(\.path).joined(separator: ", ")))
        return 0
    }

    /// Removes a recording the stop watchdog cut short (an encoder never finished has no trailer, so no player
    /// reads it) and says which it did, for the watchdog's line.
    static func removePartialRecording(_ path: String) -> String {
        if unlink(path) == 0 || errno == ENOENT { return "removed the partial recording \(path)" }
        return "could not remove the partial recording \(path): \(String(cString: strerror(errno)))"
    }

    func snapshot(_ args: [String]) throws -> Int32 {
        if ScreenJobs.namesScreens(args, sections: sections) { return try ScreenJobs(commands: self).snapshot(args) }
        guard let o = try parse(args, .snapshot) else { return 0 }
        guard let out = o.string("output") else { throw UsageError("snapshot: --output OUT.png is required") }
        if o.has("grid") { return try gridSnapshot(o, output: out) }
        if o.has("side-by-side") { throw UsageError("snapshot: --side-by-side goes with --screen") }
        try PNGWriter.write(try snapshotImage(o, size: nil), to: out)
        return 0
    }

    /// The picture `kiosk snapshot` writes for the options `o` (not `--grid`), at `size` when given (a span's
    /// canvas) instead of `--size`'s.
    func snapshotImage(_ o: ParsedOptions, size: PixelSize?) throws -> RGBAImage {
        let scheduled = o.string("schedule") != nil
        for flag in ["filter", "grid-scroll", "layout-json", "grid-columns"] where o.has(flag) {
            throw UsageError("snapshot: --\(flag) goes with --grid")
        }
        let layout = o.positional.count == 1 && o.positional.allSatisfy(SMILFile.isSMIL)
        if !scheduled, !layout, o.string("clock") == nil, o.string("start-time") != nil || o.string("timezone") != nil {
            throw UsageError("snapshot: --start-time and --timezone go with --schedule, --clock or a SMIL layout")
        }
        var config = try CommandSpecs.config(from: o)
        try RenderChoices.validate(config)
        if let size { config.size = size }
        config.slideshow.transition = .none
        let view = FlatView(fit: config.fit, zoom: o.number("zoom") ?? 1, center: o.point("center") ?? .center)
        let clock = try ScheduleSetup.wallClock(o, realClock: false)
        let wall = (now: clock.at(0), zone: clock.zone)
        guard scheduled else {
            guard o.positional.count == 1, let input = o.positional.first else {
                throw UsageError("snapshot: give exactly one INPUT file (got \(o.positional.count))")
            }
            if SMILFile.isSMIL(input) {
                return try LayoutSnapshot.image(file: try LayoutCheck.load(input, config: config), at: o.number("at") ?? 0,
                                                anchor: SMILTimeline.WallAnchor(start: wall.now, zone: wall.zone),
                                                config: config, log: log)
            }
            return try PlayJob.snapshotImage(input: input, config: config, at: o.number("at") ?? 0, view: view, wall: wall, log: log)
        }
        let fallback = o.positional.isEmpty ? [] : PlaylistLoader(log: log).load(o.positional)
        guard let (item, _) = try ScheduledSnapshot.pick(o, fallback: fallback, log: log) else {
            return ScheduledSnapshot.black(config.size)
        }
        return try PlayJob.snapshotImage(input: item.path, config: config, at: o.number("at") ?? 0, view: view, wall: wall, log: log)
    }

    /// `kiosk snapshot PATH... --grid`.
    private func gridSnapshot(_ o: ParsedOptions, output out: String) throws -> Int32 {
        if o.has("schedule") { throw UsageError("snapshot: --grid and --schedule do not go together") }
        guard !o.positional.isEmpty else { throw UsageError("snapshot: --grid needs at least one PATH (a file, folder or playlist)") }
        let config = try CommandSpecs.config(from: o)
        var request = GridSnapshot.Request(items: PlaylistLoader(log: log).load(o.positional))
        guard !request.items.isEmpty else { throw UsageError("snapshot: --grid: nothing playable in \(o.positional.joined(separator: " "))") }
        if let f = o.string("filter"), let filter = GridFilter(parsing: f) { request.filter = filter }
        request.scrollRows = o.number("grid-scroll") ?? 0
        request.layoutJSON = o.string("layout-json")
        try PNGWriter.write(try GridSnapshot.image(request, config: config, log: log), to: out)
        return 0
    }

    func outputs(_ args: [String]) throws -> Int32 {
        guard let o = try parse(args, .outputs) else { return 0 }
        guard o.positional.isEmpty else { throw UsageError("outputs: takes no PATH (got \(o.positional.count))") }
        print(try OutputsReport.text(directory: ProcessInfo.processInfo.environment["KIOSK_DRM_DIR"] ?? "/dev/dri"))
        return 0
    }

    func probe(_ args: [String]) throws -> Int32 {
        guard let o = try parse(args, .probe) else { return 0 }
        guard !o.positional.isEmpty else { throw UsageError("probe: give at least one FILE") }
        let override = try CommandSpecs.projectionOverride(o)
        var failed = false
        for path in o.positional {
            let line = PlayJob.probeLine(path, override: override)
            failed = failed || line.failed
            print(line.json)
        }
        return failed ? 1 : 0
    }

    func checkConfig(_ args: [String]) throws -> Int32 {
        guard let o = try parse(args, .checkConfig) else { return 0 }
        guard o.positional.count == 1, let file = o.positional.first else {
            throw UsageError("check-config: give exactly one FILE (got \(o.positional.count))")
        }
        let zone = try o.string("timezone").map { text throws(UsageError) in try ClockOptions.timeZone(text) } ?? .current
        let start = try o.string("start-time").map { text throws(UsageError) in try ClockOptions.startTime(text, timeZone: zone) } ?? Date()
        if SMILFile.isSMIL(file) {
            return LayoutCheck.check(file, stillDuration: SlideshowOptions().duration,
                                     anchor: SMILTimeline.WallAnchor(start: start, zone: zone))
        }
        var check = ConfigCheck(log: log)
        let table = check.check(file, zone: zone, from: start)
        for p in check.problems { Log.writeStandardError("kiosk: \(Log.escaped(p))\n") }
        guard check.problems.isEmpty, let table else {
            Log.writeStandardError("kiosk: \(file): \(check.problems.count) problem\(check.problems.count == 1 ? "" : "s")\n")
            return 2
        }
        print("\(file): ok")
        print(table, terminator: table.hasSuffix("\n") ? "" : "\n")
        return 0
    }

    /// This process's peak resident set in MiB (VmHWM), if /proc says.
    static func peakRSSMiB() -> Double? {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = s.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kb = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return nil }
        return kb / 1024
    }
}
