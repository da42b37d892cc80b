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
        let output = try SteppingOutput(size: canvas, clock: clock, step: 1)
        let player = try Player(items: items, config: { var c = config; c.slideshow.loop = false; return c }(),
                                output: output, clock: clock, log: Log(level: .error), waitForDecodes: true)
        let start = DispatchTime.now().uptimeNanoseconds
        let report = try player.run(length: nil)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Double(report.slotsShown) / seconds
    }
}

/// A headless output on a virtual clock that moves `step` seconds per presented frame.
final class SteppingOutput: Output {
    private let canvas: HeadlessOutput
    private let clock: VirtualClock
    private let step: Double

    init(size: PixelSize, clock: VirtualClock, step: Double) throws {
        canvas = try HeadlessOutput(size: size, pacing: nil)
        self.clock = clock
        self.step = step
    }

    var name: String { "stepping" }
    var context: GLContext { canvas.context }
    var size: PixelSize { canvas.size }
    var rotation: Rotation { .none }
    var target: RenderTarget { canvas.target }
    var needsEveryFrame: Bool { true }
    func present() throws -> Double? {
        context.finish()
        let t = clock.now
        clock.advance(by: step)
        return t
    }
    func idle() { clock.advance(by: step) }
}
