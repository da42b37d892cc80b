import Foundation
import Glibc
import KioskCore

/// The dashboard's live view: the player's screenshot as JPEG, at most one a second (every viewer shares it),
/// written into a private folder and read back. One screenshot is asked for at a time, and every caller waits for
/// that one without holding a lock, for at most 5 s from when it was asked: a player that does not answer keeps
/// each of the server's threads for at most that long, and once it is late the others are refused at once (a new
/// one is asked for after 30 s).
public final class WebCamera: @unchecked Sendable {
    /// One screenshot asked of the player: the callers wait on `group`; `result` is set before it is left.
    private final class Flight: @unchecked Sendable {
        let asked = MonotonicClock.seconds()
        let group = DispatchGroup()
        var result: Result<[UInt8], WebRefusal>?
    }

    private let sink: CommandSink
    private let lock = NSLock()
    private var last: (at: Double, jpeg: [UInt8])?
    private var flight: Flight?
    private var shots = 0
    private let folder: String
    private let answerSeconds: Double
    private let retrySeconds: Double

    /// A camera on `sink` (the player's inbox): a screenshot is waited for `answerSeconds`, and asked for again
    /// `retrySeconds` after one that was never answered.
    public init(sink: CommandSink, answerSeconds: Double = 5, retrySeconds: Double = 30) {
        self.sink = sink
        self.answerSeconds = answerSeconds
        self.retrySeconds = retrySeconds
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("kiosk-web-XXXXXX").utf8CString)
        folder = template.withUnsafeMutableBufferPointer { b in b.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) } } ?? NSTemporaryDirectory()
    }

    deinit { rmdir(folder) }

    /// The screen as JPEG; throws why not (the player refused, or did not answer in time).
    public func picture() throws(WebRefusal) -> [UInt8] {
        switch current() {
        case .ready(let jpeg): return jpeg
        case .asked(let flight):
            guard flight.group.wait(timeout: .now() + max(0, flight.asked + answerSeconds - MonotonicClock.seconds())) == .success else {
                throw WebRefusal("the player did not answer within \(Int(answerSeconds)) s")
            }
            lock.lock()
            let result = flight.result
            lock.unlock()
            guard let result else { throw WebRefusal("screenshot: no answer") }
            return try result.get()
        }
    }

    /// A picture under a second old, or the screenshot in flight (asked for now when there is none, or when the
    /// last one has gone unanswered for `retrySeconds`).
    private func current() -> Shot {
        lock.lock()
        defer { lock.unlock() }
        let now = MonotonicClock.seconds()
        if let last, now - last.at < 1 { return .ready(last.jpeg) }
        if let flight, now - flight.asked < retrySeconds { return .asked(flight) }
        let f = Flight()
        flight = f
        shots += 1
        let path = folder + "/screen-\(shots).jpg"
        f.group.enter()
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
                f.result = result
                if case .success(let jpeg) = result { last = (MonotonicClock.seconds(), jpeg) }
                if flight === f { flight = nil }
                lock.unlock()
                f.group.leave()
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
