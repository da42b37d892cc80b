import Foundation
import XCTest

/// mpv's JSON IPC against mpv itself, the reference: the comparison script (mpv against a second mpv, which must
/// agree), the python-mpv-jsonipc client, and `kiosk ctl`; then the same pieces against kiosk's own server
/// (`IPCServer.kiosk`): the script must find kiosk and mpv alike. Every process is bounded in time; a missing mpv or python skips the test,
/// or fails it with CI set.
final class IPCReferenceTests: XCTestCase {
    /// Three small pictures (red, green, blue 64x48 PNGs) in `dir`, by absolute path.
    func pictures(_ dir: TempDir) throws -> [String] {
        try ["red", "green", "blue"].map { colour in
            let path = dir.file("\(colour).png")
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=\(colour):s=64x48", "-frames:v", "1", path])
            return path
        }
    }

    /// `kiosk ctl` with `args`, bounded, from `directory`.
    func ctl(_ args: [String], socket: String?, directory: String? = nil, environment: [String: String] = [:],
                     file: StaticString = #filePath, line: UInt = #line) throws -> CLITests.Run {
        try CLITests.run(["ctl"] + (socket.map { ["--socket", $0] } ?? []) + args, timeout: 20, environment: environment,
                         directory: directory, file: file, line: line)
    }

    /// `kiosk ctl` that must succeed; its standard output without the last newline.
    @discardableResult
    func ctlOK(_ args: [String], socket: String?, directory: String? = nil, environment: [String: String] = [:],
                       file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try ctl(args, socket: socket, directory: directory, environment: environment, file: file, line: line)
        XCTAssertEqual(r.status, 0, "kiosk ctl \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        XCTAssertEqual(r.stderr, "", file: file, line: line)
        return r.stdout.hasSuffix("\n") ? String(r.stdout.dropLast()) : r.stdout
    }

    /// `kiosk ctl` that must fail with `status` and one line on standard error containing each of `texts`.
    func ctlFails(_ args: [String], socket: String?, status: Int32, _ texts: [String],
                          file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try ctl(args, socket: socket, file: file, line: line)
        XCTAssertEqual(r.status, status, "kiosk ctl \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "one line on stderr: \(r.stderr)", file: file, line: line)
        for text in texts {
            XCTAssertTrue(r.stderr.contains(text), "'\(text)' not in: \(r.stderr)", file: file, line: line)
        }
        XCTAssertEqual(r.stdout, "", file: file, line: line)
    }

    /// The PASS/FAIL lines of a script's output: (passed, failed lines).
    func verdicts(_ output: String) -> (passed: Int, failed: [String]) {
        let lines = output.split(separator: "\n").map(String.init)
        return (lines.filter { $0.hasPrefix("PASS ") }.count, lines.filter { $0.hasPrefix("FAIL ") })
    }

    // MARK: the scripts against mpv

    /// The comparison script must find nothing to tell between two mpv servers (else it cannot judge kiosk).
    func testCompareScriptFindsTwoMpvServersAlike() throws {
        let python = try IPCTools.python3()
        let dir = try TempDir()
        let files = Array(try pictures(dir).prefix(2))
        let a = try IPCServer.mpv(socket: dir.file("a.sock"), files: files, test: self)
        let b = try IPCServer.mpv(socket: dir.file("b.sock"), files: files, test: self)
        let r = try IPCTools.runScript(python, "compare_with_mpv.py", ["--a", a.socket, "--b", b.socket, "--shots", dir.path],
                                       timeout: 50)
        let v = verdicts(r.output)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertEqual(v.failed, [], r.output)
        XCTAssertGreaterThanOrEqual(v.passed, 39, r.output)
        // The script ends with quit: both servers exit by themselves, cleanly.
        XCTAssertEqual(a.finish().status, 0, a.process.stderr)
        XCTAssertEqual(b.finish().status, 0, b.process.stderr)
    }

    /// python-mpv-jsonipc, a client other programs use, works against mpv as the script expects.
    func testJsonIPCClientAgainstMpv() throws {
        let python = try IPCTools.jsonipcPython()
        let dir = try TempDir()
        let files = try pictures(dir)
        let server = try IPCServer.mpv(socket: dir.file("mpv.sock"), files: Array(files.prefix(2)), test: self)
        let r = try IPCTools.runScript(python, "jsonipc_client.py", ["--socket", server.socket, "--server", "mpv"] + files,
                                       timeout: 30)
        let v = verdicts(r.output)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertEqual(v.failed, [], r.output)
        XCTAssertGreaterThanOrEqual(v.passed, 31, r.output)
        XCTAssertTrue(server.process.isRunning, "the client's terminate() must not stop the server")
    }

    // MARK: kiosk ctl against mpv

    func testCtlGetSetPauseResumeToggle() throws {
        let dir = try TempDir()
        let files = try pictures(dir)
        let s = try IPCServer.mpv(socket: dir.file("mpv.sock"), files: Array(files.prefix(2)), test: self).socket
        XCTAssertEqual(try ctlOK(["get", "pause"], socket: s), "false")
        XCTAssertEqual(try ctlOK(["get", "path"], socket: s), files[0], "strings are printed bare")
        XCTAssertEqual(try ctlOK(["pause"], socket: s), "")
        XCTAssertEqual(try ctlOK(["get", "pause"], socket: s), "true")
        try ctlOK(["resume"], socket: s)
        XCTAssertEqual(try ctlOK(["get", "pause"], socket: s), "false")
        try ctlOK(["toggle"], socket: s)
        XCTAssertEqual(try ctlOK(["get", "pause"], socket: s), "true")
        try ctlOK(["set", "pause", "no"], socket: s)  // not JSON: sent as a string, which mpv parses
        XCTAssertEqual(try ctlOK(["get", "pause"], socket: s), "false")
        try ctlOK(["set", "volume", "50"], socket: s)  // JSON: sent as a number
        XCTAssertEqual(try ctlOK(["get", "volume"], socket: s), "50")
        try ctlOK(["--timeout", "2", "set", "pause", "true"], socket: s)
        XCTAssertEqual(try ctlOK(["get", "pause", "--json"], socket: s), #"{"data":true,"request_id":1,"error":"success"}"#)
        let playlist = try ctlOK(["get", "playlist"], socket: s)
        let entries = try JSONSerialization.jsonObject(with: Data(playlist.utf8)) as? [[String: Any]]
        XCTAssertEqual(entries?.compactMap { $0["filename"] as? String }, Array(files.prefix(2)), playlist)
        // The default socket: $XDG_RUNTIME_DIR/kiosk/ipc.sock.
        let runtime = dir.file("run")
        try FileManager.default.createDirectory(atPath: runtime + "/kiosk", withIntermediateDirectories: true)
        _ = try IPCServer.mpv(socket: runtime + "/kiosk/ipc.sock", files: [files[2]], test: self)
        XCTAssertEqual(try ctlOK(["get", "path"], socket: nil, environment: ["XDG_RUNTIME_DIR": runtime]), files[2])
    }

    func testCtlPlaylistMoves() throws {
        let dir = try TempDir()
        let files = try pictures(dir)
        let s = try IPCServer.mpv(socket: dir.file("mpv.sock"), files: Array(files.prefix(2)), test: self).socket
        try ctlOK(["next"], socket: s)
        XCTAssertEqual(try ctlOK(["get", "playlist-pos"], socket: s), "1")
        XCTAssertEqual(try ctlOK(["get", "path"], socket: s), files[1])
        try ctlOK(["prev"], socket: s)
        XCTAssertEqual(try ctlOK(["get", "path"], socket: s), files[0])
        try ctlOK(["goto", "1"], socket: s)
        XCTAssertEqual(try ctlOK(["get", "path"], socket: s), files[1])
        // A relative FILE is made absolute against ctl's working folder, not the server's.
        try ctlOK(["load", "blue.png", "append"], socket: s, directory: dir.path)
        XCTAssertEqual(try ctlOK(["get", "playlist-count"], socket: s), "3")
        try ctlOK(["goto", "2"], socket: s)
        XCTAssertEqual(try ctlOK(["get", "path"], socket: s), files[2])
        try ctlOK(["remove", "0"], socket: s)
        XCTAssertEqual(try ctlOK(["get", "playlist-count"], socket: s), "2")
        XCTAssertEqual(try ctlOK(["get", "playlist-pos"], socket: s), "1")
        try ctlOK(["load", "./red.png"], socket: s, directory: dir.path)  // replace
        XCTAssertEqual(try ctlOK(["get", "playlist-count"], socket: s), "1")
        XCTAssertEqual(try ctlOK(["get", "path"], socket: s), files[0])
        // mpv's answers to moves it cannot make are errors: exit 1, one line with the command and mpv's reason.
        try ctlFails(["next"], socket: s, status: 1, ["playlist-next", "error running command"])
        try ctlFails(["remove", "5"], socket: s, status: 1, ["playlist-remove 5", "error running command"])
    }

    func testCtlStatusLine() throws {
        let dir = try TempDir()
        let files = try pictures(dir)
        let s = try IPCServer.mpv(socket: dir.file("mpv.sock"), files: Array(files.prefix(2)), test: self).socket
        // A still has time-pos 0 and duration 0 in mpv.
        XCTAssertEqual(try ctlOK(["status"], socket: s), "playing 1/2 \(files[0]) 0.0/0.0 s")
        try ctlOK(["pause"], socket: s)
        try ctlOK(["next"], socket: s)
        XCTAssertEqual(try ctlOK(["status"], socket: s), "paused 2/2 \(files[1]) 0.0/0.0 s")
        let json = try ctlOK(["--json", "status"], socket: s).split(separator: "\n")
        XCTAssertEqual(json.count, 8, "one raw reply per property")
        for (i, line) in json.enumerated() {
            let reply = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            XCTAssertEqual(reply?["request_id"] as? Int, i + 1, String(line))
            // the last is kiosk's own cec-power, which mpv does not have: the line leaves the TV out
            XCTAssertEqual(reply?["error"] as? String, i == 7 ? "property not found" : "success", String(line))
        }
        // Out of range: mpv stops and idles; path, time-pos and duration are then unavailable.
        try ctlOK(["goto", "9"], socket: s)
        XCTAssertEqual(try ctlOK(["status"], socket: s), "idle (2 in the playlist)")
        XCTAssertEqual(try ctlOK(["get", "idle-active"], socket: s), "true")
        try ctlFails(["get", "path"], socket: s, status: 1, ["get_property path", "property unavailable"])
    }

    func testCtlObserveUntilSignalOrServerEnd() throws {
        let dir = try TempDir()
        let files = try pictures(dir)
        let server = try IPCServer.mpv(socket: dir.file("mpv.sock"), files: Array(files.prefix(2)), test: self)
        let pause = try LiveProcess(["ctl", "--socket", server.socket, "observe", "pause"])
        let path = try LiveProcess(["ctl", "--socket", server.socket, "--json", "observe", "path"])
        XCTAssertTrue(pause.waitForOutput("false\n", timeout: 5), pause.stdout + pause.stderr)
        XCTAssertTrue(path.waitForOutput(files[0], timeout: 5), path.stdout + path.stderr)
        try ctlOK(["toggle"], socket: server.socket)
        XCTAssertTrue(pause.waitForOutput("false\ntrue\n", timeout: 5), pause.stdout)
        try ctlOK(["toggle"], socket: server.socket)
        XCTAssertTrue(pause.waitForOutput("false\ntrue\nfalse\n", timeout: 5), pause.stdout)
        try ctlOK(["next"], socket: server.socket)
        XCTAssertTrue(path.waitForOutput(files[1], timeout: 5), path.stdout)
        // SIGINT ends an observer cleanly.
        pause.send(SIGINT)
        let ended = pause.finish(timeout: 5)
        XCTAssertEqual(ended.status, 0, pause.stderr)
        XCTAssertFalse(ended.killedBySignal)
        XCTAssertEqual(pause.stdout, "false\ntrue\nfalse\n")
        // The server going away ends one too; --json printed the raw events.
        server.stop()
        XCTAssertEqual(path.finish(timeout: 5).status, 0, path.stderr)
        let events = path.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        XCTAssertEqual(events.compactMap { $0["data"] as? String }, Array(files.prefix(2)), path.stdout)
        XCTAssertEqual(Set(events.compactMap { $0["event"] as? String }), ["property-change"], path.stdout)
    }

    func testCtlScreenshotWritesThePictureOnScreen() throws {
        let dir = try TempDir()
        let files = try pictures(dir)
        let s = try IPCServer.mpv(socket: dir.file("mpv.sock"), files: [files[2]], test: self).socket
        // Until the first picture is out, there is nothing to take: mpv answers "error running command". Retry,
        // bounded.
        var r = try ctl(["screenshot", "shot.png"], socket: s, directory: dir.path)  // relative: against ctl's folder
        let deadline = Date().addingTimeInterval(5)
        while r.status == 1 && r.stderr.contains("error running command") && Date() < deadline {
            usleep(100_000)
            r = try ctl(["screenshot", "shot.png"], socket: s, directory: dir.path)
        }
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout + r.stderr, "")
        XCTAssertEqual(try FFmpegCLI.probe(dir.file("shot.png"), "stream=width"), "64")
        XCTAssertEqual(try FFmpegCLI.probe(dir.file("shot.png"), "stream=height"), "48")
    }

    func testCtlErrorsAndExitStatus() throws {
        let dir = try TempDir()
        // No server: exit 1, one line naming the socket and the reason.
        try ctlFails(["status"], socket: dir.file("none.sock"), status: 1, [dir.file("none.sock"), "No such file or directory"])
        _ = FileManager.default.createFile(atPath: dir.file("plain"), contents: Data())
        try ctlFails(["next"], socket: dir.file("plain"), status: 1, [dir.file("plain"), "Connection refused"])
        // Bad usage: exit 2, before any connection.
        for args in [[], ["frob"], ["goto"], ["goto", "x"], ["goto", "-1"], ["next", "extra"], ["load", "a.png", "sideways"],
                     ["set", "volume"], ["get", "a", "b"], ["--bogus", "status"], ["--timeout", "0", "status"]] {
            try ctlFails(args, socket: dir.file("none.sock"), status: 2, ["kiosk: "])
        }
        // A server that never answers: the read times out, exit 1, within the bound.
        let silent = try SilentServer(dir.file("silent.sock"))
        let r = try ctl(["--timeout", "0.5", "get", "pause"], socket: silent.path)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("no reply to get_property pause from \(silent.path) within 0.5 s"), r.stderr)
        XCTAssertLessThan(r.seconds, 5)
        // One whose backlog is full: connecting is bounded too.
        let full = try SilentServer(dir.file("full.sock"), full: true)
        let f = try ctl(["--timeout", "0.5", "status"], socket: full.path)
        XCTAssertEqual(f.status, 1, f.stderr)
        XCTAssertTrue(f.stderr.contains("no reply to connect from \(full.path) within 0.5 s"), f.stderr)
        XCTAssertLessThan(f.seconds, 5)
        // Error replies: exit 1, one line with the command and mpv's error string.
        let files = try pictures(dir)
        let s = try IPCServer.mpv(socket: dir.file("mpv.sock"), files: [files[0]], test: self).socket
        try ctlFails(["get", "nonexistent-property"], socket: s, status: 1, ["get_property nonexistent-property: property not found"])
        try ctlFails(["set", "playlist-count", "3"], socket: s, status: 1, ["set_property playlist-count 3: error accessing property"])
        try ctlFails(["set", "volume", "loud"], socket: s, status: 1, ["unsupported format for accessing property"])
        XCTAssertEqual(try ctl(["--help"], socket: nil).status, 0)
    }
}

/// A Unix socket that takes connections into its backlog and never accepts nor answers them: for time-outs.
/// With `full`, its backlog is full already (a held connection of its own), so connecting blocks.
private final class SilentServer {
    let path: String
    private let fd: Int32
    private var held: Int32 = -1

    init(_ path: String, full: Bool = false) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let size = socklen_t(MemoryLayout<sockaddr_un>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
        guard fd >= 0, bound == 0, listen(fd, full ? 0 : 4) == 0 else {
            throw IPCTools.Missing(description: "cannot listen on \(path): \(String(cString: strerror(errno)))")
        }
        if full {  // a backlog of 0 holds one connection
            held = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(held, $0, size) }
            }
            guard connected == 0 else { throw IPCTools.Missing(description: "cannot fill the backlog of \(path)") }
        }
    }

    deinit {
        if held >= 0 { close(held) }
        close(fd)
    }
}

// MARK: - the same pieces against kiosk's own server

extension IPCReferenceTests {
    /// mpv and kiosk get the same raw request script: reply keys, error strings, request ids and event names agree
    /// for every request (values may differ). kiosk says `shutdown` before it closes at `quit`, which mpv 0.35
    /// does not send to IPC clients; that event alone is left out.
    func testKioskAnswersTheScriptAsMpvDoes() throws {
        let python = try IPCTools.python3()
        let dir = try TempDir()
        let files = Array(try pictures(dir).prefix(2))
        let a = try IPCServer.mpv(socket: dir.file("mpv.sock"), files: files, test: self)
        let b = try IPCServer.kiosk(socket: dir.file("kiosk.sock"), files: files, test: self)
        let r = try IPCTools.runScript(python, "compare_with_mpv.py", ["--a", a.socket, "--b", b.socket, "--shots", dir.path,
                                                                       "--ignore-event", "shutdown"], timeout: 50)
        let v = verdicts(r.output)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertEqual(v.failed, [], r.output)
        XCTAssertGreaterThanOrEqual(v.passed, 39, r.output)
        XCTAssertEqual(a.finish().status, 0, a.process.stderr)
        XCTAssertEqual(b.finish(timeout: 10).status, 0, b.process.stderr)
        XCTAssertFalse(b.process.stderr.contains("error:"), b.process.stderr)
    }

    /// python-mpv-jsonipc connects to kiosk (it builds its API from property-list and command-list), reads, sets
    /// and observes properties, binds events, loads and jumps.
    func testJsonIPCClientAgainstKiosk() throws {
        let python = try IPCTools.jsonipcPython()
        let dir = try TempDir()
        let files = try pictures(dir)
        let server = try IPCServer.kiosk(socket: dir.file("kiosk.sock"), files: Array(files.prefix(2)), test: self)
        let r = try IPCTools.runScript(python, "jsonipc_client.py", ["--socket", server.socket, "--server", "kiosk"] + files,
                                       timeout: 30)
        let v = verdicts(r.output)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertEqual(v.failed, [], r.output)
        XCTAssertGreaterThanOrEqual(v.passed, 30, r.output)
        XCTAssertTrue(server.process.isRunning, "the client's terminate() must not stop kiosk")
    }

    /// `kiosk ctl` against kiosk: moves, status, observe, screenshot and errors.
    func testCtlAgainstKiosk() throws {
        let dir = try TempDir()
        let files = try pictures(dir)
        let server = try IPCServer.kiosk(socket: dir.file("kiosk.sock"), files: Array(files.prefix(2)), test: self)
        let s = server.socket
        XCTAssertEqual(try ctlOK(["get", "path"], socket: s), files[0])
        try ctlOK(["pause"], socket: s)
        XCTAssertEqual(try ctlOK(["get", "pause"], socket: s), "true")
        let status = try ctlOK(["status"], socket: s)
        XCTAssertTrue(status.hasPrefix("paused 1/2 \(files[0]) ") && status.hasSuffix("/3600.0 s"), status)
        try ctlOK(["toggle"], socket: s)
        XCTAssertEqual(try ctlOK(["get", "pause"], socket: s), "false")
        try ctlOK(["next"], socket: s)
        XCTAssertEqual(try ctlOK(["get", "path"], socket: s), files[1])
        try ctlOK(["load", "blue.png", "append"], socket: s, directory: dir.path)
        try ctlOK(["goto", "2"], socket: s)
        XCTAssertEqual(try ctlOK(["get", "path"], socket: s), files[2])
        try ctlOK(["remove", "0"], socket: s)
        XCTAssertEqual(try ctlOK(["get", "playlist-count"], socket: s), "2")
        try ctlOK(["set", "volume", "40"], socket: s)
        XCTAssertEqual(try ctlOK(["get", "volume"], socket: s), "40")
        try ctlOK(["screenshot", "shot.png"], socket: s, directory: dir.path)
        XCTAssertEqual(try FFmpegCLI.probe(dir.file("shot.png"), "stream=width"), "64")
        try ctlFails(["get", "nonexistent-property"], socket: s, status: 1, ["get_property nonexistent-property: property not found"])
        try ctlFails(["remove", "7"], socket: s, status: 1, ["playlist-remove 7", "error running command"])
        try ctlOK(["goto", "9"], socket: s)  // out of range: stops, as mpv does
        XCTAssertEqual(try ctlOK(["status"], socket: s), "idle (2 in the playlist)")
        try ctlOK(["goto", "0"], socket: s)
        XCTAssertEqual(try ctlOK(["get", "idle-active"], socket: s), "false")
    }
}
