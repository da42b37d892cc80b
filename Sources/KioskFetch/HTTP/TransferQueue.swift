internal import CCurl
import KioskCore

/// Runs transfers at most `concurrent` at once on the calling thread (libcurl's multi interface: one thread waits
/// on all sockets), handing each result to `done` as it ends, in the order they end. Transfers are made only when a
/// slot is free, so a long list costs memory for `concurrent` transfers at a time.
public struct TransferQueue {
    /// The most transfers at once.
    public let concurrent: Int

    /// A queue of `concurrent` slots (at least 1).
    public init(concurrent: Int) {
        self.concurrent = max(1, concurrent)
    }

    /// Runs `count` transfers: `make(i)` makes the i-th when a slot is free (nil: nothing to fetch for it), `done(i,
    /// transfer, result)` takes it and its result. `shouldStop` is asked about every half second; when it says yes, running
    /// transfers are dropped and no more are started.
    public func run(count: Int, make: (Int) -> HTTPTransfer?, done: (Int, HTTPTransfer, Result<HTTPResponse, FetchError>) -> Void,
                    shouldStop: () -> Bool = { false }) {
        guard count > 0 else { return }
        guard let multi = curl_multi_init() else {
            for i in 0..<count {
                if let transfer = make(i) { done(i, transfer, transfer.finish(CURLE_FAILED_INIT)) }
            }
            return
        }
        defer { curl_multi_cleanup(multi) }
        var running: [UnsafeMutableRawPointer: (index: Int, transfer: HTTPTransfer)] = [:]
        var next = 0
        func fill() {
            while running.count < concurrent && next < count {
                let i = next
                next += 1
                guard let transfer = make(i) else { continue }
                guard transfer.isReady, let handle = transfer.handle, curl_multi_add_handle(multi, handle) == CURLM_OK else {
                    done(i, transfer, transfer.finish(CURLE_FAILED_INIT))
                    continue
                }
                running[handle] = (i, transfer)
            }
        }
        fill()
        while !running.isEmpty {
            if shouldStop() { break }
            var active: Int32 = 0
            _ = curl_multi_perform(multi, &active)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                      let entry = running.removeValue(forKey: handle) else { continue }
                let code = message.pointee.data.result
                curl_multi_remove_handle(multi, handle)
                done(entry.index, entry.transfer, entry.transfer.finish(code))
            }
            fill()
            if !running.isEmpty { _ = curl_multi_poll(multi, nil, 0, 500, nil) }
        }
        for (handle, _) in running { curl_multi_remove_handle(multi, handle) }
    }
}
