/// Reused storage for a clip's RGBA frames. A 1080p frame is 8 MB; made new for each frame and freed on another
/// thread, glibc keeps freed blocks in its per-thread heaps, which showed as 10-11 MiB more peak memory for a 1080p
/// clip, and returning them at once instead (a fixed mmap threshold) made the clip 30 % slower with a page fault
/// per 4 KB written. The renderer gives each frame's storage back once uploaded; swscale writes the next into it.
import Foundation

/// A few free byte arrays of one size, shared by the decode thread (which takes) and the render thread (which
/// gives back). Safe from any thread. `give` empties the giver's variable under the lock, so the pool holds the
/// only reference when the decode thread takes it (else Swift would copy it on the first write: safe, but an 8 MB
/// copy); an array still referenced elsewhere stays safe for the same reason.
final class FrameBufferPool: @unchecked Sendable {
    private let lock = NSLock()
    private var free: [[UInt8]] = []
    private var size = 0
    private var bound = VideoDecoder.Limits()
    private var madeCount = 0
    private var reusedCount = 0

    /// An empty pool, bounded like the default decode queue until `bind` says otherwise.
    init() {}

    /// Keeps as many free arrays as the decode queue holds frames of their size (at least two, as the queue).
    /// The pool fills only while the queue empties (the render thread taking frames faster than they decode), so
    /// the two together hold about one queue's worth.
    func bind(_ limits: VideoDecoder.Limits) {
        lock.lock()
        bound = limits
        lock.unlock()
    }

    /// How many free arrays of `size` bytes are kept.
    private var limit: Int { bound.framesHeld(eachOf: size) }

    /// An array of `count` bytes whose content is to be overwritten: a free one of that size, else a new one.
    func take(count: Int) -> [UInt8] {
        lock.lock()
        if size != count {
            free.removeAll()  // a new size (another resolution after a seek or a change): the old ones go
            size = count
        }
        if let bytes = free.popLast() {
            reusedCount += 1
            lock.unlock()
            return bytes
        }
        madeCount += 1
        lock.unlock()
        return [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    /// Takes `bytes` back for reuse, leaving it empty (dropped when it is not of the size in use or the pool is
    /// full).
    func give(_ bytes: inout [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        if bytes.count == size, free.count < limit { free.append(bytes) }
        bytes = []
    }

    /// Arrays made new, and arrays reused, so far.
    var counts: (made: Int, reused: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (madeCount, reusedCount)
    }
}
