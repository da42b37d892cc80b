import Foundation

/// Finds the built-in demo playlist (`Kiosk/demo/demo.m3u` in the source tree, `share/kiosk/demo` when installed).
public enum DemoPlaylist {
    /// What the tour shows besides its files, taken when `play` or `record` is given no path (flags given
    /// still win): each item's caption, Ken Burns on the stills, a different transition at each change (with
    /// seed 7 the first five are crossfade, fade, wipe, zoom, slide) and a clock.
    public static let flags = ["--captions", "--ken-burns", "--transition", "random", "--seed", "7", "--clock", "%H:%M"]

    /// The demo playlist's path, or nil if none of the usual places has it.
    public static func locate() -> String? {
        var candidates: [String] = []
        if let env = ProcessInfo.processInfo.environment["KIOSK_DEMO"], !env.isEmpty { candidates.append(env) }
        let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        candidates.append(exe.appendingPathComponent("../share/kiosk/demo/demo.m3u").path)
        candidates.append("/usr/share/kiosk/demo/demo.m3u")
        // a build in the source tree: .build/<triple>/<config>/kiosk
        candidates.append(exe.appendingPathComponent("../../../Kiosk/demo/demo.m3u").path)
        // the source tree this was built from
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Kiosk/demo/demo.m3u").standardizedFileURL.path
        candidates.append(source)
        return candidates.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            .first { FileManager.default.fileExists(atPath: $0) }
    }
}
