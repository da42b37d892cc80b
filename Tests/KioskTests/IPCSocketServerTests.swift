import Foundation
@preconcurrency import Glibc
import KioskCore
@testable import KioskRemote
import XCTest

/// The remote-control socket server over real Unix sockets: binding rules, framing, many clients, bounded
/// queues, wakeups and stopping. Every wait has a deadline.
final class IPCSocketServerTests: XCTestCase {
    private var dir: TempDir?
    private var servers: [IPCSocketServer] = []

    override func setUpWithError() throws { dir = try TempDir() }

    override func tearDown() {
        for s in servers { s.stop() }
        servers = []
        dir = nil
    }

    /// A path in the test's folder.
    private func path(_ name: String = "ipc.sock") throws -> String { try XCTUnwrap(dir).file(name) }

    /// A started server at `path` with an echo handler.
    private func serve(_ path: String, mode: UInt32 = 0o600, maxQueuedBytes: Int = 4 << 20) throws
        -> (IPCSocketServer, EchoHandler, CapturedLog) {
        let handler = EchoHandler()
        let (log, captured) = CapturedLog.make()
        let server = try IPCSocketServer(path: path, mode: mode, handler: handler, log: log, maxQueuedBytes: maxQueuedBytes)
        servers.append(server)
        server.start()
        return (server, handler, captured)
    }

    /// The error `body` throws, or a failure.
    private func ipcError(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> IPCServerError? {
        do {
            try body()
            XCTFail("no error", file: file, line: line)
        } catch let e as IPCServerError {
            return e
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
        return nil
    }

    private func fileStat(_ path: String) -> stat? {
        var st = stat()
        return lstat(path, &st) == 0 ? st : nil
    }

    /// One request and its reply on a new connection.
    private func roundTrip(_ path: String, _ text: String = "ping") throws -> String? {
        let c = try UnixSocketClient(path: path)
        try c.write(text + "\n")
        return try c.readLine()
    }

    // MARK: - Binding

    func testSocketFileGetsMode0600AndServes() throws {
        let p = try path()
        let (_, _, log) = try serve(p)
        let st = try XCTUnwrap(fileStat(p))
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFSOCK)
        XCTAssertEqual(st.st_mode & 0o7777, 0o600)
        XCTAssertEqual(try roundTrip(p, "hello"), "echo:hello")
        XCTAssertEqual(log.count("kiosk: info: ipc: listening on \(p) (mode 0600)"), 1, "\(log.lines)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: try XCTUnwrap(dir).path), ["ipc.sock"],
                       "no temporary name is left behind")
    }

    func testSocketFileGetsMode0660() throws {
        let p = try path()
        let (_, _, log) = try serve(p, mode: 0o660)
        XCTAssertEqual(try XCTUnwrap(fileStat(p)).st_mode & 0o7777, 0o660)
        XCTAssertEqual(try roundTrip(p), "echo:ping")
        XCTAssertEqual(log.count("ipc: listening on \(p) (mode 0660)"), 1)
    }

    func testStaleSocketIsReplaced() throws {
        let p = try path()
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertNil(UnixSocketAddress(path: p)?.bind(fd))
        close(fd)  // bound, never listened: a stale socket file
        XCTAssertEqual(UnixSocketClient.connectErrno(path: p), ECONNREFUSED)
        let (_, _, log) = try serve(p)
        XCTAssertEqual(try roundTrip(p), "echo:ping")
        XCTAssertEqual(log.count("ipc: replaced the stale socket at \(p)"), 1)
        XCTAssertEqual(try XCTUnwrap(fileStat(p)).st_mode & 0o7777, 0o600)
    }

    func testLiveServersPathIsAnErrorAndTheFirstServerGoesOn() throws {
        let p = try path()
        _ = try serve(p)
        let (log, _) = CapturedLog.make()
        let error = ipcError { _ = try IPCSocketServer(path: p, mode: 0o600, handler: EchoHandler(), log: log) }
        XCTAssertEqual(error?.kind, .inUse)
        XCTAssertEqual(error?.description, "ipc socket \(p): another server is listening there")
        XCTAssertEqual(try roundTrip(p, "still"), "echo:still")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: try XCTUnwrap(dir).path), ["ipc.sock"])
    }

    func testWhatIsNotASocketIsAnErrorAndLeftAlone() throws {
        let file = try path("file"), folder = try path("folder")
        try "keep me".write(toFile: file, atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let (log, _) = CapturedLog.make()
        for p in [file, folder] {
            let error = ipcError { _ = try IPCSocketServer(path: p, mode: 0o600, handler: EchoHandler(), log: log) }
            XCTAssertEqual(error?.kind, .notASocket)
            XCTAssertTrue(error?.description.hasPrefix("ipc socket \(p): ") == true, "\(String(describing: error))")
        }
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "keep me")
        XCTAssertEqual(fileStat(folder).map { $0.st_mode & S_IFMT }, S_IFDIR)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: try XCTUnwrap(dir).path).sorted(), ["file", "folder"])
    }

    func testPathLengthLimit() throws {
        let base = try XCTUnwrap(dir).path + "/"
        let longest = base + String(repeating: "s", count: 107 - base.utf8.count)  // 107 bytes and the NUL
        _ = try serve(longest)
        XCTAssertEqual(try roundTrip(longest), "echo:ping")
        let tooLong = longest + "s"
        let (log, _) = CapturedLog.make()
        let error = ipcError { _ = try IPCSocketServer(path: tooLong, mode: 0o600, handler: EchoHandler(), log: log) }
        XCTAssertEqual(error?.kind, .pathTooLong)
        XCTAssertTrue(error?.description.contains(tooLong) == true)
        XCTAssertNil(fileStat(tooLong))
    }

    func testMissingFolderIsMadeWith0700ButNotItsParent() throws {
        let p = try path("run/ipc.sock")
        _ = try serve(p)
        XCTAssertEqual(try XCTUnwrap(fileStat(try path("run"))).st_mode & 0o7777, 0o700)
        XCTAssertEqual(try roundTrip(p), "echo:ping")
        let deeper = try path("a/b/ipc.sock")
        let (log, _) = CapturedLog.make()
        let error = ipcError { _ = try IPCSocketServer(path: deeper, mode: 0o600, handler: EchoHandler(), log: log) }
        XCTAssertEqual(error?.kind, .folderMissing)
        XCTAssertNil(fileStat(try path("a")))
    }

    // MARK: - Clients

    func testHundredClientsAtOnceEachGetTheirOwnRepliesInOrder() throws {
        let p = try path()
        let (_, handler, _) = try serve(p)
        let clients = try (0..<100).map { _ in try UnixSocketClient(path: p) }
        for (i, c) in clients.enumerated() {
            try c.write((0..<5).map { "c\(i) line \($0)\n" }.joined())
        }
        for (i, c) in clients.enumerated() {
            for n in 0..<5 { XCTAssertEqual(try c.readLine(), "echo:c\(i) line \(n)") }
        }
        XCTAssertTrue(handler.wait { $0.filter { $0.hasPrefix("accepted") }.count == 100 })
        clients.forEach { $0.close() }
        XCTAssertTrue(handler.wait { $0.filter { $0.hasPrefix("closed") }.count == 100 }, "\(handler.events.suffix(5))")
    }

    func testCarriageReturnsAndEmptyLinesAndSplitWrites() throws {
        let p = try path()
        _ = try serve(p)
        let c = try UnixSocketClient(path: p)
        try c.write("one\r\n\ntw")
        XCTAssertEqual(try c.readLine(), "echo:one")
        XCTAssertEqual(try c.readLine(), "echo:")
        try c.write("o\n")
        XCTAssertEqual(try c.readLine(), "echo:two")
    }

    func testOverlongLineGetsItsReplyThenEOFAndOthersGoOn() throws {
        let p = try path()
        let (_, handler, log) = try serve(p)
        let other = try UnixSocketClient(path: p)
        let long = try UnixSocketClient(path: p)
        XCTAssertTrue(handler.wait(for: "accepted 2"))
        try long.write([UInt8](repeating: UInt8(ascii: "a"), count: (1 << 20) + 1))
        let end = try long.readToEnd()
        XCTAssertEqual(String(decoding: end.bytes, as: UTF8.self), "error:overlong 1048576\n")
        XCTAssertEqual(end.end, 0, "EOF, not \(String(cString: strerror(end.end)))")
        XCTAssertTrue(handler.wait(for: "closed 2"))
        XCTAssertEqual(handler.events.filter { $0.hasPrefix("overlong") }, ["overlong 2"])
        XCTAssertEqual(log.count("ipc: client 2 sent a line over 1 MiB"), 1)
        try other.write("after\n")
        XCTAssertEqual(try other.readLine(), "echo:after")

        let atLimit = try UnixSocketClient(path: p)  // exactly the limit, and a "\r" before its "\n"
        try atLimit.write([UInt8](repeating: UInt8(ascii: "z"), count: 1 << 20) + Array("\r\nnext\n".utf8))
        XCTAssertEqual(try atLimit.readLine(), "echo:" + String(repeating: "z", count: 1 << 20))
        XCTAssertEqual(try atLimit.readLine(), "echo:next")
    }

    func testClientThatNeverReadsIsDroppedAndOthersStayPrompt() throws {
        let p = try path()
        let (_, handler, log) = try serve(p)
        let sink = try UnixSocketClient(path: p)
        XCTAssertTrue(handler.wait(for: "accepted 1"))
        let reader = try UnixSocketClient(path: p)
        let other = try UnixSocketClient(path: p)
        // Both ask for 10 bursts of 10 × 64 KiB (6.4 MiB in all); the reader reads each burst, the sink never does.
        for burst in 0..<10 {
            try? sink.write(String(repeating: "flood\n", count: 10))  // fails once it is dropped
            try reader.write(String(repeating: "flood\n", count: 10))
            for _ in 0..<10 { XCTAssertEqual(try reader.readLine()?.count, (64 << 10) - 1) }
            let start = Date()
            try other.write("quick \(burst)\n")
            XCTAssertEqual(try other.readLine(timeout: 5), "echo:quick \(burst)")
            XCTAssertLessThan(Date().timeIntervalSince(start), 5, "a round trip while another client is flooded")
        }
        XCTAssertTrue(handler.wait(for: "closed 1"))
        XCTAssertEqual(log.count("kiosk: warn: ipc: client 1 does not read its replies: dropped (over 4 MiB queued)"), 1,
                       "\(log.lines.suffix(3))")
        XCTAssertEqual(handler.events.filter { $0.hasPrefix("refused") || $0.hasPrefix("closed") }, ["refused 1", "closed 1"],
                       "only the sink is dropped, once")
        let rest = try sink.readToEnd()
        XCTAssertGreaterThan(rest.bytes.count, 0)
        XCTAssertLessThan(rest.bytes.count, 100 << 16, "the queue was thrown away")
        XCTAssertEqual(try roundTrip(p, "later"), "echo:later")
    }

    func testClientsThatLeaveBeforeTheirRepliesDoNotHurtTheServer() throws {
        let p = try path()
        let (_, handler, _) = try serve(p)
        for _ in 0..<20 {
            let c = try UnixSocketClient(path: p)
            try c.write("big\nhello\nbig\n")
            c.close()
        }
        XCTAssertTrue(handler.wait { $0.filter { $0.hasPrefix("closed") }.count == 20 })
        XCTAssertEqual(try roundTrip(p, "alive"), "echo:alive")
    }

    func testHandlerCloseFlushesFirst() throws {
        let p = try path()
        _ = try serve(p)
        let c = try UnixSocketClient(path: p)
        try c.write("one\nbye\nlost\n")
        let rest = try c.readToEnd()
        XCTAssertEqual(String(decoding: rest.bytes, as: UTF8.self), "echo:one\nbye\n")
    }

    // MARK: - Wakeups and stopping

    func testWakeFromOtherThreadsCallsWokenOnTheServerThread() throws {
        let p = try path()
        let (server, handler, _) = try serve(p)
        XCTAssertEqual(try roundTrip(p), "echo:ping")
        DispatchQueue.concurrentPerform(iterations: 8) { _ in for _ in 0..<200 { server.wake() } }
        XCTAssertTrue(handler.wait { $0.contains("woken") })
        XCTAssertLessThan(handler.wokenCount, 1600, "wakes coalesce")
        for _ in 0..<3 {
            let before = handler.wokenCount
            server.wake()
            XCTAssertTrue(handler.wait { $0.filter { $0 == "woken" }.count > before }, "a wake after a woken is another woken")
        }
        XCTAssertEqual(handler.threads.count, 1, "one server thread")
        XCTAssertFalse(handler.threads.contains(UInt(pthread_self())))
    }

    func testStopClosesClientsRemovesTheFileAndEndsTheThread() throws {
        let p = try path()
        let (server, handler, _) = try serve(p)
        let c = try UnixSocketClient(path: p)
        XCTAssertTrue(handler.wait(for: "accepted 1"))
        XCTAssertTrue(server.isRunning)
        server.stop()
        XCTAssertFalse(server.isRunning)
        XCTAssertEqual(handler.events.last, "closed 1")
        XCTAssertEqual(try c.readToEnd().end, 0)
        XCTAssertNil(fileStat(p))
        XCTAssertEqual(UnixSocketClient.connectErrno(path: p), ENOENT)
        server.stop()
        server.wake()
        XCTAssertEqual(handler.events, ["accepted 1", "closed 1"])
    }

    func testServerNeverStartedOrDroppedRemovesItsFile() throws {
        let p = try path()
        let (log, _) = CapturedLog.make()
        var server: IPCSocketServer? = try IPCSocketServer(path: p, mode: 0o600, handler: EchoHandler(), log: log)
        XCTAssertNotNil(fileStat(p))
        server?.stop()
        XCTAssertNil(fileStat(p))
        server = try IPCSocketServer(path: p, mode: 0o600, handler: EchoHandler(), log: log)
        server?.start()
        XCTAssertEqual(try roundTrip(p), "echo:ping")
        server = nil  // deinit stops it
        XCTAssertNil(fileStat(p))
    }

    func testSocketFileReplacedByAnotherIsNotRemoved() throws {
        let p = try path()
        let (first, _, _) = try serve(p)
        XCTAssertEqual(unlink(p), 0)
        let (_, _, _) = try serve(p)
        first.stop()
        XCTAssertEqual(try roundTrip(p), "echo:ping", "the second server's file stays")
    }
}
