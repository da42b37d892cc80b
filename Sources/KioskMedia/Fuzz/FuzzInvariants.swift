import Foundation
import KioskCore

/// What one fuzz input showed: the invariants it broke (empty when all held) and how far it got.
public struct FuzzVerdict: Sendable {
    /// How far an input got through its target: refused (an error), probed only, or decoded / parsed whole.
    public enum Reach: Int, Sendable, Comparable {
        /// The entry point refused it with an error.
        case refused
        /// The probe accepted it; it was too big to decode, or its decode was refused.
        case probed
        /// Decoded (media) or parsed and re-parsed (text): every invariant of the target ran.
        case complete

        /// Orders by how far an input got.
        public static func < (a: Reach, b: Reach) -> Bool { a.rawValue < b.rawValue }
    }

    /// One line per broken invariant.
    public internal(set) var broken: [String] = []
    /// How far the input got.
    public internal(set) var reach: Reach = .refused

    /// Records `message` when `condition` is false.
    mutating func expect(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() { broken.append(message()) }
    }
}

/// The invariants of kiosk's fuzz targets, in one place: the libFuzzer harness (Fuzz/, `Kiosk/fuzz.sh`) traps on
/// a broken one, and FuzzRegressionTests re-runs the kept inputs (Tests/KioskTests/Fixtures/fuzz/TARGET/) through
/// the same code, so a fixed crash cannot come back as a wrong answer either.
public enum FuzzInvariants {
    /// The targets, in the order `Kiosk/fuzz.sh all` runs them.
    public static let targets = ["sniff", "image", "gif", "gif-anim", "webp", "webp-anim", "m3u", "config"]
    /// Most pixels (width × height × frames) a target decodes; larger files are only probed, so one header
    /// claiming 16384×16384 cannot turn a run into a test of the machine's memory.
    public static let maxDecodedPixels = 1 << 22
    /// The size stills are decoded to (the screen of a tiny kiosk).
    public static let screen = PixelSize(width: 64, height: 48)
    /// The most UTF-8 bytes of one config error line: the 200 scalars `ErrorQuote` keeps of a value (at most
    /// 4 bytes each), the file, line and the words around it.
    public static let maxErrorBytes = 4 * ErrorQuote.limit + 300
    /// The config file name the config target reads its input as.
    public static let configName = "kiosk.conf"

    /// Runs the input at `path` through `target`'s entry point and checks that target's invariants; nil for a
    /// target that does not exist.
    public static func check(target: String, path: String) -> FuzzVerdict? {
        var verdict = FuzzVerdict()
        switch target {
        case "sniff": sniff(path, &verdict)
        case "image":
            decodeSmall(path, &verdict, probe: { try FFmpegImageDecoder.probe(path: $0) }) { path, v in
                let item = try FFmpegImageDecoder.decode(path: path, targetSize: { _ in screen })
                for image in images(item.picture) {
                    v.expect(image.size.width <= screen.width && image.size.height <= screen.height,
                             "decoded \(image.size) for a \(screen) screen")
                }
                return item
            }
        case "gif", "gif-anim":
            decodeSmall(path, &verdict, probe: { try GifDecoder.probe(path: $0) }) { path, _ in try GifDecoder.decode(path: path) }
        case "webp", "webp-anim":
            decodeSmall(path, &verdict, probe: { try WebPDecoder.probe(path: $0) }) { path, _ in try WebPDecoder.decode(path: path) }
        case "m3u": m3u(text(at: path), &verdict)
        case "config": config(text(at: path), &verdict)
        default: return nil
        }
        return verdict
    }

    /// The file's bytes as UTF-8 (invalid sequences replaced, as the player reads them); empty when unreadable.
    static func text(at path: String) -> String {
        // FileBytes, not FileManager.contents: Foundation's reader leaks its 4 KiB buffer on an empty file, which
        // LeakSanitizer reports as the fuzz target's failure
        let bytes = (try? FileBytes.read(path, count: (try? FileBytes.size(path)) ?? 0)) ?? []
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Format sniffing and probe: every decoder family's probe, libavformat's demuxers, JPEG/PNG/XMP parsing.
    static func sniff(_ path: String, _ v: inout FuzzVerdict) {
        guard let info = try? MediaFile.probe(path) else { return }
        v.reach = .probed
        checkInfo(info, &v)
        let decision = ProjectionResolver.decide(path: path, metadata: info.projection, override: nil)
        v.expect(decision.projection.inputFOV.isFinite, "non-finite input FOV \(decision)")
        v.reach = .complete
    }

    /// Probes; when the result is small enough, decodes and checks that the decode agrees with the probe.
    static func decodeSmall(_ path: String, _ v: inout FuzzVerdict, probe: (String) throws -> MediaInfo,
                            decode: (String, inout FuzzVerdict) throws -> DecodedItem) {
        guard let info = try? probe(path) else { return }
        v.reach = .probed
        checkInfo(info, &v)
        guard info.width * info.height * max(1, info.frames) <= maxDecodedPixels,
              let item = try? decode(path, &v) else { return }
        v.reach = .complete
        for image in images(item.picture) {
            v.expect(image.size.width > 0 && image.size.height > 0, "empty picture \(image.size)")
            v.expect(image.pixels.count == image.size.width * image.size.height * 4,
                     "\(image.pixels.count) bytes for \(image.size) RGBA")
        }
        if case .animation(let frames, let loops) = item.picture {
            v.expect(loops >= 0, "loops \(loops)")
            v.expect(!frames.isEmpty, "an animation without frames")
            v.expect(frames.allSatisfy { $0.duration.isFinite && $0.duration > 0 }, "a frame duration not > 0")
            v.expect(item.info.kind != .animation || frames.count == info.frames,
                     "probe says \(info.frames) frames, decode gives \(frames.count)")
            v.expect(loops == info.loops, "probe says \(info.loops) loops, decode gives \(loops)")
        }
    }

    /// What every probe must say: sizes, frames and times that make sense.
    static func checkInfo(_ info: MediaInfo, _ v: inout FuzzVerdict) {
        v.expect(info.width >= 0 && info.height >= 0, "size \(info.width)x\(info.height)")
        v.expect(info.frames >= 0 && info.loops >= 0, "frames \(info.frames), loops \(info.loops)")
        v.expect(info.duration.map { $0.isFinite && $0 >= 0 } ?? true, "duration \(String(describing: info.duration))")
    }

    /// The pictures of a decoded item (none for a clip).
    static func images(_ picture: DecodedPicture) -> [RGBAImage] {
        switch picture {
        case .still(let image): return [image]
        case .animation(let frames, _): return frames.map(\.image)
        case .clip: return []
        }
    }

    /// A log that drops every line (the parsers warn about bad lines).
    static let quiet = Log(level: .error, sink: { _ in })

    /// Playlists with `#EXTKIOSK:` lines: absolute paths, finite positive durations, valid overrides and views.
    static func m3u(_ text: String, _ v: inout FuzzVerdict) {
        for item in M3U.entries(in: text, base: "/srv/kiosk", source: "fuzz.m3u", log: quiet) {
            v.expect(item.path.hasPrefix("/"), "relative path '\(item.path)'")
            v.expect(item.duration.map { $0.isFinite && $0 > 0 } ?? true, "duration \(String(describing: item.duration))")
            if let o = item.override {
                v.expect((try? o.validate()) != nil, "an invalid override was kept: \(o)")
                let view = o.startView(canvas: PixelSize(width: 1920, height: 1080))
                v.expect([view.yaw, view.pitch, view.roll, view.hFOV, view.vFOV].allSatisfy(\.isFinite), "view \(view)")
            }
            _ = ProjectionResolver.decide(path: item.path, metadata: nil, override: item.override)
        }
        v.reach = .complete
    }

    /// A config file through `kiosk play`'s option tables, as `kiosk play --config kiosk.conf` reads it.
    /// Refused: the error line kiosk prints is one line of at most `maxErrorBytes` and names `kiosk.conf:LINE`.
    /// Accepted: the options written back as a config (`render`) parse to the same options.
    static func config(_ text: String, _ v: inout FuzzVerdict) {
        let options: ParsedOptions
        switch parseConfig(text) {
        case .failure(let error):
            checkErrorLine(error.message, &v)
            return
        case .success(let parsed): options = parsed
        }
        let rendered = render(options)
        switch parseConfig(rendered) {
        case .failure(let error):
            v.broken.append("the options written back are refused: \(error.message); written: \(ErrorQuote.cut(rendered))")
        case .success(let again):
            v.expect(again.values == options.values && again.positional == options.positional,
                     "written back and re-parsed, \(ErrorQuote.cut(String(describing: again.values))) "
                     + "\(ErrorQuote.cut(String(describing: again.positional))) != "
                     + "\(ErrorQuote.cut(String(describing: options.values))) \(ErrorQuote.cut(String(describing: options.positional)))")
        }
        v.reach = .complete
    }

    /// `text` as the config file `kiosk.conf` through `kiosk play`'s option tables and settings, as the command
    /// line reads it: an error is located at the config line that set the flag it names (`ConfigFile.locate`).
    public static func parseConfig(_ text: String) -> Result<ParsedOptions, UsageError> {
        var expanded: (args: [String], origins: [String?]) = ([], [])
        do {
            expanded = try ConfigFile.expandLocated(["--config", configName], read: { _ in text })
            let options = try ParsedOptions.parse(expanded.args, specs: CommandSpecs.play, command: "play")
            _ = try CommandSpecs.config(from: options)
            _ = try CommandSpecs.inputOptions(from: options)
            _ = try CommandSpecs.projectionOverride(options)
            return .success(options)
        } catch let error as UsageError {
            return .failure(ConfigFile.locate(error, args: expanded.args, origins: expanded.origins))
        } catch {
            return .failure(UsageError("a non-usage error: \(error)"))
        }
    }

    /// Options written back as config text: `name = true` for a flag, `name = value` (quoted when the bare
    /// value would not read back) for each value, then `path = …` lines (after `path = --` when a path starts
    /// with `-`).
    public static func render(_ options: ParsedOptions) -> String {
        var lines: [String] = []
        let flags = Set(CommandSpecs.play.filter { if case .flag = $0.kind { return true } else { return false } }.map(\.name))
        for name in options.values.keys.sorted() {
            if flags.contains(name) { lines.append("\(name) = true"); continue }
            for value in options.all(name) { lines.append(line(name, value)) }
        }
        if options.positional.contains(where: { $0.hasPrefix("-") }) { lines.append("path = --") }
        lines += options.positional.map { line("path", $0) }
        return lines.map { $0 + "\n" }.joined()
    }

    /// `name = value`, bare when that line reads back as `value`, else in quotes.
    static func line(_ name: String, _ value: String) -> String {
        let bare = "\(name) = \(value)"
        let read = (try? ConfigFile.located(from: bare, file: configName)) ?? []
        let plain = name == "path" ? [value] : ["--\(name)", value]
        return read.map(\.argument) == plain ? bare : "\(name) = \"\(value)\""
    }

    /// The error line kiosk prints for `message` (`kiosk: ` and the message with control characters escaped):
    /// one line, at most `maxErrorBytes`, naming `kiosk.conf:LINE`.
    static func checkErrorLine(_ message: String, _ v: inout FuzzVerdict) {
        let printed = "kiosk: " + Log.escaped(message)
        v.expect(!printed.contains(where: \.isNewline), "an error of more than one line: \(ErrorQuote.cut(printed))")
        v.expect(printed.utf8.count <= maxErrorBytes, "an error line of \(printed.utf8.count) bytes: \(ErrorQuote.cut(printed))")
        let location = message.prefix { $0 != " " }
        let line = location.dropFirst(configName.count + 1).dropLast()
        v.expect(location.hasPrefix(configName + ":") && location.hasSuffix(":") && !line.isEmpty && line.allSatisfy(\.isNumber),
                 "an error that names no \(configName):LINE: \(ErrorQuote.cut(printed))")
    }
}
