import Foundation
import KioskCore
import KioskInput
import KioskMedia
import KioskOutput
import KioskRender

/// The commands' work, built from parts: `play`, `record`, `snapshot` and `probe`.
public enum PlayJob {
    /// Plays in real time on the output `request` chooses until the end (`--no-loop`), `length`, or a stop;
    /// `--untimed` plays headless as fast as frames decode. The outputs are `OutputRegistry`'s: `auto` tries the
    /// display, then headless, and logs one line saying which output and why. `onStart` gets the player (its inbox and board)
    /// once it is built (a signal handler sends `quit` there, which ends the frame loop's wait at once). With
    /// `layout` the player plays that SMIL layout instead of `items`. `screens`: more screens after the first
    /// (`--screen`; the first is `items` and `config`, named `firstScreen`), each with its own output (and its own
    /// layout, when its setup has one);
    /// `screenOutputs`: where each of them shows on a display (its connector, mode and rotation).
    public static func play(items: [PlaylistItem], layout: SMILFile? = nil, config: PlayerConfig,
                            firstScreen: String = "main", screens more: [ScreenSetup] = [],
                            screenOutputs: [OutputRequest] = [],
                            output request: OutputRequest = OutputRequest(kind: .headless),
                            drmDirectory: String = "/dev/dri", input: InputOptions? = nil, length: Double?, log: Log,
                            shouldStop: @escaping () -> Bool, onFirstFrame: (() -> Void)?,
                            onStart: ((Player) -> Void)? = nil) throws -> PlayReport {
        let access = OutputRegistry.needsDevices(request.kind, untimed: config.untimed, input: input)
            ? DeviceAccess.choose(log: log) : .direct
        defer { access.release() }
        let setup = OutputSetup(items: items, config: config, request: request, drmDirectory: drmDirectory, input: input,
                                access: access, log: log, more: more, firstName: firstScreen,
                                moreOutputs: screenOutputs)
        var why = ""
        for entry in OutputRegistry.candidates(for: request.kind, untimed: config.untimed) {
            switch try entry.open(setup, why) {
            case .failure(let e):
                why = e.description
            case .success(let opened):
                defer { opened.close() }
                opened.player.onFirstFrame = onFirstFrame
                if let layout { try opened.player.play(layout: layout) }
                for screen in more { if let layout = screen.layout { try opened.player.play(layout: layout, onScreen: screen.name) } }
                onStart?(opened.player)
                return try opened.player.run(length: length, shouldStop: shouldStop)
            }
        }
        throw PlayerError(why.isEmpty ? "no output to play on" : why)
    }

    /// Records the slideshow into `output` at `fps` on a virtual clock. Without `length`, it records one pass
    /// of the playlist (or until the end with `--no-loop`). `shouldStop` ends it early (a signal); the file is
    /// then finalised with what was recorded, and so it is when an error stops it after frames were written.
    /// A recording with no frame leaves no file. With `layout` it records that SMIL layout instead of `items`
    /// (one pass of its body without `length`; a body that never ends or lasts 0 s needs `length`). With `cuts`
    /// the canvas is written into those files instead, each its part (a span's panels), each with its own encoder.
    public static func record(items: [PlaylistItem], layout: SMILFile? = nil, config: PlayerConfig, output path: String, fps: Int,
                              length: Double?, realTime: Bool = false, cuts: [RecordingCut] = [], log: Log,
                              shouldStop: @escaping () -> Bool = { false },
                              onStart: ((Player) -> Void)? = nil) throws -> PlayReport {
        var config = config
        if length == nil { config.slideshow.loop = false }
        // a body without an end (endless, or lasting 0 s) would be recorded for ever: a usage error (exit 2)
        if let layout, length == nil, let why = layout.timeline(stillDuration: config.slideshow.duration).extent.noEnd {
            throw UsageError("record: \(layout.document.file) \(why): give --length")
        }
        let clock = VirtualClock()
        let withSound = items.contains { item in
            if SMILFile.isSMIL(item.path) { return !((try? SMILFile.load(item.path))?.sounding.isEmpty ?? true) }
            return !Player.isPictureName(item.path) && ((try? MediaFile.probe(item.path))?.streams.contains { $0.type == "audio" } ?? false)
        } || !(layout?.sounding.isEmpty ?? true)
        let whole = PixelRect(x: 0, y: 0, width: config.size.width, height: config.size.height)
        let files = cuts.isEmpty ? [RecordingCut(path: path, rect: whole)] : cuts
        let encoders = try files.map {
            try VideoEncoder(path: $0.path, size: PixelSize(width: $0.rect.width, height: $0.rect.height), fps: fps, withSound: withSound)
        }
        // each file finished (or removed) whatever ends the run, the first file's finisher outermost
        func finishing(_ i: Int, _ body: () throws -> PlayReport) throws -> PlayReport {
            guard i < encoders.count else { return try body() }
            return try RecordingFinisher(encoder: encoders[i], path: files[i].path, fps: fps, log: log).run { try finishing(i + 1, body) }
        }
        return try finishing(0) {
            let output = try VirtualTimeOutput(size: config.size, fps: Double(fps), clock: clock, realTime: realTime, sink: { frame in
                for (encoder, file) in zip(encoders, files) { try encoder.append(cuts.isEmpty ? frame : frame.cropped(to: file.rect)) }
            })
            let codec = (encoders.first?.codecName ?? "") + (encoders.first?.hasSound ?? false ? " and AAC sound" : "")
            log.info("recording \(config.size) at \(fps) fps with \(codec) to "
                     + (cuts.isEmpty ? path : cuts.map { "\($0.path) (\($0.rect.width)x\($0.rect.height) from x \($0.rect.x))" }.joined(separator: ", ")))
            let player = try Player(items: items, config: config, output: output, clock: clock, log: log, waitForDecodes: true)
            player.playsSound = false
            if let layout { try player.play(layout: layout) }
            onStart?(player)
            return try player.run(length: length, shouldStop: shouldStop)
        }
    }

    /// The recording's sound: each item's sound decoded (48 kHz stereo s16) and laid where its slot played on the
    /// recording's clock; silence elsewhere.
    static func mixedSound(_ spans: [SoundSpan], length: Double, log: Log) -> [Int16] {
        let rate = 48_000
        var out = [Int16](repeating: 0, count: max(0, Int(saturating: length * Double(rate))) * 2)
        for span in spans {
            let first = Int(saturating: span.start * Double(rate))
            let wanted = min(Int(saturating: span.length * Double(rate)), out.count / 2 - first)
            guard first >= 0, wanted > 0 else { continue }
            do {
                let decoder = try AudioDecoder(path: span.path, format: .standard)
                if span.mediaStart > 0 { try decoder.seek(to: span.mediaStart) }
                var at = 0
                while at < wanted, let chunk = try decoder.read(maxFrames: min(4096, wanted - at)) {
                    chunk.bytes.withUnsafeBytes { raw in
                        let samples = raw.bindMemory(to: Int16.self)
                        let n = min(chunk.frames, wanted - at)
                        for i in 0..<(n * 2) {
                            let v = span.level == 1 ? Int16(littleEndian: samples[i])
                                : Int16(clamping: Int(saturating: Double(Int16(littleEndian: samples[i])) * span.level))
                            out[(first + at) * 2 + i] = v
                        }
                        at += n
                    }
                }
            } catch {
                log.warn("\(DecodeCache.describe(error, path: span.path)); its sound is left out of the recording")
            }
        }
        return out
    }

    /// Renders one frame of one item at `at` seconds into a PNG of exactly `config.size`.
    /// `wall` is the local time the clock overlay shows (nil: now, in the system's zone).
    public static func snapshot(input: String, output path: String, config: PlayerConfig, at: Double,
                                view: FlatView, wall: (now: Date, zone: TimeZone)? = nil, log: Log) throws {
        let image = try snapshotImage(input: input, config: config, at: at, view: view, wall: wall, log: log)
        try PNGWriter.write(image, to: path)
    }

    /// The pixels `snapshot` writes.
    public static func snapshotImage(input: String, config: PlayerConfig, at: Double, view: FlatView,
                                     wall: (now: Date, zone: TimeZone)? = nil, log: Log) throws -> RGBAImage {
        let canvas = Player.decodeConfig(config).size  // the wall on this picture with --wall, else the picture
        let wall = wall ?? (Date(), TimeZone.current)
        LocalMediaPolicy.apply(config)
        if !MediaExtensions.isPicture(input), let info = try? MediaFile.probe(input, limits: config.limits), info.kind == .audio {
            return try soundSnapshot(input: input, info: info, config: config, at: at, wall: wall, log: log)
        }
        if MediaFile.isClip(input) { return try clipSnapshot(input: input, config: config, at: at, view: view, wall: wall, log: log) }
        let named = ItemView.beforeDecode(path: input, itemOverride: nil, config: config)
        let decoded = try decodeBounded(input, timeout: config.decodeTimeout) { picture in
            named.decodeSize(picture: picture) { FlatView.decodeSize(picture: $0, canvas: canvas, fit: view.fit, maxZoom: view.zoom) }
        }
        let item = ItemView(path: input, metadata: decoded.info.projection, itemOverride: nil, config: config)
        let presenter = try FramePresenter.headless(size: config.size, log: log)
        let output = presenter.output
        let timing = decoded.picture.timing
        let frame = timing.frameIndex(at: at, slotDuration: config.slideshow.duration)
        let texture = try Texture(context: output.context, image: try item.picture(SceneComposer.image(of: decoded.picture, frame: frame),
                                                                                  maxSide: output.context.maxTextureSize))
        let pass = item.pass(texture: texture.size, canvas: canvas, view: item.startView(canvas: canvas), flat: view)
        let overlays = try SnapshotOverlays.layers(path: input, kind: .still, at: at, length: config.slideshow.duration,
                                                   config: config, canvas: canvas, wall: wall, log: log)
        return try presenter.capture(Player.onScreen(RenderFrame(background: config.background,
                                                       layers: [RenderLayer(texture: texture, pass: pass, opacity: 1,
                                                                            effect: ItemView.effect(config))],
                                                       overlays: overlays), wall: config.sync.wall, size: config.size))
    }

    /// A sound file as the player shows it `at` seconds in: its now-playing card (the picture, and its text and
    /// progress over it), or with `--no-overlays` its cover art or the placeholder.
    static func soundSnapshot(input: String, info: MediaInfo, config: PlayerConfig, at: Double,
                              wall: (now: Date, zone: TimeZone), log: Log) throws -> RGBAImage {
        let canvas = Player.decodeConfig(config).size
        let length = min(info.duration ?? 0, config.videoMax ?? .infinity)
        let sound = SoundPicture(path: input, length: length, canvas: canvas, look: SoundPicture.Look(overlays: config.overlays),
                                 log: log)
        let presenter = try FramePresenter.headless(size: config.size, log: log)
        let output = presenter.output
        let texture = try Texture(context: output.context, image: sound.image)
        let pass = FlatPass(transform: FlatView(fit: .contain).transform(picture: texture.size, canvas: canvas))
        let overlays = try SnapshotOverlays.layers(path: input, kind: .sound, at: min(at, length), length: length, config: config,
                                                   canvas: canvas, wall: wall, hasArtwork: sound.hasCoverArt, log: log)
        return try presenter.capture(Player.onScreen(RenderFrame(background: config.background, layers: [RenderLayer(texture: texture, pass: pass)],
                                                       overlays: overlays), wall: config.sync.wall, size: config.size))
    }

    /// A video's frame shown at `at` seconds (an accurate seek: the newest frame at or before it), drawn through
    /// the YUV sampling stage like the player draws it.
    static func clipSnapshot(input: String, config: PlayerConfig, at: Double, view: FlatView,
                             wall: (now: Date, zone: TimeZone), log: Log) throws -> RGBAImage {
        let canvas = Player.decodeConfig(config).size
        let info = try MediaFile.probe(input)
        let decoder = try VideoDecoder(path: input, log: log, startAt: at)
        defer { decoder.close() }
        guard let frame = decoder.nextFrame(timeout: config.decodeTimeout) else {
            throw decoder.failure ?? MediaError(path: input, reason: "no video frame at \(at) s")
        }
        let item = ItemView(path: input, metadata: info.projection, itemOverride: nil, config: config)
        let presenter = try FramePresenter.headless(size: config.size, log: log)
        let output = presenter.output
        let texture = try VideoTexture(context: output.context, frame: frame)
        let pass = item.pass(texture: texture.size, canvas: canvas, view: item.startView(canvas: canvas), flat: view)
        let overlays = try SnapshotOverlays.layers(path: input, kind: .clip, at: frame.pts, length: info.duration ?? 0,
                                                   config: config, canvas: canvas, wall: wall, log: log)
        let image = try presenter.capture(Player.onScreen(RenderFrame(background: config.background,
                                                      layers: [RenderLayer(texture: texture, pass: pass, opacity: 1,
                                                                           effect: ItemView.effect(config))],
                                                      overlays: overlays), wall: config.sync.wall, size: config.size))
        log.info("snapshot of \(input): frame at \(String(format: "%.3f", frame.pts)) s")
        return image
    }

    /// Decodes one file on a background thread, giving up after `timeout` seconds.
    static func decodeBounded(_ path: String, timeout: Double,
                              targetSize: @escaping @Sendable (PixelSize) -> PixelSize) throws -> DecodedItem {
        let box = ErrorBox()
        let capturing = DecodeCache(items: [PlaylistItem(path: path)], timeout: timeout, log: Log(level: .error, sink: { _ in }),
                                    decode: { p in
                                        do { return try MediaFile.decode(p.path, targetSize: targetSize) } catch { box.set(error); throw error }
                                    })
        capturing.wait(for: 0)
        if let item = capturing.item(0) { return item }
        if let e = box.get() { throw e }
        throw MediaError(path: path, reason: "decode took longer than \(timeout) s")
    }

    /// One `probe` line, and whether the file failed.
    public static func probeLine(_ path: String, override: ProjectionOverride? = nil) -> (json: String, failed: Bool) {
        do {
            return (ProbeReport.line(try MediaFile.probe(path), override: override), false)
        } catch let e as MediaError {
            return (ProbeReport.line(path: path, error: e.reason), true)
        } catch {
            return (ProbeReport.line(path: path, error: "\(error)"), true)
        }
    }
}

/// Holds the error a background decode threw.
final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var error: Error?
    func set(_ e: Error) { lock.lock(); error = e; lock.unlock() }
    func get() -> Error? { lock.lock(); defer { lock.unlock() }; return error }
}


/// One file of a recording cut from its canvas: a span's panel (`kiosk record --screen NAME:A+B:SOURCE`).
public struct RecordingCut: Sendable, Equatable {
    /// The file written.
    public var path: String
    /// Its part of the canvas.
    public var rect: PixelRect

    /// The part `rect` of the canvas, written to `path`.
    public init(path: String, rect: PixelRect) {
        self.path = path
        self.rect = rect
    }
}
