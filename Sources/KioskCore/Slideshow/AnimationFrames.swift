import Foundation

/// Produces an animation's composed frames in order from the first, already at display size. One cursor is one
/// pass over the file; a new one is opened for each loop. It lives on the animation's decode thread only.
public protocol AnimationCursor: AnyObject {
    /// The next frame, or nil after the last.
    func next() throws -> RGBAImage?
}

/// An animation's frames, decoded on demand into a bounded window instead of held all at once.
///
/// A background thread owns the decoder (an `AnimationCursor`) and decodes frames in order into a window of at
/// most `capacity` frames: the frame asked for last and those after it, wrapping round to the first. A frame
/// behind the window is decoded again from the start of the file. When every frame fits in the window they are
/// decoded once and kept, and the thread ends. Reading a frame blocks until it is decoded (at most `timeout`).
public final class AnimationFrames: RandomAccessCollection, @unchecked Sendable {
    /// Seconds each frame stays, known before any pixel is decoded.
    public let durations: [Double]
    /// The size of every frame.
    public let size: PixelSize
    /// Most frames held at once.
    public let capacity: Int
    private let window: FrameWindow

    /// Frames already decoded, all held (small animations, tests).
    public init(frames: [AnimationFrame]) {
        durations = frames.map(\.duration)
        size = frames.first?.image.size ?? PixelSize(width: 0, height: 0)
        capacity = Swift.max(1, frames.count)
        window = FrameWindow(count: frames.count, capacity: capacity, timeout: 0, path: "")
        window.preload(frames.map(\.image))
    }

    /// Starts the decode thread on cursors from `open` and waits for the first frame (so a file that does not
    /// decode fails here). `budgetBytes` bounds the frames held; `timeout` bounds each wait for a frame.
    public init(path: String, durations: [Double], size: PixelSize, budgetBytes: Int, timeout: Double,
                open: @escaping @Sendable () throws -> any AnimationCursor) throws {
        self.durations = durations
        self.size = size
        let frameBytes = Swift.max(1, size.width * size.height * 4)
        capacity = Swift.max(1, Swift.min(durations.count, budgetBytes / frameBytes))
        window = FrameWindow(count: durations.count, capacity: capacity, timeout: timeout, path: path)
        let window = self.window
        let thread = Thread { window.run(open: open) }
        thread.name = "kiosk-animation"
        thread.stackSize = 1 << 20
        thread.start()
        if let error = window.waitFirst() {
            window.close()
            throw error
        }
    }

    deinit { window.close() }

    /// 0.
    public var startIndex: Int { 0 }
    /// The number of frames.
    public var endIndex: Int { durations.count }

    /// Frame `index` (clamped to the frames there are) and its duration; waits for it to be decoded.
    public subscript(index: Int) -> AnimationFrame {
        AnimationFrame(image: image(at: index), duration: durations.isEmpty ? 0 : durations[Swift.min(Swift.max(0, index), durations.count - 1)])
    }

    /// The picture of frame `index` (clamped); waits for it to be decoded. If decoding failed or timed out, the
    /// nearest frame held, or a transparent picture.
    public func image(at index: Int) -> RGBAImage {
        window.image(at: Swift.min(Swift.max(0, index), Swift.max(0, durations.count - 1))) ?? RGBAImage(size: size, fill: (0, 0, 0, 0))
    }

    /// Bytes of decoded frames held now.
    public var heldBytes: Int { window.heldCount * size.width * size.height * 4 }

    /// How many times the file has been opened for a pass (1 while it was decoded once).
    public var passes: Int { window.passCount }

    /// Why decoding stopped, if it did.
    public var failure: (any Error)? { window.failureNow }
}

/// The frames held and the decode thread's state, shared between the thread and the readers under one lock.
final class FrameWindow: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private let capacity: Int
    private let timeout: Double
    private let path: String
    private var frames: [Int: RGBAImage] = [:]
    private var want = 0
    private var closed = false
    private var failure: (any Error)?
    private var passes = 0

    init(count: Int, capacity: Int, timeout: Double, path: String) {
        self.path = path
        self.count = count
        self.capacity = capacity
        self.timeout = timeout
    }

    func preload(_ images: [RGBAImage]) {
        for (i, image) in images.enumerated() { frames[i] = image }
    }

    /// Whether frame `i` belongs in the window while frame `want` is shown.
    private func desired(_ i: Int) -> Bool { (i - want + count) % count < capacity }

    /// The first frame of the window (from `want`, wrapping) that is not decoded yet.
    private func firstMissing() -> Int? {
        for k in 0..<capacity where frames[(want + k) % count] == nil { return (want + k) % count }
        return nil
    }

    /// The decode thread: fills the window, reopening the file when the frame wanted is behind the cursor.
    func run(open: @Sendable () throws -> any AnimationCursor) {
        var cursor: (any AnimationCursor)?
        var next = 0
        while true {
            condition.lock()
            while !closed, failure == nil, firstMissing() == nil {
                if capacity >= count { condition.unlock(); return }  // all held: nothing more to decode
                condition.wait()
            }
            let target = firstMissing()
            let stop = closed || failure != nil
            condition.unlock()
            guard !stop, let target else { return }
            do {
                if cursor == nil || target < next {
                    cursor = nil
                    cursor = try open()
                    next = 0
                    condition.lock(); passes += 1; condition.unlock()
                }
                guard let c = cursor else { return }
                guard let image = try c.next() else {
                    throw MediaError(path: path, reason: "animation ended after \(next) of \(count) frames")
                }
                condition.lock()
                if desired(next), frames[next] == nil { frames[next] = image }
                condition.broadcast()
                condition.unlock()
                next += 1
                if next == count { cursor = nil; next = 0 }  // the pass is over: free the decoder
            } catch {
                condition.lock()
                failure = error
                condition.broadcast()
                condition.unlock()
                return
            }
        }
    }

    /// Waits for frame 0 (or the failure).
    func waitFirst() -> (any Error)? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while frames[0] == nil, failure == nil {
            if !condition.wait(until: deadline) { return failure ?? MediaError(path: path, reason: "first animation frame not decoded within \(timeout) s") }
        }
        return frames[0] == nil ? failure : nil
    }

    func image(at i: Int) -> RGBAImage? {
        condition.lock()
        defer { condition.unlock() }
        guard count > 0 else { return nil }
        if want != i {
            want = i
            for k in frames.keys where !desired(k) { frames[k] = nil }
            condition.broadcast()
        }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while frames[i] == nil, failure == nil, !closed {
            if !condition.wait(until: deadline) { break }
        }
        if let image = frames[i] { return image }
        return frames.keys.filter { $0 < i }.max().flatMap { frames[$0] } ?? frames.values.first
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    var heldCount: Int { condition.lock(); defer { condition.unlock() }; return frames.count }
    var passCount: Int { condition.lock(); defer { condition.unlock() }; return passes }
    var failureNow: (any Error)? { condition.lock(); defer { condition.unlock() }; return failure }
}
