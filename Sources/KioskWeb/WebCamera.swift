import Foundation
import Glibc
import KioskCore

/// The dashboard's live view: the player's screenshot as JPEG, at most one a second (every viewer shares it),
/// written into a private folder and read back. One screenshot is asked for at a time, and every caller waits for
/// that one without holding a lock, for at most 5 s from when it was asked: a player that does not answer keeps
/// each of the server's threads for at most that long, and once it is late the others are refused at once (a new
/// one is asked for after 30 s).
public final class WebCamera: @unchecked Sendable {
    /// One screenshot asked of the player: its callers wait on `answered` until `result` is set (a player that
    /// drops the reply leaves it nil, and nothing waits past the answer time).
    private final class Flight: @unchecked Sendable {
        let asked = MonotonicClock.seconds()
        private let answered = NSCondition()
        private var result: Result<[UInt8], WebRefusal>?

        /// Sets the result and wakes every caller.
        func finish(_ r: Result<[UInt8], WebRefusal>) {
            answered.lock()
            result = r
            answered.broadcast()
            answered.unlock()
        }

        /// The result, waiting until `deadline` (monotonic seconds) at most; nil when none came by then.
        func wait(until deadline: Double) -> Result<[UInt8], WebRefusal>? {
            answered.lock()
            defer { answered.unlock() }
            while result == nil {
                let left = deadline - MonotonicClock.seconds()
                guard left > 0, answered.wait(until: Date(timeIntervalSinceNow: left)) || result != nil else { break }
            }
            return result
        }
    }

    private let sink: CommandSink
    private let lock = NSLock()
    private var last: (at: Double, jpeg: [UInt8])?
    private var flight: Flight?
    private var shots = 0
    private let folder: String?
    private let answerSeconds: Double
    private let retrySeconds: Double

    /// A camera on `sink` (the player's inbox): a screenshot is waited for `answerSeconds`, and asked for again
    /// `retrySeconds` after one that was never answered.
    public init(sink: CommandSink, answerSeconds: Double = 5, retrySeconds: Double = 30) {
        self.sink = sink
        self.answerSeconds = answerSeconds
        self.retrySeconds = retrySeconds
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("kiosk-web-XXXXXX").utf8CString)
        // a private folder (0700): never a predictable name in the shared temporary folder
        folder = template.withUnsafeMutableBufferPointer { b in b.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) } }
    }

    deinit { if let folder { rmdir(folder) } }

    /// The screen as JPEG; throws why not (the player refused, or did not answer in time).
    public func picture() throws(WebRefusal) -> [UInt8] {
        guard let folder else { throw WebRefusal("screenshot: cannot make a private temporary folder") }
        switch current(folder) {
        case .ready(let jpeg): return jpeg
        case .asked(let flight):
            guard let result = flight.wait(until: flight.asked + answerSeconds) else {
                throw WebRefusal("the player did not answer within \(Int(saturating: answerSeconds, rounding: .towardZero)) s")
            }
            return try result.get()
        }
    }

    /// A picture under a second old, or the screenshot in flight (asked for now when there is none, or when the
    /// last one has gone unanswered for `retrySeconds`).
    private func current(_ folder: String) -> Shot {
        lock.lock()
        defer { lock.unlock() }
        let now = MonotonicClock.seconds()
        if let last, now - last.at < 1 { return .ready(last.jpeg) }
        if let flight, now - flight.asked < retrySeconds { return .asked(flight) }
        let f = Flight()
        flight = f
        shots += 1
        let path = folder + "/screen-\(shots).jpg"
        sink.send(.screenshot(path: path)) { [self] reply in
            DispatchQueue.global().async { [self] in  // the file is read off the player's thread
                let result: Result<[UInt8], WebRefusal>
                if case .failed(let why) = reply {
                    result = .failure(WebRefusal("screenshot: \(why)"))
                } else if let data = FileManager.default.contents(atPath: path) {
                    result = .success([UInt8](data))
                } else {
                    result = .failure(WebRefusal("screenshot: nothing written"))
                }
                unlink(path)
                lock.lock()
                if case .success(let jpeg) = result { last = (MonotonicClock.seconds(), jpeg) }
                if flight === f { flight = nil }
                lock.unlock()
                f.finish(result)
            }
        }
        return .asked(f)
    }

    /// A picture at hand, or one asked for.
    private enum Shot {
        case ready([UInt8])
        case asked(Flight)
    }
}
