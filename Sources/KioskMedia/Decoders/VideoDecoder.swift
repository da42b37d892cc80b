import Foundation
import KioskCore

/// Decodes one playing video item on its own thread into a bounded queue of `VideoFrame`s (bounded in count and
/// in bytes, so memory stays flat however long a clip plays). The render thread takes frames by presentation
/// time (`frame(at:)`, dropping late ones) or one after another (`nextFrame`, for untimed playback). Seeks are
/// accurate; with `loop` the clip starts over at its end and times keep rising by the clip's length.
public final class VideoDecoder: ClipSource, @unchecked Sendable {
    /// How much the queue may hold.
    public struct Limits: Sendable, Equatable {
        /// Most frames queued.
        public var maxFrames: Int
        /// Most bytes of planes queued: past two frames (always allowed, however large: with one frame queued,
        /// timed 1080p on llvmpipe showed 15.6 frames/s instead of 17.1), a frame is decoded only while one more
        /// of the last one's size fits. 16 MiB holds four 1080p YUV frames; 1080p RGBA and 2160p YUV get two.
        public var maxBytes: Int

        /// Creates limits.
        public init(maxFrames: Int = 4, maxBytes: Int = 16 << 20) {
            self.maxFrames = max(1, maxFrames)
            self.maxBytes = max(1, maxBytes)
        }

        /// How many frames of `frameBytes` each the queue holds when full: the two always allowed, up to
        /// `maxFrames` while they fit in `maxBytes`.
        func framesHeld(eachOf frameBytes: Int) -> Int {
            max(2, min(maxFrames, maxBytes / max(frameBytes, 1)))
        }
    }

    /// What the stream is.
    public let info: VideoStreamInfo
    /// Media seconds this playing starts at.
    public let startTime: Double
    /// Seconds the slot lasts: the clip's length from `startTime`, capped by `maxLength`.
    public let slotLength: Double
    private let shared: Shared
    private let rgbaPool: FrameBufferPool

    /// Opens `path` (errors naming the file are thrown here), optionally seeks to `startAt` seconds, and starts
    /// the decode thread. A pixel format with no shader path is logged once on `log`. `maxLength` caps the slot.
    /// `form` says, from the displayed size, whether frames come as their planes or as RGBA converted on the
    /// decode thread.
    public init(path: String, log: Log, limits: Limits = Limits(), loop: Bool = false, startAt: Double? = nil,
                maxLength: Double? = nil, form: (_ displaySize: PixelSize) -> VideoFrameForm = { _ in .planes }) throws {
        let reader = try VideoStreamReader(path: path)
        reader.form = form(Self.displaySize(reader.info))
        let start = max(0, startAt ?? 0)
        if start > 0 { try reader.seek(to: start) }
        info = reader.info
        startTime = start
        let left = info.duration.map { max(0.04, $0 - start) } ?? 1e9
        slotLength = min(left, maxLength ?? .infinity)
        rgbaPool = reader.rgbaPool
        shared = Shared(limits: limits, loop: loop, log: log, pool: rgbaPool)
        rgbaPool.bind(limits)
        let box = ReaderBox(reader)
        let shared = self.shared
        let thread = Thread { shared.run(box) }
        thread.name = "kiosk-video"
        thread.stackSize = 4 << 20
        thread.start()
    }

    deinit { shared.stop() }

    /// The displayed size: stored size widened by the sample aspect ratio, then turned by the display matrix.
    public var displaySize: PixelSize { Self.displaySize(info) }

    /// A stream's displayed size.
    private static func displaySize(_ info: VideoStreamInfo) -> PixelSize {
        let w = max(1, Int(saturating: Double(info.size.width) * info.sampleAspect))
        return info.orientation.displayedSize(of: PixelSize(width: w, height: info.size.height))
    }

    /// The newest queued frame due at media time `t` (its time at or before `t`), removing it and every older one
    /// (late frames are dropped, none is repeated); nil when no new frame is due.
    public func frame(at t: Double) -> VideoFrame? { shared.take(dueAt: t) }

    /// The next frame in order, waiting up to `timeout` seconds; nil at the end, on a failure, or on time-out.
    public func nextFrame(timeout: Double) -> VideoFrame? { shared.next(timeout: timeout) }

    /// Waits up to `timeout` seconds for the first queued frame and returns it without removing it (a prefetch:
    /// the clip is open and its first picture decoded before its slot begins).
    public func peekFrame(timeout: Double) -> VideoFrame? { shared.peek(timeout: timeout) }

    /// Takes back the storage of an RGBA frame that was taken and is done with (uploaded), for the next frame's
    /// conversion: no new 8 MB array per 1080p frame. The frame is left without planes, and the decoder may queue a
    /// frame in its place (a frame taken counts as queued until it is given back).
    public func recycle(_ frame: inout VideoFrame) {
        defer { shared.released() }
        guard frame.layout == .rgba, !frame.planes.isEmpty else { return }
        rgbaPool.give(&frame.planes[0].bytes)
        frame.planes = []
    }

    /// RGBA frame storage made new, and reused, so far.
    public var rgbaBuffers: (made: Int, reused: Int) { rgbaPool.counts }

    /// Restarts decoding so the next frame is the one shown at `seconds` (accurate seek); the queue is emptied.
    public func seek(to seconds: Double) { shared.seek(to: seconds) }

    /// Whether the stream has ended (or failed) and every frame was taken.
    public var isFinished: Bool { shared.isFinished }

    /// The error that ended the stream early (truncated or corrupt file), if any.
    public var failure: MediaError? { shared.failureNow }

    /// Frames and bytes queued now (for memory checks).
    public var queued: (frames: Int, bytes: Int) { shared.queuedNow }

    /// Frames dropped by `frame(at:)` because a newer one was already due.
    public var droppedFrames: Int { shared.droppedNow }

    /// Stops the decode thread and frees the decoder (also done when the value goes away).
    public func close() { shared.stop() }

    /// Carries the reader to the decode thread, which alone uses it from then on.
    private final class ReaderBox: @unchecked Sendable {
        let reader: VideoStreamReader
        init(_ reader: VideoStreamReader) { self.reader = reader }
    }

    /// The state shared by the decode thread and the render thread, under one lock.
    private final class Shared: @unchecked Sendable {
        let limits: Limits
        let loop: Bool
        let log: Log
        let lock = NSCondition()
        var queue: [VideoFrame] = []
        var bytes = 0
        /// Bytes of the newest frame queued: the next is expected to be as large.
        var frameBytes = 0
        var ended = false
        var failure: MediaError?
        var stopping = false
        var stopped = false
        var pendingSeek: Double?
        var generation = 0
        var loopOffset = 0.0
        var dropped = 0
        /// Bytes of the frame last handed out while its user still holds it (not yet given back through
        /// `recycle`), 0 when none is held.
        var heldBytes = 0
        /// Where the storage of RGBA frames dropped here goes back.
        let pool: FrameBufferPool

        init(limits: Limits, loop: Bool, log: Log, pool: FrameBufferPool) {
            self.limits = limits
            self.loop = loop
            self.log = log
            self.pool = pool
        }

        /// Whether the queue is full. The frame its user still holds counts as queued (while one is queued, so
        /// the queue never waits on a user that keeps its frame): a 1080p RGBA frame is 8 MB, and a third one
        /// made while the renderer uploads the last was a third of a clip's memory over the idle player.
        private var isFull: Bool {
            let held = heldBytes > 0 && !queue.isEmpty ? 1 : 0
            let count = queue.count + held
            return count >= limits.maxFrames
                || (count >= 2 && bytes + (held > 0 ? heldBytes : 0) + frameBytes > limits.maxBytes)
        }

        /// Marks `frame` as handed out (held by its user until `released`).
        private func handOut(_ frame: VideoFrame) {
            heldBytes = max(1, frame.byteCount)
        }

        /// The user gave back the frame it held.
        func released() {
            lock.lock()
            defer { lock.broadcast(); lock.unlock() }
            heldBytes = 0
        }

        /// Gives the storage of frames dropped here (late or cleared by a seek) back for reuse.
        private func reuse(_ frames: inout [VideoFrame]) {
            for i in frames.indices where frames[i].layout == .rgba && !frames[i].planes.isEmpty {
                pool.give(&frames[i].planes[0].bytes)
            }
            frames.removeAll()
        }

        /// The decode thread's loop: decode while there is room, wait otherwise.
        func run(_ box: ReaderBox) {
            let reader = box.reader
            var noted = false
            var lastPTS: Double?
            var framesThisPass = 0
            while true {
                lock.lock()
                while !stopping && pendingSeek == nil && (ended || isFull) { lock.wait() }
                if stopping {
                    log.info(reader.poolSummary)  // before `stopped`: stop() returns after the line
                    stopped = true
                    lock.broadcast()
                    lock.unlock()
                    return
                }
                let seek = pendingSeek
                pendingSeek = nil
                let gen = generation
                let offset = loopOffset
                lock.unlock()

                var result: Result<VideoFrame?, MediaError>
                do {
                    if let seek {
                        try reader.seek(to: seek)
                        framesThisPass = 0
                    }
                    result = .success(try reader.next())
                } catch let error as MediaError {
                    result = .failure(error)
                } catch {
                    result = .failure(MediaError(path: reader.info.path, reason: "\(error)"))
                }
                if !noted, let note = reader.conversionNote {
                    noted = true
                    log.warn(note)
                }

                lock.lock()
                if gen != generation {
                    lock.unlock()
                    continue
                }
                switch result {
                case .success(var frame?):
                    frame.pts += offset
                    lastPTS = frame.pts
                    framesThisPass += 1
                    queue.append(frame)
                    bytes += frame.byteCount
                    frameBytes = frame.byteCount
                case .success(nil):
                    if loop && framesThisPass > 0 {
                        let step = reader.info.frameRate > 0 ? 1 / reader.info.frameRate : 0.04
                        loopOffset = (lastPTS ?? offset) + step
                        pendingSeek = 0
                    } else {
                        ended = true
                    }
                case .failure(let error):
                    failure = error
                    ended = true
                }
                lock.broadcast()
                lock.unlock()
            }
        }

        func take(dueAt t: Double) -> VideoFrame? {
            lock.lock()
            defer { lock.broadcast(); lock.unlock() }
            var found: VideoFrame?
            var late: [VideoFrame] = []
            while let first = queue.first, first.pts <= t + 1e-6 {
                if let previous = found {
                    dropped += 1
                    late.append(previous)
                }
                found = first
                queue.removeFirst()
                bytes -= first.byteCount
            }
            reuse(&late)
            if let found { handOut(found) }
            return found
        }

        func next(timeout: Double) -> VideoFrame? {
            lock.lock()
            defer { lock.broadcast(); lock.unlock() }
            let deadline = Date(timeIntervalSinceNow: timeout)
            while queue.isEmpty && !ended && !stopping {
                if !lock.wait(until: deadline) { break }
            }
            guard !queue.isEmpty else { return nil }
            let frame = queue.removeFirst()
            bytes -= frame.byteCount
            handOut(frame)
            return frame
        }

        func peek(timeout: Double) -> VideoFrame? {
            lock.lock()
            defer { lock.unlock() }
            let deadline = Date(timeIntervalSinceNow: timeout)
            while queue.isEmpty && !ended && !stopping {
                if !lock.wait(until: deadline) { break }
            }
            return queue.first
        }

        func seek(to seconds: Double) {
            lock.lock()
            defer { lock.broadcast(); lock.unlock() }
            reuse(&queue)
            bytes = 0
            generation += 1
            pendingSeek = seconds
            loopOffset = 0
            ended = false
            failure = nil
        }

        var isFinished: Bool {
            lock.lock()
            defer { lock.unlock() }
            return ended && queue.isEmpty && pendingSeek == nil
        }

        var failureNow: MediaError? {
            lock.lock()
            defer { lock.unlock() }
            return failure
        }

        var queuedNow: (frames: Int, bytes: Int) {
            lock.lock()
            defer { lock.unlock() }
            return (queue.count, bytes)
        }

        var droppedNow: Int {
            lock.lock()
            defer { lock.unlock() }
            return dropped
        }

        /// Asks the thread to stop and waits (a little) until it has, so the decoder is freed on return.
        func stop() {
            lock.lock()
            defer { lock.unlock() }
            stopping = true
            queue.removeAll()
            bytes = 0
            lock.broadcast()
            let deadline = Date(timeIntervalSinceNow: 5)
            while !stopped {
                if !lock.wait(until: deadline) { break }
            }
        }
    }
}
