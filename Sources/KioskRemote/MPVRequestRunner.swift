import Foundation
import KioskCore

/// One mpv command array, run for a caller that can wait (the web page's `POST /api/command`): the commands and
/// properties of the IPC socket, checked and answered the same way (`{"data": …, "error": "success"}` or mpv's
/// error text), without a socket. The caller's thread waits for the player, up to a time limit.
public struct MPVRequestRunner: Sendable {
    let sink: CommandSink
    let resolver: MPVRequestResolver

    /// A runner sending to `sink` and reading `board`, with IPC's media gate and reports.
    public init(board: PlayerBoard, sink: CommandSink, gate: MediaGate, reports: PlayReports, log: Log) {
        self.sink = sink
        resolver = MPVRequestResolver(board: board, gate: gate, keys: { MPVKeyNames.code($0) }, reports: reports, log: log)
    }

    /// Runs `request` (`["playlist-next"]`, `["set_property", "volume", 50]`, `["get_property", "pause"]`) and
    /// returns the reply object; the player is waited for at most `timeout` seconds.
    public func run(_ request: JSONValue, timeout: Double = 5) -> JSONValue {
        let result: MPVResult
        do throws(MPVError) {
            result = try outcome(request, timeout: timeout)
        } catch {
            result = .failure(error)
        }
        switch result {
        case .success(let data): return .object((data.map { [("data", $0)] } ?? []) + [("error", .string("success"))])
        case .failure(let e): return .object([("error", .string(e.text))])
        }
    }

    private func outcome(_ request: JSONValue, timeout: Double) throws(MPVError) -> MPVResult {
        guard case .array(let words) = request, case .string(let name)? = words.first else { throw .invalidParameter }
        let action = try resolver.action(name, MPVArgs(values: Array(words.dropFirst())))
        switch action {
        case .reply(let r):
            return r
        case .broadcast:
            throw .unsupported  // script messages go to IPC clients; the page has none
        case .player(let commands, let failure, let data):
            let tally = MPVTally(count: commands.count)
            let answered = DispatchSemaphore(value: 0)
            let box = ResultBox()
            for c in commands {
                sink.send(c) { reply in
                    guard let all = tally.record(reply) else { return }
                    box.set(all.done ? .success(data.value(ids: all.ids)) : .failure(failure))
                    answered.signal()
                }
            }
            guard answered.wait(timeout: .now() + timeout) == .success, let r = box.value else { throw .command }
            return r
        }
    }
}

/// A result handed from the player's thread to the waiting one.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var result: MPVResult?
    func set(_ r: MPVResult) { lock.lock(); result = r; lock.unlock() }
    var value: MPVResult? { lock.lock(); defer { lock.unlock() }; return result }
}
