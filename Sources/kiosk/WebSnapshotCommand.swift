import Foundation
import KioskCore
import KioskMedia
import KioskWebContent

/// `kiosk web-snapshot PAGE.html --output OUT.png --size WxH`: shows a local page in the web helper (a child
/// `kiosk-web-helper`, WPE WebKit offscreen) and writes the first frame it paints once loaded as a PNG.
struct WebSnapshotCommand {
    let log: Log

    /// The options `web-snapshot` reads.
    static let specs: [OptionSpec] = [
        OptionSpec("output", .text, metavar: "OUT.png", "the PNG to write (required)"),
        OptionSpec("size", .size, metavar: "WxH", "the page's size in device pixels (default 1920x1080)"),
        OptionSpec("timeout", .number(0.5...120), metavar: "S", "a page not painted within S seconds is an error (default 10)"),
        OptionSpec("settle", .number(0...10), metavar: "S", "after the first paint, take the newest frame S seconds on (default 0: the first)"),
        OptionSpec("log-level", .choice(LogLevel.allCases.map(\.name)), "how much to say on stderr (default warn; info: the time to the first paint)"),
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
        if let l = o.string("log-level"), let level = LogLevel(name: l) { log.level = level }
        let image: RGBAImage
        do throws(WebContentError) {
            let helper = try WebHelperProcess(page: page, size: size, executable: WebHelperProcess.siblingExecutable())
            defer { helper.stop() }
            image = try helper.paintedFrame(timeout: o.number("timeout") ?? 10, settle: o.number("settle") ?? 0)
            for uri in helper.refusedNavigations { log.warn("web page \(page): refused a navigation to \(uri)") }
            if let seconds = helper.firstPaintSeconds {
                log.info("web page \(page): painted at \(size) \(String(format: "%.3f", seconds)) s after the helper started")
            }
        } catch {
            log.error(error.description)
            return 1
        }
        try PNGWriter.write(image, to: out)
        return 0
    }
}
