import Foundation
import KioskCore
import KioskMedia
import KioskWebContent

/// `kiosk web-snapshot PAGE.html --output OUT.png --size WxH`: shows a local page in the web helper (a child
/// `kiosk web-helper`, WPE WebKit offscreen) and writes the first frame it paints once loaded as a PNG.
struct WebSnapshotCommand {
    let log: Log

    /// The options `web-snapshot` reads.
    static let specs: [OptionSpec] = [
        OptionSpec("output", .text, metavar: "OUT.png", "the PNG to write (required)"),
        OptionSpec("size", .size, metavar: "WxH", "the page's size in device pixels (default 1920x1080)"),
        OptionSpec("timeout", .number(0.5...120), metavar: "S", "a page not painted within S seconds is an error (default 10)"),
        OptionSpec("settle", .number(0...10), metavar: "S", "after the first paint, take the newest frame S seconds on (default 0: the first)"),
    ]

    func run(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") {
            print(CommandHelp.webSnapshot.text, terminator: "")
            return 0
        }
        let o = try ParsedOptions.parse(args, specs: Self.specs, command: "web-snapshot")
        guard o.positional.count == 1, let page = o.positional.first else { throw UsageError("web-snapshot: give exactly one PAGE.html") }
        guard let out = o.string("output") else { throw UsageError("web-snapshot: --output OUT.png is required") }
        let size = o.size("size") ?? PixelSize(width: 1920, height: 1080)
        let image: RGBAImage
        do throws(WebContentError) {
            let helper = try WebHelperProcess(page: page, size: size, executable: WebHelperCommand.executable())
            defer { helper.stop() }
            image = try helper.paintedFrame(timeout: o.number("timeout") ?? 10, settle: o.number("settle") ?? 0)
            for uri in helper.refusedNavigations { log.warn("web page \(page): refused a navigation to \(uri)") }
        } catch {
            log.error(error.description)
            return 1
        }
        try PNGWriter.write(image, to: out)
        return 0
    }
}

/// `kiosk web-helper --fd N --size WxH PAGE`: the web helper itself, started by kiosk (not listed in `--help`). It
/// shows PAGE in WPE WebKit and talks to its parent on the inherited socket N until the parent closes it.
struct WebHelperCommand {
    /// Runs the helper; exit 2 for a bad command line, 1 when the page could not be shown.
    func run(_ args: [String]) throws -> Int32 {
        let specs = [OptionSpec("fd", .number(3...65535), metavar: "N", "the socket to the parent"),
                     OptionSpec("size", .size, metavar: "WxH", "the page's size in device pixels")]
        let o = try ParsedOptions.parse(args, specs: specs, command: "web-helper")
        guard o.positional.count == 1, let page = o.positional.first, let fd = o.number("fd"), let size = o.size("size") else {
            throw UsageError("web-helper: give --fd N --size WxH PAGE (kiosk starts it; it is not for people)")
        }
        let socket = Int32(fd)
        guard fcntl(socket, F_GETFD) >= 0 else { throw UsageError("web-helper: --fd \(socket) is not open") }
        _ = fcntl(socket, F_SETFD, FD_CLOEXEC)  // WebKit's own children must not hold the parent's socket open
        let location: WebPageLocation
        do throws(WebContentError) { location = try WebPageLocation(path: page) } catch {
            Log.writeStandardError("kiosk: \(error.description)\n")
            return 1
        }
        let status = WebHelper.run(uri: location.uri, allowedPrefix: location.folderPrefix, size: size, socket: socket)
        // WebKit's web process leaves only when its main loop notices the helper is gone, which a page spinning in
        // JavaScript never lets it do: as the leader of its own group (as kiosk starts it), the helper ends the group
        if getpgrp() == getpid() { kill(0, SIGKILL) }
        return status
    }

    /// This program's own path (/proc/self/exe), which the player starts as its web helper.
    static func executable() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
