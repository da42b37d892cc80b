import KioskCore
import KioskMedia
import KioskOutput
import KioskRender

/// The recorder: a headless canvas whose every presented frame is read back and encoded, on a virtual clock
/// that advances exactly one frame time per frame.
final class RecordingOutput: Output {
    private let canvas: HeadlessOutput
    private let encoder: VideoEncoder
    private let clock: VirtualClock
    private let fps: Int
    private var frames = 0

    /// Opens the encoder for `path` at `size` and `fps`.
    init(path: String, size: PixelSize, fps: Int, clock: VirtualClock) throws {
        canvas = try HeadlessOutput(size: size, pacing: nil)
        encoder = try VideoEncoder(path: path, size: size, fps: fps)
        self.clock = clock
        self.fps = fps
    }

    var name: String { "recorder (\(encoder.codecName))" }
    var context: GLContext { canvas.context }
    var size: PixelSize { canvas.size }
    var rotation: Rotation { .none }
    var target: RenderTarget { canvas.target }
    var needsEveryFrame: Bool { true }

    func present() throws -> Double? {
        try encoder.append(canvas.readPixels())
        let shown = clock.now
        frames += 1
        clock.set(Double(frames) / Double(fps))  // frame n is at exactly n/fps: no drift from adding 1/fps
        return shown
    }

    func idle() {}

    /// Writes the file's end.
    func finish() throws { try encoder.finish() }

    /// The codec in use.
    var codecName: String { encoder.codecName }
}
