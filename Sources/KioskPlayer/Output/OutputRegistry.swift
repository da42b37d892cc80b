import Foundation
import KioskCore
import KioskInput
import KioskOutput
import KioskRender
import KioskSeat

/// What opening an output for `play` needs.
struct OutputSetup {
    /// The playlist.
    let items: [PlaylistItem]
    /// The player's settings (its size is the canvas unless the output sets one).
    let config: PlayerConfig
    /// `--output`, the DRM options and `--rotate`.
    let request: OutputRequest
    /// Where the DRM cards are.
    let drmDirectory: String
    /// `--input`, or nil for none.
    let input: InputOptions?
    /// How devices are opened (logind or direct).
    let access: DeviceAccess
    /// Where the `output:` line goes.
    let log: Log
    /// The screens after the first (`--screen`), each with its own items and options; the first is `items` and
    /// `config`, named `firstName`.
    var more: [ScreenSetup] = []
    /// The first screen's name (`main` without `--screen`).
    var firstName = "main"
    /// Where each screen after the first shows on a display (its connector, mode and rotation), in `more`'s order.
    var moreOutputs: [OutputRequest] = []

    /// Every screen, the first one first.
    var screens: [ScreenSetup] { [ScreenSetup(name: firstName, items: items, config: config)] + more }
}

/// A player attached to an opened output, ready to run; `close` gives the output back after the run.
struct OpenedPlayer {
    /// The player, its clock, canvas, input and hotplug set for this output.
    let player: Player
    /// Closes the output (nothing for headless canvases).
    let close: () -> Void
}

/// The outputs `play` can show on, as one table: `--output drm|headless`, `auto` (the display, else headless
/// with the reason in its `output:` line) and `--untimed`. Adding an output is one entry and one name in
/// `names(for:)`.
enum OutputRegistry {
    /// One kind of output.
    struct Entry: Sendable {
        /// Its name: an `--output` value, or `untimed`.
        let name: String
        /// Opens it and sets a player on it; `.failure` with the reason when `auto` may try the next entry (an
        /// output that was asked for by name throws instead). The string is the previous entry's reason.
        let open: @Sendable (OutputSetup, _ fallbackReason: String) throws -> Result<OpenedPlayer, PlayerError>
    }

    /// Every output, by name.
    static let entries: [Entry] = [
        Entry(name: "drm", open: openDisplay),
        Entry(name: "headless", open: openHeadless),
        Entry(name: "untimed", open: openUntimed),
    ]

    /// The names tried, in order: `auto` is the display, then headless.
    static func names(for kind: OutputRequest.Kind, untimed: Bool) -> [String] {
        if untimed { return ["untimed"] }
        switch kind {
        case .auto: return ["drm", "headless"]
        case .drm: return ["drm"]
        case .headless: return ["headless"]
        }
    }

    /// The entries tried, in order.
    static func candidates(for kind: OutputRequest.Kind, untimed: Bool) -> [Entry] {
        names(for: kind, untimed: untimed).compactMap { name in entries.first { $0.name == name } }
    }

    /// Whether the outputs tried open device nodes (a display, or named input devices), so device access must
    /// be chosen (logind or direct) before.
    static func needsDevices(_ kind: OutputRequest.Kind, untimed: Bool, input: InputOptions?) -> Bool {
        !untimed && (kind != .headless || !(input?.devices.isEmpty ?? true))
    }

    /// The display: the mode's size (turned for 90° and 270°) is the canvas, and the clock reads the predicted
    /// presentation time from the page flips. Input and the udev hotplug monitor are connected.
    static func openDisplay(_ setup: OutputSetup, _: String) throws -> Result<OpenedPlayer, PlayerError> {
        let request = setup.request, log = setup.log
        let report = DRMDevice.report(directory: setup.drmDirectory, opener: setup.access.display)
        let selection: DisplaySelection
        switch request.chooseDisplay(report, directory: setup.drmDirectory) {
        case .failure(let e):
            if request.kind == .drm { throw e }
            return .failure(e)
        case .success(let s):
            selection = s
        }
        if !setup.more.isEmpty || request.shape != .single {  // a display is there: never fall back to headless, where nothing would be seen
            return .success(try openDisplays(setup, first: selection, report: report))
        }
        var drmConfig = setup.config
        let mode = selection.mode
        drmConfig.size = request.rotation.canvasSize(forScreen: PixelSize(width: mode.width, height: mode.height))
        let clock = PresentationClock()
        let player = Player(items: setup.items, config: drmConfig, clock: clock, log: log, waitForDecodes: false)
        let output: DRMDisplayOutput
        do {
            output = try DRMDisplayOutput(options: request.drm, rotation: request.rotation, report: report,
                                          opener: setup.access.display, clock: clock, log: log)
        } catch {
            if request.kind == .drm { throw error }
            return .failure(PlayerError("\(error)"))
        }
        do {
            log.info("output: \(output.name), canvas \(output.size)"
                     + (request.kind == .auto ? " (auto: a connected display)" : "") + " (\(output.context.renderer))")
            try player.attach(output)
            player.interaction = try openInput(setup.input, canvas: output.size, rotation: request.rotation,
                                               opener: setup.access.input, log: log)
        } catch {
            output.close()
            throw error
        }
        do {
            let monitor = try DisplayHotplugMonitor()
            player.hotplug = monitor
            log.debug("display hotplug: udev monitor on drm (\(monitor.source) events), and a connector poll every second")
        } catch {
            log.info("\(error); display hotplug by the connector poll alone")
        }
        return .success(OpenedPlayer(player: player, close: { output.close() }))
    }

    /// Several screens on the connectors of one card (`--screen`): an output each (a span's or mirror's on all its
    /// connectors), sharing the card, every canvas its output's (a span's panels side by side); the clock is the
    /// first output's flips. Never falls back to headless: errors are thrown.
    static func openDisplays(_ setup: OutputSetup, first: DisplaySelection, report: DisplayReport) throws -> OpenedPlayer {
        let request = setup.request, log = setup.log
        guard setup.moreOutputs.count == setup.more.count else {
            throw PlayerError("--screen: \(setup.more.count) screens after the first but \(setup.moreOutputs.count) connectors for them")
        }
        var firstRequest = request
        firstRequest.drm.connectorName = first.connector.name
        let requests = [firstRequest] + setup.moreOutputs
        let clock = PresentationClock()
        let outputs = try DRMDisplayOutput.open(
            screens: requests.map { DRMScreenRequest(options: $0.drm, rotation: $0.rotation, connectors: $0.connectors, shape: $0.shape) },
            report: report,
            opener: setup.access.display, clocks: [clock], log: log)
        let closeAll = { for output in outputs.reversed() { output.close() } }
        var screens = setup.screens
        for (i, output) in outputs.enumerated() { screens[i].config.size = output.size }
        let player = Player(screens: screens, clock: clock, log: log, waitForDecodes: false)
        do {
            for (i, output) in outputs.enumerated() {
                log.info("output: \(output.name), canvas \(output.size) for screen \(screens[i].name) (\(output.context.renderer))")
                try output.context.makeCurrentIfNeeded()
                try player.attach(output, toScreen: i)
            }
            // each screen its own devices (`--input-device PATH@NAME`, udev's WL_OUTPUT, a touchscreen's size; the
            // others and the seat the first screen's), on its own canvas and rotation
            let facts = zip(screens, outputs).map { screen, output in
                InputRouting.ScreenFacts(name: screen.name, connectors: output.parts.map(\.connector.name),
                                         sizes: Dictionary(output.parts.compactMap { p in p.connector.millimetres.map { (p.connector.name, $0) } },
                                                           uniquingKeysWith: { a, _ in a }),
                                         panels: output.panels)
            }
            let inputs = ScreenInputs.plan(setup.input, screens: facts, opener: setup.access.input, log: log)
            for (i, screen) in screens.enumerated() {
                guard let own = inputs[i] else { continue }
                player.screens[i].interaction = try openInput(own, canvas: outputs[i].size, rotation: requests[i].rotation,
                                                              opener: setup.access.input, log: log.prefixed("screen \(screen.name): "))
            }
        } catch {
            closeAll()
            throw error
        }
        do {
            player.hotplug = try DisplayHotplugMonitor()  // the first screen's; its output passes events on
        } catch {
            log.info("\(error); display hotplug by the connector poll alone")
        }
        return OpenedPlayer(player: player, close: closeAll)
    }

    /// The offscreen canvas at the configured size, paced at 60 frames per second on the monotonic clock; input
    /// only from named devices. `fallbackReason` (why `auto` did not take the display) goes in its log line.
    static func openHeadless(_ setup: OutputSetup, _ fallbackReason: String) throws -> Result<OpenedPlayer, PlayerError> {
        var screens = setup.screens
        let requests = [setup.request] + setup.moreOutputs  // a span composes across its panels here too
        for i in screens.indices where i < requests.count { screens[i].config.size = requests[i].canvas(forDisplay: screens[i].config.size) }
        let player = Player(screens: screens, clock: MonotonicClock(), log: setup.log, waitForDecodes: false)
        var shared: GLContext?  // one context for every screen, each with its own framebuffer
        for (i, screen) in screens.enumerated() {
            let output = try HeadlessOutput(size: screen.config.size, pacing: 60, sharing: shared)
            shared = output.context
            setup.log.info("output: \(output.name) \(screen.config.size)" + (screens.count > 1 ? " for screen \(screen.name)" : "")
                           + (fallbackReason.isEmpty ? "" : " (auto: \(fallbackReason))") + " (\(output.context.renderer))")
            try player.attach(output, toScreen: i)
        }
        if let input = setup.input, !input.devices.isEmpty {
            // each screen its own devices (`--input-device PATH@NAME`; the others the first screen's)
            let facts = zip(screens, requests).map { screen, request in
                InputRouting.ScreenFacts(name: screen.name, connectors: request.connectors.isEmpty ? [request.drm.connectorName].compactMap { $0 } : request.connectors)
            }
            let inputs = ScreenInputs.plan(input, screens: facts, opener: setup.access.input, log: setup.log)
            for (i, screen) in screens.enumerated() {
                guard let own = inputs[i] else { continue }
                player.screens[i].interaction = try openInput(own, canvas: screen.config.size, rotation: .none,
                                                              opener: setup.access.input, log: screens.count > 1 ? setup.log.prefixed("screen \(screen.name): ") : setup.log)
            }
        }
        return .success(OpenedPlayer(player: player, close: {}))
    }

    /// `--untimed`: headless, every video frame presented as soon as it is decoded, no clock and no sound (the
    /// throughput benchmark's way in). Stills pass at once.
    static func openUntimed(_ setup: OutputSetup, _: String) throws -> Result<OpenedPlayer, PlayerError> {
        guard setup.more.isEmpty else { throw PlayerError("--untimed plays one screen (it moves its clock to each frame)") }
        let config = setup.config
        let clock = VirtualClock()
        let player = Player(items: setup.items, config: config, clock: clock, log: setup.log, waitForDecodes: true)
        let output = try HeadlessOutput(size: config.size, pacing: nil)
        setup.log.info("output: \(output.name) \(config.size), untimed (\(output.context.renderer))")
        try player.attach(output)
        player.untimedClock = clock
        return .success(OpenedPlayer(player: player, close: {}))
    }

    /// Input for `play`: named devices must open (the error says why); a seat that can't be read is a warning,
    /// and the slideshow runs without input.
    static func openInput(_ options: InputOptions?, canvas: PixelSize, rotation: Rotation, opener: DeviceOpener,
                          log: Log) throws -> InteractionController? {
        guard let options else { return nil }
        do {
            return try InteractionController.open(options, canvas: canvas, rotation: rotation, opener: opener, log: log)
        } catch {
            if !options.devices.isEmpty { throw error }
            log.warn("\(error); playing without input")
            return nil
        }
    }
}
