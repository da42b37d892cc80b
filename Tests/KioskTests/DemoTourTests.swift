// The built-in demo, end to end: `kiosk record` with no path (the tour's own settings, DemoPlaylist.flags), once, headless
// (960x540 at 10 fps, --no-loop, a fixed --start-time), then the recording is checked item by item: every playlist
// entry shows, in order, at the time the log gives; the recorded frame of each matches `kiosk snapshot` of that item
// as the slideshow shows it then (a still on its Ken Burns path, the panorama panned) and no other item's; each
// change plays the transition the seed picks, one of each of the five, checked on its middle frame; the clip and
// the sound file are heard and the stills are silent.
// The overlays are read back with tesseract (keyed on their white fill, as TextOCRTests does): each item's caption,
// the clock and the sound file's now-playing card.
import Foundation
import KioskCore
import KioskMedia
import KioskPlayer
import KioskRender
import XCTest

final class DemoTourTests: XCTestCase {
    /// The repository's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let demoFolder = root.appendingPathComponent("Kiosk/demo").path
    static let size = PixelSize(width: 960, height: 540)
    static let fps = 10.0
    /// The player's wall clock at the start of the recording, for the clock overlay.
    static let startTime = "2025-06-01T09:41:00"
    /// The clock as it reads in the first minute of the recording (`--clock %H:%M` from demo.sh).
    static let clockText = "09:41"
    /// The sound file's tags (make-demo.sh), as the card shows them.
    static let cardLines = ["Morning Song", "The Kiosk Ensemble", "Built-in Demo"]
    /// Seconds a transition takes (the default: demo.sh gives no --transition-time).
    static let transitionTime = 1.0
    /// Yaw degrees per second the slideshow pans a 360 item (the default).
    static let panSpeed = 3.0

    /// One item as the log says it started: `showing PATH at T s (item N)`.
    struct Shown: Sendable, Equatable {
        var path: String
        var start: Double
    }

    /// The recording and what the run said, made once for all the tests here.
    struct Tour: Sendable {
        var folder: String
        var recording: String
        var flags: [String]
        var stderr: String
        var shown: [Shown]
    }

    private static let tour: Result<Tour, any Error> = Result { try recordTour() }

    override class func tearDown() {
        if case .success(let t) = tour { try? FileManager.default.removeItem(atPath: t.folder) }
        super.tearDown()
    }

    /// The shared recording; a failure to make it fails each test with its reason.
    func recorded() throws -> Tour {
        try Self.tour.get()
    }

    /// The settings the tour plays with when no path is given.
    static func demoFlags() throws -> [String] { DemoPlaylist.flags }

    /// Records the built-in demo (no path given) once, bounded in time, and reads the item changes from its log.
    static func recordTour() throws -> Tour {
        let folder = NSTemporaryDirectory() + "kiosk-demo-tour-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let out = folder + "/tour.mp4"
        let flags = try demoFlags()
        // KIOSK_DEMO empty: the demo is found next to the binary (the source tree), not from the environment.
        let r = try CLITests.run(["record", "--no-loop", "--output", out, "--size", size.description,
                                                       "--fps", String(Int(fps)), "--start-time", startTime,
                                                       "--log-level", "info"],
                                 timeout: 300, environment: ["KIOSK_DEMO": ""])
        guard r.status == 0 else {
            throw FFmpegCLI.Failure(description: "kiosk record of the demo exited \(r.status): \(r.stderr.suffix(2000))")
        }
        var shown: [Shown] = []
        for line in r.stderr.split(separator: "\n") {
            // kiosk: info: showing Kiosk/demo/01-dandelions.jpg at 0.000 s (item 0)
            guard let s = line.range(of: "info: showing "), let at = line.range(of: " at ", options: .backwards),
                  let unit = line.range(of: " s (item ", options: .backwards), at.upperBound <= unit.lowerBound,
                  let t = Double(line[at.upperBound..<unit.lowerBound]) else { continue }
            shown.append(Shown(path: String(line[s.upperBound..<at.lowerBound]), start: t))
        }
        return Tour(folder: folder, recording: out, flags: flags, stderr: r.stderr, shown: shown)
    }

    /// The demo playlist's entries.
    static func entries() throws -> [PlaylistItem] {
        let path = demoFolder + "/demo.m3u"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return M3U.entries(in: text, base: demoFolder, source: path, log: Log(level: .error))
    }

    // MARK: frames

    /// The recording's frames with these indices (frame n is at n / fps s), decoded by ffmpeg as RGBA.
    func frames(_ tour: Tour, _ indices: Set<Int>) throws -> [Int: RGBAImage] {
        let sorted = indices.sorted()
        let select = sorted.map { "eq(n\\,\($0))" }.joined(separator: "+")
        let data = [UInt8](try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", tour.recording, "-vf", "select='\(select)'",
                                                        "-vsync", "passthrough", "-pix_fmt", "rgba", "-f", "rawvideo", "-"]))
        let n = Self.size.width * Self.size.height * 4
        XCTAssertEqual(data.count, n * sorted.count, "ffmpeg gave \(data.count / n) of the \(sorted.count) frames asked for")
        var out: [Int: RGBAImage] = [:]
        for (k, index) in sorted.enumerated() where (k + 1) * n <= data.count {
            out[index] = RGBAImage(size: Self.size, pixels: Array(data[(k * n)..<((k + 1) * n)]))
        }
        return out
    }

    /// The index of the frame shown at `t` seconds.
    static func frameIndex(_ t: Double) -> Int { Int((t * fps).rounded()) }

    /// `kiosk snapshot` of item `index` `t` seconds into it, at the recording's size, showing what the slideshow
    /// shows then: a still on its Ken Burns path (`--zoom`/`--center` from `KenBurns` with the demo's seed, the slot
    /// being the item's index in the first pass), a 360 item from the playlist's start view turned by the slideshow's
    /// pan, a clip's frame at `t`, a sound file's now-playing card at `t`.
    func snapshot(_ item: PlaylistItem, index: Int, at t: Double, tour: Tour) throws -> RGBAImage {
        let source = item.path
        let ext = MediaExtensions.of(item.path)
        let png = tour.folder + "/item\(index)-snapshot.png"
        var args = ["snapshot", source, "--output", png, "--size", Self.size.description, "--at", String(t)]
        if let o = item.override, o.kind != nil || ProjectionDetector.detect(path: item.path) != nil {
            if let yaw = o.yaw { args += ["--yaw", String(((yaw + Self.panSpeed * t + 540).truncatingRemainder(dividingBy: 360)) - 180)] }
            if let pitch = o.pitch { args += ["--pitch", String(pitch)] }
            if let fov = o.fov { args += ["--fov", String(fov.h)] }
        } else if MediaExtensions.isPicture(item.path), ext != "gif", ext != "webp", ext != "apng", tour.flags.contains("--ken-burns") {
            let seed = tour.flags.firstIndex(of: "--seed").flatMap { UInt64(tour.flags[$0 + 1]) } ?? 1
            let length = item.duration ?? 5
            let view = KenBurns(seed: seed).view(forSlot: index, progress: t / length, base: FlatView(fit: .contain))
            args += ["--zoom", String(view.zoom), "--center", "\(view.center.x),\(view.center.y)"]
        }
        if let effect = item.override?.effect { args += ["--effect", Self.effectAt(effect, t: t)] }
        let r = try CLITests.run(args, timeout: 120)
        XCTAssertEqual(r.status, 0, "kiosk \(args.joined(separator: " ")): \(r.stderr)")
        let data = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", png, "-pix_fmt", "rgba", "-f", "rawvideo", "-"])
        return RGBAImage(size: Self.size, pixels: [UInt8](data))
    }

    /// An item's own effect as it is `t` seconds into the item: a sweep `split=A..B:period=S` (started with the
    /// item) stands at `A + (B−A)·(1−cos 2πt/S)/2`, given to snapshot as that one split.
    static func effectAt(_ spec: EffectSpec, t: Double) -> String {
        var options = spec.options.filter { !$0.hasPrefix("period=") }
        let period = spec.options.first { $0.hasPrefix("period=") }.flatMap { Double($0.dropFirst(7)) } ?? 10
        if let i = options.firstIndex(where: { $0.hasPrefix("split=") && $0.contains("..") }) {
            let ends = options[i].dropFirst(6).components(separatedBy: "..").compactMap(Double.init)
            if ends.count == 2 {
                let x = ends[0] + (ends[1] - ends[0]) * (1 - cos(2 * Double.pi * t / period)) / 2
                options[i] = "split=\(x)"
            }
        }
        return ([spec.name] + options).joined(separator: ":")
    }

    // MARK: the tour

    func testTheDemoIsFoundAndEveryEntryShowsInOrder() throws {
        let tour = try recorded()
        let playlist = Self.demoFolder + "/demo.m3u"
        XCTAssertTrue(tour.stderr.contains("no path given: playing the built-in demo \(playlist)"), tour.stderr)
        for flag in ["--captions", "--ken-burns", "--clock"] {
            XCTAssertTrue(tour.flags.contains(flag), "demo.sh's demo flags lack \(flag): \(tour.flags)")
        }
        let entries = try Self.entries()
        XCTAssertEqual(entries.count, 9, "the demo playlist's entries")
        XCTAssertTrue(entries.last.map { SMILFile.isSMIL($0.path) } ?? false, "the tour ends on a layout")
        XCTAssertEqual(tour.shown.map { URL(fileURLWithPath: $0.path).standardizedFileURL.path },
                       entries.map { URL(fileURLWithPath: $0.path).standardizedFileURL.path }, "the items shown, in order")
        XCTAssertEqual(tour.shown.first?.start, 0)
        for (a, b) in zip(tour.shown, tour.shown.dropFirst()) {
            XCTAssertGreaterThanOrEqual(b.start - a.start, 3, "\(b.path) starts \(b.start - a.start) s after \(a.path)")
        }
        // The tour's media: every entry exists and the whole folder stays small.
        var bytes = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.demoFolder) {
            bytes += (try FileManager.default.attributesOfItem(atPath: Self.demoFolder + "/" + name)[.size] as? Int) ?? 0
        }
        XCTAssertLessThanOrEqual(bytes, 3 << 20, "Kiosk/demo holds \(bytes) bytes")
        XCTAssertTrue(FileManager.default.fileExists(atPath: Self.demoFolder + "/CREDITS"))
    }

    func testEachItemsFrameMatchesItsSnapshotBestAndConsecutiveItemsDiffer() throws {
        let tour = try recorded()
        let entries = try Self.entries()
        XCTAssertEqual(tour.shown.count, entries.count)
        // Two seconds into each item: its transition is over.
        let into = 2.0
        let indices = tour.shown.map { Self.frameIndex($0.start + into) }
        let got = try frames(tour, Set(indices))
        let recorded = try indices.map { try XCTUnwrap(got[$0]) }.map { Grid($0) }
        let snapshots = try entries.enumerated().map { i, item in
            Grid(try snapshot(item, index: i, at: Double(indices[i]) / Self.fps - tour.shown[i].start, tour: tour))
        }
        for (i, frame) in recorded.enumerated() {
            let distances = snapshots.map { frame.distance($0) }
            let own = distances[i]
            let others = distances.enumerated().filter { $0.offset != i }.map(\.element)
            let name = (entries[i].path as NSString).lastPathComponent
            print("item \(i) \(name): \(own) from its snapshot, \(others.min() ?? .infinity) from the nearest other")
            XCTAssertLessThan(own, 6, "\(name): the recorded frame is \(own) from its snapshot (all: \(distances))")
            XCTAssertLessThan(own * 4, others.min() ?? .infinity,
                              "\(name): its snapshot is not clearly the nearest (all: \(distances))")
        }
        for i in recorded.indices.dropFirst() {
            XCTAssertGreaterThan(recorded[i].distance(recorded[i - 1]), 20, "items \(i - 1) and \(i) look alike")
        }
    }

    func testEachChangePlaysTheTransitionTheSeedPicksOneOfEachOfTheFive() throws {
        let tour = try recorded()
        let seed = try XCTUnwrap(tour.flags.firstIndex(of: "--seed").flatMap { UInt64(tour.flags[$0 + 1]) }, "demo.sh gives a --seed")
        XCTAssertEqual(tour.flags.firstIndex(of: "--transition").map { tour.flags[$0 + 1] }, "random")
        let chooser = try TransitionChooser(.random, seed: seed)
        // The changes into items 1...5: the slot sequence of the first pass is the item's index.
        let changes = Array(tour.shown.indices.dropFirst().prefix(5))
        let names = changes.map { type(of: chooser.transition(forChange: $0)).name }
        XCTAssertEqual(Set(names), ["crossfade", "slide", "wipe", "zoom", "fade"], "seed \(seed) picks \(names)")
        var wanted: Set<Int> = []
        for i in changes {
            let t = tour.shown[i].start
            wanted.formUnion([Self.frameIndex(t) - 1, Self.frameIndex(t + Self.transitionTime / 2), Self.frameIndex(t + Self.transitionTime) + 1])
        }
        let got = try frames(tour, wanted)
        // The middle of each change (p = 0.5 at half the transition time) against the last frame before it and the
        // first after it: the progress fitted from the middle frame must be about a half.
        let expected = 0.35...0.65
        for (i, name) in zip(changes, names) {
            let t = tour.shown[i].start
            let old = try XCTUnwrap(got[Self.frameIndex(t) - 1]), new = try XCTUnwrap(got[Self.frameIndex(t + Self.transitionTime) + 1])
            let mid = Grid(try XCTUnwrap(got[Self.frameIndex(t + Self.transitionTime / 2)]))
            let a = Grid(old), b = Grid(new)
            let what = "change into item \(i) (\(name))"
            let neither = min(mid.distance(a), mid.distance(b))
            XCTAssertGreaterThan(neither, 8, "\(what): the middle is one of the items, not between them")
            let columns = mid.columns
            print("\(what): the middle is \(mid.distance(a)) from the old item, \(mid.distance(b)) from the new, brightness \(mid.brightness)")
            switch name {
            case "crossfade":
                // Half of each, everywhere.
                let (p, d) = mid.fitMix(a, b)
                print("\(what): a mix at p \(p), \(d) from it")
                XCTAssertTrue(expected.contains(p), "\(what): the middle is a mix at p \(p)")
                XCTAssertLessThan(d * 2, neither, "\(what): the middle is not a mix of the two (\(d) from the best)")
            case "fade":
                // Through the background colour: black at the middle.
                XCTAssertLessThan(mid.brightness, 12, "\(what): not through black at its middle")
                XCTAssertGreaterThan(min(a.brightness, b.brightness), 30, "\(what): the items themselves are dark")
            case "wipe":
                // wipe:left: the columns left of p·W show the new item, the rest the old one, neither moved.
                let errors = (0...columns).map { mid.split(at: $0, left: b, right: a) }
                let k = errors.indices.min { errors[$0] < errors[$1] } ?? 0
                print("\(what): the edge at \(k) of \(columns) columns, \(errors[k]) from it")
                XCTAssertTrue(expected.contains(Double(k) / Double(columns)), "\(what): the edge is at \(Double(k) / Double(columns)) of the width")
                XCTAssertLessThan(errors[k] * 2, neither, "\(what): no edge between the new item and the old one")
            case "slide":
                // slide:left: the old item moved left by p·W, the new one following it in from the right.
                let errors = (0...columns).map { s in mid.split(at: columns - s, left: a, shiftLeft: s, right: b, shiftRight: -(columns - s)) }
                let s = errors.indices.min { errors[$0] < errors[$1] } ?? 0
                print("\(what): moved \(s) of \(columns) columns, \(errors[s]) from it")
                XCTAssertTrue(expected.contains(Double(s) / Double(columns)), "\(what): the items moved \(Double(s) / Double(columns)) of the width")
                XCTAssertLessThan(errors[s] * 2, neither, "\(what): not the two items side by side")
            case "zoom":
                // The old item zoomed 1 → 1.2 about the centre (1.1 at the middle) under the new one fading in:
                // nearer to that than to the unzoomed mix, and not dark like a fade.
                let zoomed = mid.fitMix(Grid(old, zoom: 1.1), b), flat = mid.fitMix(a, b)
                print("\(what): zoomed mix at p \(zoomed.p), \(zoomed.distance) from it; unzoomed \(flat.distance)")
                XCTAssertTrue(expected.contains(zoomed.p), "\(what): the new item is in at p \(zoomed.p)")
                XCTAssertLessThan(zoomed.distance, flat.distance, "\(what): the old item is not zoomed")
                XCTAssertLessThan(zoomed.distance * 2, neither, "\(what): not a mix of the zoomed old item and the new one")
                XCTAssertGreaterThan(mid.brightness, 20, "\(what): dark like a fade")
            default:
                XCTFail("\(what): no check for \(name)")
            }
        }
    }

    /// The RMS level in dB of the recording's sound from `start` for `length` seconds (-inf: digital silence).
    func rmsLevel(_ tour: Tour, from start: Double, length: Double) throws -> Double {
        let r = try BoundedProcess.run("/usr/bin/ffmpeg", ["-v", "info", "-nostdin", "-ss", String(start), "-t", String(length),
                                                          "-i", tour.recording, "-map", "0:a:0",
                                                          "-af", "astats=measure_perchannel=none:measure_overall=RMS_level",
                                                          "-f", "null", "-"], timeout: 60)
        let text = String(decoding: r.stderr, as: UTF8.self)
        XCTAssertEqual(r.status, 0, text)
        guard let line = text.split(separator: "\n").last(where: { $0.contains("RMS level dB:") }),
              let value = line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) else {
            throw FFmpegCLI.Failure(description: "astats said no RMS level: \(text.suffix(1000))")
        }
        return value == "-inf" ? -.infinity : try XCTUnwrap(Double(value), String(line))
    }

    func testTheClipAndTheSoundFileAreHeardAndTheStillsAreSilent() throws {
        let tour = try recorded()
        let types = try FFmpegCLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,codec_name",
                                                  "-of", "csv=p=0", tour.recording])
        let streams = String(decoding: types, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertEqual(streams.sorted(), ["aac,audio", "h264,video"], "the recording's streams")
        let entries = try Self.entries()
        XCTAssertEqual(tour.shown.count, entries.count)
        for (i, shown) in tour.shown.enumerated() {
            let end = i + 1 < tour.shown.count ? tour.shown[i + 1].start : shown.start + 5
            // Inside the slot, clear of the transitions at both ends.
            let from = shown.start + Self.transitionTime + 0.2, length = end - from - 0.3
            let level = try rmsLevel(tour, from: from, length: length)
            let name = (shown.path as NSString).lastPathComponent
            let ext = MediaExtensions.of(shown.path)
            if MediaExtensions.clips.contains(ext) || MediaExtensions.sounds.contains(ext) {
                XCTAssertGreaterThan(level, -35, "\(name): the sound at \(from)…\(from + length) s is \(level) dB")
            } else {
                XCTAssertLessThan(level, -60, "\(name): a still is not silent at \(from)…\(from + length) s: \(level) dB")
            }
        }
    }

    // MARK: overlays (these wait for the overlays being drawn into the frames)

    /// WAITS FOR CAPTION DRAWING: each item's caption (`#EXTKIOSK:caption=`, shown with demo.sh's --captions at the
    /// bottom) is read back from its recorded frame.
    func testEachCaptionIsReadBack() throws {
        let tour = try recorded()
        let entries = try Self.entries()
        XCTAssertEqual(tour.shown.count, entries.count)
        let indices = tour.shown.map { Self.frameIndex($0.start + 2) }
        let got = try frames(tour, Set(indices))
        let h = Self.size.height, w = Self.size.width
        // The bottom fifth: the caption (5 % of the height, one or two lines) and its margin.
        let band = PixelRect(x: 0, y: h * 4 / 5, width: w, height: h - h * 4 / 5)
        for (i, item) in entries.enumerated() {
            let caption = try XCTUnwrap(item.caption, "\(item.path) has a caption= line")
            let read = try ocr(try XCTUnwrap(got[indices[i]]), band, name: "caption\(i)", in: tour.folder, singleLine: false)
            print("OCR caption \(i): '\(read)'")
            // A letter in ten may be misread (the recording is H.264 at 960x540: the caption is 27 px high).
            XCTAssertLessThanOrEqual(Self.editsToFind(caption, in: read), caption.count / 10, "item \(i): caption '\(caption)', read '\(read)'")
        }
    }

    /// WAITS FOR OVERLAY DRAWING: the clock (`--clock %H:%M`, top right) reads the start time, and the sound file
    /// shows its now-playing card with its title, artist and album.
    func testTheClockAndTheNowPlayingCardAreReadBack() throws {
        let tour = try recorded()
        let entries = try Self.entries()
        let sound = try XCTUnwrap(entries.firstIndex { MediaExtensions.sounds.contains(MediaExtensions.of($0.path)) })
        XCTAssertLessThan(sound, tour.shown.count)
        guard sound < tour.shown.count else { return }
        let clockAt = Self.frameIndex(2), cardAt = Self.frameIndex(tour.shown[sound].start + 3)
        let got = try frames(tour, [clockAt, cardAt])
        let h = Self.size.height, w = Self.size.width
        let clock = try ocr(try XCTUnwrap(got[clockAt]), PixelRect(x: w * 3 / 4, y: 0, width: w / 4, height: h / 6),
                            name: "clock", in: tour.folder, singleLine: true)
        print("OCR clock: '\(clock)'")
        XCTAssertEqual(Self.editsToFind(Self.clockText, in: clock), 0, "the clock reads '\(clock)', not \(Self.clockText)")
        // The card's text column: right of the cover art square, the middle half of the height.
        let card = try ocr(try XCTUnwrap(got[cardAt]), PixelRect(x: w * 2 / 5, y: h / 5, width: w * 3 / 5, height: h * 3 / 5),
                           name: "card", in: tour.folder, singleLine: false)
        print("OCR card: '\(card)'")
        for line in Self.cardLines {
            XCTAssertLessThanOrEqual(Self.editsToFind(line, in: card), line.count / 10, "the card lacks '\(line)': read '\(card)'")
        }
    }
}
