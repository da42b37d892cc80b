import Foundation
import XCTest

/// Runs a child process to its end within a time limit, reading its stdout and stderr while it runs.
///
/// Reading a pipe only after the child exits deadlocks as soon as the child writes more than the pipe holds
/// (64 KiB on Linux): the child blocks in `write`, the test blocks in `wait`. Here each pipe has its own
/// reader thread from the start, and a child that outlives `timeout` gets SIGTERM, then SIGKILL 2 s later.
enum BoundedProcess {
    /// What a bounded run produced.
    struct Result {
        /// Exit status (or the signal number when killed by one).
        var status: Int32
        /// Everything the child wrote to stdout (and stderr too, for a combined run).
        var stdout: Data
        /// Everything the child wrote to stderr (empty for a combined run).
        var stderr: Data
        /// Wall-clock seconds from start to exit.
        var seconds: Double
        /// Whether the child had to be stopped at the time limit.
        var timedOut: Bool
    }

    /// Bytes read from one pipe by its reader thread.
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        private let finished = DispatchSemaphore(value: 0)

        /// Starts a thread that reads `handle` to its end, calling `observe` with everything read so far after
        /// each read.
        func start(_ handle: FileHandle, observe: (@Sendable (Data) -> Void)? = nil) {
            let thread = Thread { [self] in
                while true {
                    let chunk = handle.availableData  // blocks until data or end of file
                    if chunk.isEmpty { break }
                    lock.lock()
                    data.append(chunk)
                    let sofar = data
                    lock.unlock()
                    observe?(sofar)
                }
                finished.signal()
            }
            thread.start()
        }

        /// Waits (bounded) for the end of file, then returns what was read.
        func result(waiting seconds: Double) -> Data {
            _ = finished.wait(timeout: .now() + seconds)
            lock.lock()
            defer { lock.unlock() }
            return data
        }
    }

    /// Runs `executable` with `arguments` (the current environment merged with `environment`), bounded by
    /// `timeout` seconds. A run past the limit is stopped and recorded as an XCTest failure naming the command.
    /// `combined` sends stderr into the stdout pipe (one stream, in the order written). `watchStderr` sees
    /// stderr as it grows (on a reader thread), for a test that acts on the child while it runs. `directory` is
    /// the child's working folder; `sample`, when given, is called with the child's pid about every 50 ms while it
    /// runs (to read /proc).
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    timeout: Double, combined: Bool = false, watchStderr: (@Sendable (Data) -> Void)? = nil,
                    directory: String? = nil, sample: ((Int32) -> Void)? = nil,
                    file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.arguments = arguments
        let isolated = IsolatedState.environment(ProcessInfo.processInfo.environment.merging(environment) { $1 })
        defer { IsolatedState.remove(isolated.folder) }
        process.environment = isolated.environment
        process.standardInput = FileHandle.nullDevice
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = combined ? out : err
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let stdout = Collected(), stderr = Collected()
        let start = Date()
        try process.run()
        // Our copies of the write ends must be closed, or the readers never see end of file.
        try? out.fileHandleForWriting.close()
        try? err.fileHandleForWriting.close()
        stdout.start(out.fileHandleForReading)
        if !combined { stderr.start(err.fileHandleForReading, observe: watchStderr) }
        var timedOut = false
        while exited.wait(timeout: .now() + (sample == nil ? timeout : 0.05)) == .timedOut {
            if Date().timeIntervalSince(start) < timeout {
                sample?(process.processIdentifier)
                continue
            }
            timedOut = true
            process.terminate()
            if exited.wait(timeout: .now() + 2) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                exited.wait()
            }
            break
        }
        let seconds = Date().timeIntervalSince(start)
        // A grandchild may still hold a pipe open; don't wait for it past a short grace.
        let result = Result(status: process.terminationStatus, stdout: stdout.result(waiting: 5),
                            stderr: combined ? Data() : stderr.result(waiting: 5), seconds: seconds, timedOut: timedOut)
        if timedOut {
            XCTFail("\(executable) \(arguments.joined(separator: " ")) did not finish in \(timeout) s; stderr: "
                    + String(decoding: result.stderr.suffix(2000), as: UTF8.self), file: file, line: line)
        }
        return result
    }
}
