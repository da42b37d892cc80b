import Foundation
import XCTest

/// A kiosk process (or a shell that execs it) watched while it runs: standard error and output are read as they
/// come, so a test can wait for a line, send a signal, then wait for the end. Every wait is bounded; a process
/// still running at the end is killed and the test fails.
final class LiveProcess: @unchecked Sendable {
    private let process = Process()
    private let lock = NSCondition()
    private var err = Data()
    private var out = Data()
    private var openStreams = 2
    let started = Date()
    /// The state folder made for it (`IsolatedState`), removed by `finish`.
    private let stateFolder: String?

    /// Starts `executable` with `args` (software GL). With `closeStderrAfter`, the test's end of the stderr pipe is
    /// closed once that many bytes were read, so the process writes into a pipe nobody reads (EPIPE).
    init(_ args: [String], executable: String = CLITests.kiosk, closeStderrAfter: Int? = nil) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["LIBGL_ALWAYS_SOFTWARE"] = "1"
        let isolated = IsolatedState.environment(env)
        stateFolder = isolated.folder
        process.environment = isolated.environment
        let o = Pipe(), e = Pipe()
        process.standardOutput = o
        process.standardError = e
        try process.run()
        read(o.fileHandleForReading, toStderr: false, closeAfter: nil)
        read(e.fileHandleForReading, toStderr: true, closeAfter: closeStderrAfter)
    }

    private func read(_ handle: FileHandle, toStderr: Bool, closeAfter: Int?) {
        let thread = Thread { [self] in
            var total = 0
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                total += chunk.count
                lock.lock(); if toStderr { err.append(chunk) } else { out.append(chunk) }; lock.broadcast(); lock.unlock()
                if let closeAfter, total >= closeAfter { break }
            }
            try? handle.close()
            lock.lock(); openStreams -= 1; lock.broadcast(); lock.unlock()
        }
        thread.start()
    }

    /// Standard error so far.
    var stderr: String { lock.lock(); defer { lock.unlock() }; return String(decoding: err, as: UTF8.self) }
    /// Standard output so far.
    var stdout: String { lock.lock(); defer { lock.unlock() }; return String(decoding: out, as: UTF8.self) }
    /// The process id.
    var pid: Int32 { process.processIdentifier }
    /// Whether the process still runs (not yet reaped).
    var isRunning: Bool { process.isRunning }

    /// Waits up to `timeout` seconds for standard output to contain `text`; false on time-out.
    func waitForOutput(_ text: String, timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock(); defer { lock.unlock() }
        while !String(decoding: out, as: UTF8.self).contains(text) {
            if !lock.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.1))) && Date() >= deadline { return false }
        }
        return true
    }

    /// Waits up to `timeout` seconds for standard error to contain `text`; false on time-out.
    func waitFor(_ text: String, count: Int = 1, timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock(); defer { lock.unlock() }
        while String(decoding: err, as: UTF8.self).components(separatedBy: text).count - 1 < count {
            if !lock.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.1))) && Date() >= deadline { return false }
        }
        return true
    }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// How the process ended: exit status or signal, and seconds from `from` (default: the start).
    struct End {
        var status: Int32
        var killedBySignal: Bool
        var seconds: Double
    }

    /// Waits up to `timeout` seconds for the end (then kills it and fails the test), and for its output.
    func finish(timeout: Double, from: Date? = nil, file: StaticString = #filePath, line: UInt = #line) -> End {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        let ended = Date()
        if process.isRunning {
            XCTFail("\(process.arguments?.joined(separator: " ") ?? "") did not finish in \(timeout) s", file: file, line: line)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        IsolatedState.remove(stateFolder)
        lock.lock()
        let streamsDeadline = Date(timeIntervalSinceNow: 5)
        while openStreams > 0 && lock.wait(until: streamsDeadline) {}
        lock.unlock()
        return End(status: process.terminationStatus, killedBySignal: process.terminationReason == .uncaughtSignal,
                   seconds: ended.timeIntervalSince(from ?? started))
    }
}
