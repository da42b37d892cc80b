import Foundation
import KioskCore

/// The grid's thumbnails, made off the render loop: the loop says which tiles it wants (`want`, visible ones
/// first) and asks for pictures without waiting (`thumbnail(for:)`); a few worker threads load each wanted tile
/// from memory, else the disk cache, else by decoding it (then keep it on disk). Work no longer wanted is dropped
/// from the queue or stopped at its next step. A file that cannot be made into a thumbnail is remembered, with one
/// warning, and not tried again. Call `stop()` when done: the workers hold the store until then.
public final class ThumbnailStore: @unchecked Sendable {
    /// The tiles' side in pixels.
    public let side: Int

    private let disk: ThumbnailDiskCache?
    private let timeout: Double
    private let limits: DecodeLimits
    private let log: Log
    private let onReady: @Sendable () -> Void
    private let condition = NSCondition()
    /// Wanted requests not started yet, in priority order.
    private var queue: [ThumbnailRequest] = []
    /// Requests being made now, each with its cancel flag.
    private var running: [ThumbnailRequest: Job] = [:]
    private var memory: ThumbnailMemory
    private var known: [String: TileFacts] = [:]
    private var failures: Set<String> = []
    private var counts = ThumbnailStats()
    private var stopping = false
    private var workerCount = 0
    private var workersLeft = 0

    /// One request being made: whether it is still wanted (guarded by the store's condition).
    private final class Job {
        var cancelled = false
    }

    /// What loading one request came to.
    private enum Outcome {
        case decoded(Thumbnail)
        case disk(Thumbnail)
        case cancelled
        case failed(String)
    }

    /// A store making tiles of `side` pixels, holding at most `memoryBudget` bytes of pictures in memory, with an
    /// optional disk cache, on `workers` threads. `timeout` and `limits` bound each decode as for playing; `log`
    /// gets one warning per file that fails. `onReady` is called on a worker thread each time a tile is ready (or
    /// has failed), so the player can wake its loop.
    public init(side: Int, memoryBudget: Int = 64 << 20, disk: ThumbnailDiskCache?, workers: Int = 2,
                timeout: Double, limits: DecodeLimits, log: Log, onReady: @escaping @Sendable () -> Void) {
        self.side = max(1, side)
        self.disk = disk
        self.timeout = timeout
        self.limits = limits
        self.log = log
        self.onReady = onReady
        memory = ThumbnailMemory(budget: memoryBudget)
        workerCount = max(1, workers)
        workersLeft = workerCount
        for i in 0..<workerCount {
            let thread = Thread { [self] in work() }
            thread.name = "kiosk-thumbs-\(i)"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Replaces what is wanted with `requests`, most wanted first (visible tiles, then a margin). Only as many as
    /// the memory holds are taken (the rest wait for a later call), so wanted tiles never push each other out.
    /// Queued work for tiles no longer wanted is dropped and running work is stopped at its next step; both count
    /// as cancelled. Tiles already in memory (kept fresh there), being made, or failed are not queued again.
    public func want(_ requests: [ThumbnailRequest]) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else { return }
        let room = memory.budget / max(1, side * side * 4)
        var wanted = Set<ThumbnailRequest>()
        var order: [ThumbnailRequest] = []
        for r in requests where order.count < room && wanted.insert(r).inserted { order.append(r) }
        counts.cancelled += queue.count { !wanted.contains($0) }
        for (r, job) in running { job.cancelled = !wanted.contains(r) }  // one wanted again goes on
        queue = []
        for r in order {
            if memory.touch(r) { continue }
            if !failures.contains(r.path) && running[r] == nil { queue.append(r) }
        }
        if !queue.isEmpty { condition.broadcast() }
    }

    /// The picture for `request` if it is in memory now (counted as a use); never waits.
    public func thumbnail(for request: ThumbnailRequest) -> Thumbnail? {
        condition.lock()
        defer { condition.unlock() }
        return memory.use(request)
    }

    /// What is known about the item at `path` so far (from its thumbnail's probe), if anything.
    public func facts(for path: String) -> TileFacts? {
        condition.lock()
        defer { condition.unlock() }
        return known[path]
    }

    /// Whether the thumbnail for `path` could not be made (it is not tried again).
    public func failed(_ path: String) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return failures.contains(path)
    }

    /// The counts so far and the bytes held in memory now.
    public var stats: ThumbnailStats {
        condition.lock()
        defer { condition.unlock() }
        var s = counts
        s.memoryBytes = memory.bytes
        return s
    }

    /// Stops the workers and waits for them to end: queued work is dropped and running work is stopped at its
    /// next step. Later calls do nothing.
    public func stop() {
        condition.lock()
        defer { condition.unlock() }
        if !stopping {
            stopping = true
            queue = []
            for job in running.values { job.cancelled = true }
            condition.broadcast()
        }
        while workersLeft > 0 { condition.wait() }
    }

    /// One worker: takes the most wanted request, loads it, and files the outcome, until stopped.
    private func work() {
        condition.lock()
        while true {
            while !stopping && queue.isEmpty { condition.wait() }
            if stopping { break }
            let request = queue.removeFirst()
            let job = Job()
            running[request] = job
            condition.unlock()
            let outcome = load(request, job: job)
            condition.lock()
            running[request] = nil
            let tell = file(outcome, for: request)
            if tell {
                condition.unlock()
                onReady()
                condition.lock()
            }
        }
        workersLeft -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Files `outcome` for `request` (the lock held); whether the grid should be told.
    private func file(_ outcome: Outcome, for request: ThumbnailRequest) -> Bool {
        switch outcome {
        case .decoded(let t), .disk(let t):
            if case .decoded = outcome { counts.decoded += 1 } else { counts.diskHits += 1 }
            counts.ready += 1
            memory.put(t, for: request)
            known[request.path] = t.facts
            return true
        case .cancelled:
            counts.cancelled += 1
            return false
        case .failed(let why):
            counts.failed += 1
            counts.ready += 1
            if failures.insert(request.path).inserted { log.warn("no thumbnail for \(request.path): \(why)") }
            return true
        }
    }

    /// Whether `job` is no longer wanted.
    private func isCancelled(_ job: Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return job.cancelled
    }

    /// The disk cache's copy of `request`, else its decode (then kept on disk). Runs without the lock.
    private func load(_ request: ThumbnailRequest, job: Job) -> Outcome {
        let variant = request.variant
        if let cached = disk?.load(path: request.path, side: side, variant: variant) { return .disk(cached) }
        do {
            let made = try Thumbnailer.thumbnail(path: request.path, override: request.override, side: side,
                                                 limits: limits, timeout: timeout,
                                                 isCancelled: { self.isCancelled(job) })
            disk?.store(made, path: request.path, side: side, variant: variant)
            return .decoded(made)
        } catch ThumbnailError.cancelled {
            return .cancelled
        } catch let error as MediaError {
            return .failed(error.reason)
        } catch {
            return .failed("\(error)")
        }
    }
}
