import Foundation
import KioskCore
import KioskMedia

/// A one-frame video (no sound) as a clip that holds its frame: the slideshow times it like a still, for
/// `--duration`, and it is decoded once, not reopened every frame as a clip whose slot lasts one frame would be.
/// Its decoder is closed as soon as the frame is out. Thread-safe; only the `Sendable` frame is kept.
final class HeldFrameClip: ClipSource, @unchecked Sendable {
    private let lock = NSLock()
    private let held: VideoFrame
    private var taken = false
    let displaySize: PixelSize
    let startTime = 0.0
    /// Unused by the slideshow (it times the item as a still); one frame's worth, like the file.
    let slotLength: Double

    private init(frame: VideoFrame, displaySize: PixelSize, length: Double) {
        held = frame
        self.displaySize = displaySize
        slotLength = length
    }

    /// Decodes the first frame of `path` and closes its decoder.
    static func open(_ path: String, info: MediaInfo, log: Log, timeout: Double) throws -> DecodedItem {
        let decoder = try VideoDecoder(path: path, log: log)
        defer { decoder.close() }
        guard let frame = decoder.nextFrame(timeout: timeout) else {
            throw decoder.failure ?? MediaError(path: path, reason: "no video frame decoded")
        }
        log.debug("\(path): one frame, held like a still")
        let clip = HeldFrameClip(frame: frame, displaySize: decoder.displaySize, length: info.duration ?? 0.04)
        return DecodedItem(info: info, picture: .clip(clip))
    }

    var holdsOneFrame: Bool { true }
    var failure: MediaError? { nil }
    var isFinished: Bool { lock.lock(); defer { lock.unlock() }; return taken }

    func frame(at t: Double) -> VideoFrame? {
        lock.lock(); defer { lock.unlock() }
        guard !taken, held.pts <= t + 1e-6 else { return nil }
        taken = true
        return held
    }

    func nextFrame(timeout: Double) -> VideoFrame? {
        lock.lock(); defer { lock.unlock() }
        guard !taken else { return nil }
        taken = true
        return held
    }

    func peekFrame(timeout: Double) -> VideoFrame? {
        lock.lock(); defer { lock.unlock() }
        return taken ? nil : held
    }

    func seek(to seconds: Double) {
        lock.lock(); taken = false; lock.unlock()
    }
}
