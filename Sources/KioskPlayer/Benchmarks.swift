import Foundation
import KioskCore
import KioskMedia
import KioskOutput
import KioskRender

extension PlayJob {
    /// Decodes one file straight to about `canvas` size, as the player does (for the benchmark).
    public static func decodeForBenchmark(_ path: String, canvas: PixelSize) throws -> String {
        let item = try MediaFile.decode(path, targetSize: { FlatView.decodeSize(picture: $0, canvas: canvas, fit: .contain) })
        return "\(item.info.size)->\(item.picture.size)"
    }

    /// Shows `count` stills from `folder` one after another as fast as possible through decode, upload and
    /// draw on the headless canvas; returns stills per second.
    public static func stillsThroughput(folder: String, canvas: PixelSize, count: Int) throws -> Double {
        let files = PlaylistLoader(log: Log(level: .error)).folderFiles(folder)
        guard !files.isEmpty else { throw PlayerError("\(folder): no pictures") }
        var config = PlayerConfig()
        config.size = canvas
        config.slideshow.transition = .none
        config.slideshow.duration = 1
        let items = (0..<count).map { PlaylistItem(path: files[$0 % files.count]) }
        let clock = VirtualClock()
        let output = try VirtualTimeOutput(size: canvas, fps: 1, clock: clock, sink: nil)
        let player = try Player(items: items, config: { var c = config; c.slideshow.loop = false; return c }(),
                                output: output, clock: clock, log: Log(level: .error), waitForDecodes: true)
        let start = DispatchTime.now().uptimeNanoseconds
        let report = try player.run(length: nil)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Double(report.slotsShown) / seconds
    }
}
