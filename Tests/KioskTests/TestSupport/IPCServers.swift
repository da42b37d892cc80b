import Foundation
import XCTest

/// The outside tools the IPC tests need (mpv, python3, the venv's python with python-mpv-jsonipc) and the JSON
/// IPC servers they start. A missing tool skips the test, except with CI set (Kiosk/test.sh, .ci/run): there it
/// is a failure, since CI must run every test.
enum IPCTools {
    /// A tool that is not there, on CI.
    struct Missing: Error, CustomStringConvertible {
        /// What is missing and how to get it.
        let description: String
    }

    /// The test scripts' folder (Tests/KioskTests/Fixtures/ipc).
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/ipc").path

    /// `found`, or a skip (a failure with CI set) saying what is missing.
    static func require(_ found: String?, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        if let found { return found }
        if let ci = ProcessInfo.processInfo.environment["CI"], !ci.isEmpty {
            XCTFail("\(what); CI is set, so this test may not skip", file: file, line: line)
            throw Missing(description: what)
        }
        throw XCTSkip(what)
    }

    /// An executable called `name` on PATH.
    static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// mpv, the reference server.
    static func mpv(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try require(onPath("mpv"), "mpv is not installed (Kiosk/setup.sh installs it)", file: file, line: line)
    }

    /// A python3 for the scripts that need only its standard library.
    static func python3(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try require(onPath("python3"), "python3 is not installed (Kiosk/setup.sh installs it)", file: file, line: line)
    }

    /// The python of the venv with python-mpv-jsonipc (KIOSK_IPC_PYTHON, which Kiosk/test.sh sets from
    /// Kiosk/ipc-venv.sh).
    static func jsonipcPython(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let path = ProcessInfo.processInfo.environment["KIOSK_IPC_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
        let usable = path.flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
        return try require(usable, path == nil
                           ? "KIOSK_IPC_PYTHON is not set (run Kiosk/ipc-venv.sh and export what it prints, or use Kiosk/test.sh)"
                           : "KIOSK_IPC_PYTHON=\(path ?? "") is not an executable", file: file, line: line)
    }

    /// Runs a script of Fixtures/ipc with `python`, bounded in time, stdout and stderr as one text.
    static func runScript(_ python: String, _ script: String, _ arguments: [String], timeout: Double,
                          file: StaticString = #filePath, line: UInt = #line) throws -> (status: Int32, output: String) {
        let r = try BoundedProcess.run(python, ["-u", scripts + "/" + script] + arguments, timeout: timeout,
                                       combined: true, file: file, line: line)
        return (r.status, String(decoding: r.stdout, as: UTF8.self))
    }

    /// One request line to the server at `path` on a fresh connection: the first reply line (events skipped),
    /// or nil when there is none within a second. Independent of `kiosk ctl`, for setting up its tests.
    static func rawRequest(_ path: String, _ line: String) -> String? {
        guard let fd = connected(path) else { return nil }
        defer { close(fd) }
        var limit = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array((line + "\n").utf8)
        guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { return nil }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            while let newline = received.firstIndex(of: 10) {
                let reply = String(decoding: received[..<newline], as: UTF8.self)
                received.removeSubrange(...newline)
                if !reply.hasPrefix("{\"event\"") { return reply }
            }
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return nil }
            received += chunk[..<n]
        }
    }

    /// A connected Unix stream socket to `path`, or nil.
    private static func connected(_ path: String) -> Int32? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if status != 0 {
            close(fd)
            return nil
        }
        return fd
    }
}

/// A JSON IPC server process for a test: mpv (the reference) or kiosk (`kiosk play --input-ipc-server`). Started
/// with `start`, which waits (bounded) until the server plays its first item; stopped with SIGTERM at the test's end if it is
/// still running, so none outlives its test.
final class IPCServer {
    /// The socket path.
    let socket: String
    /// The running process, read while it runs.
    let process: LiveProcess

    private init(socket: String, process: LiveProcess) {
        self.socket = socket
        self.process = process
    }

    /// mpv as the reference server: `FILES` as its playlist, playing the first, each picture shown until told
    /// otherwise, no window and no sound, idle instead of quitting when the playlist ends. No user config.
    static func mpv(socket: String, files: [String], test: XCTestCase,
                    file: StaticString = #filePath, line: UInt = #line) throws -> IPCServer {
        let mpv = try IPCTools.mpv(file: file, line: line)
        let args = ["--no-config", "--idle", "--vo=null", "--ao=null", "--input-terminal=no", "--msg-level=all=warn",
                    "--image-display-duration=inf", "--input-ipc-server=\(socket)"] + files
        return try start(socket: socket, process: LiveProcess(args, executable: mpv), test: test, file: file, line: line)
    }

    /// kiosk as the server: `kiosk play --output headless` of `files` with `--input-ipc-server SOCKET`, each
    /// still shown for an hour, the run bounded by `length` seconds (plus `extra` options).

    static func kiosk(socket: String, files: [String], extra: [String] = [], length: Double = 30, test: XCTestCase,
                      file: StaticString = #filePath, line: UInt = #line) throws -> IPCServer {
        let args = ["play", "--output", "headless", "--size", "64x48", "--length", String(length), "--duration", "3600",
                    "--transition", "none", "--input-ipc-server", socket] + extra + files
        return try start(socket: socket, process: LiveProcess(args), test: test, file: file, line: line)
    }

    private static func start(socket: String, process: LiveProcess, test: XCTestCase,
                              file: StaticString, line: UInt) throws -> IPCServer {
        let server = IPCServer(socket: socket, process: process)
        test.addTeardownBlock { server.stop() }
        // Up means playing: the socket answers and the first item is loaded (time-pos is there).
        let deadline = Date().addingTimeInterval(10)
        let probe = #"{"command":["get_property","time-pos"],"request_id":1}"#
        while IPCTools.rawRequest(socket, probe)?.contains(#""error":"success""#) != true {
            guard Date() < deadline, process.isRunning else {
                XCTFail("no server playing at \(socket) within 10 s; stderr: \(process.stderr.suffix(2000))", file: file, line: line)
                throw IPCTools.Missing(description: "no server at \(socket)")
            }
            usleep(20_000)
        }
        return server
    }

    /// Waits (bounded) for the server to end by itself (after `quit`), failing the test if it does not.
    func finish(timeout: Double = 5, file: StaticString = #filePath, line: UInt = #line) -> LiveProcess.End {
        process.finish(timeout: timeout, file: file, line: line)
    }

    /// Sends SIGTERM and waits (bounded) for the end, which must be clean: status 0, else the test fails with
    /// the server's stderr.
    func stopExpectingCleanExit(timeout: Double = 15, file: StaticString = #filePath, line: UInt = #line) {
        process.send(SIGTERM)
        XCTAssertEqual(process.finish(timeout: timeout, file: file, line: line).status, 0, process.stderr, file: file, line: line)
    }

    /// Stops the server with SIGTERM (if it still runs) and waits for it, bounded.
    func stop() {
        if process.isRunning { process.send(SIGTERM) }
        _ = process.finish(timeout: 5)
    }
}
