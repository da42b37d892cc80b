import Foundation
import KioskCore
import KioskMedia
@testable import KioskPlayer
import XCTest

/// `FolderSource` turns a watcher's reports into the player's commands, one at a time; `WatchedFolders` decides
/// what loads at start and what streams in.
final class FolderSourceTests: XCTestCase {
    /// A sink that keeps commands and answers only when told.
    private final class Sink: CommandSink, @unchecked Sendable {
        private let condition = NSCondition()
        private var commands: [PlayerCommand] = []
        private var replies: [@Sendable (CommandReply) -> Void] = []

        func send(_ command: PlayerCommand, reply: (@Sendable (CommandReply) -> Void)?) {
            condition.lock()
            commands.append(command)
            if let reply { replies.append(reply) }
            condition.broadcast()
            condition.unlock()
        }

        /// Waits up to `timeout` s for `n` commands; the commands so far.
        func wait(for n: Int, timeout: Double = 10) -> [PlayerCommand] {
            let deadline = Date(timeIntervalSinceNow: timeout)
            condition.lock()
            defer { condition.unlock() }
            while commands.count < n, condition.wait(until: deadline) {}
            return commands
        }

        /// Every command so far.
        var all: [PlayerCommand] {
            condition.lock()
            defer { condition.unlock() }
            return commands
        }

        /// Answers the oldest unanswered command.
        func answer() {
            condition.lock()
            let reply = replies.isEmpty ? nil : replies.removeFirst()
            condition.unlock()
            reply?(.done())
        }
    }

    private func loaded(_ c: PlayerCommand?) -> [String]? {
        guard case .load(let items, .sorted) = c else { return nil }
        return items.map(\.path)
    }

    func testALargeFolderStreamsInGrowingBatchesEachSentOnceTheOneBeforeWasAnswered() throws {
        let dir = try TempDir()
        let names = (0..<3500).map { "IMG_\($0).jpg" }
        for n in names { Files.write(dir.file(n), bytes: 0) }
        let source = try FolderSource(folder: dir.path, known: nil, settle: 2, log: Log(level: .error))
        defer { source.stop() }
        let sink = Sink()
        source.start(sending: sink)
        XCTAssertEqual(loaded(sink.wait(for: 1).first)?.count, 1000)
        XCTAssertEqual(sink.wait(for: 2, timeout: 0.5).count, 1, "the next waits for the answer")
        sink.answer()
        XCTAssertEqual(loaded(sink.wait(for: 2).last)?.count, 2000)
        sink.answer()
        let all = sink.wait(for: 3)
        XCTAssertEqual(loaded(all.last)?.count, 500)
        XCTAssertEqual(all.compactMap(loaded).flatMap { $0 }, names.map(dir.file), "in path order")
    }

    func testFilesThatLeaveAndArriveBecomeARemoveAndASortedLoad() throws {
        let dir = try TempDir()
        Files.write(dir.file("a.jpg"))
        let lines = LogLines()
        let source = try FolderSource(folder: dir.path, known: [dir.file("a.jpg")], settle: 0.5, log: lines.log)
        defer { source.stop() }
        let sink = Sink()
        source.start(sending: sink)
        // The initial scan is done (its report, in which nothing differs, is logged), so the removal below is
        // the watcher's news and not the scan's.
        XCTAssertTrue(eventually(20) { !lines.matching("watching for changes").isEmpty }, "the initial scan")
        XCTAssertEqual(sink.all, [], "the initial scan: nothing differs, nothing is sent")
        Files.remove(dir.file("a.jpg"))
        XCTAssertEqual(sink.wait(for: 1, timeout: 20), [.removeMany([.path(dir.file("a.jpg"))])])
        Files.write(dir.file("b.jpg"))
        // The arrival reached the source once it settled and was logged; a load sent regardless of the
        // unanswered remove would go right after that line. The short wait that follows is on purpose: the
        // load must be seen NOT to come.
        XCTAssertTrue(eventually(20) { !lines.matching("1 file arrived").isEmpty }, "b.jpg arrived")
        XCTAssertEqual(sink.wait(for: 2, timeout: 0.5).count, 1, "not before the remove is answered")
        sink.answer()
        XCTAssertEqual(sink.wait(for: 2, timeout: 20).last, .load([PlaylistItem(path: dir.file("b.jpg"))], .sorted))
    }

    func testSmallFoldersLoadAtStartAsBeforeAndLargeOnesStreamIn() throws {
        let small = try TempDir()
        let large = try TempDir()
        let single = try TempDir()
        for n in ["b.jpg", "a10.jpg", "a9.jpg", "notes.txt"] { Files.write(small.file(n)) }
        for i in 0...WatchedFolders.loadAtStartLimit { Files.write(large.file("\(i).jpg"), bytes: 0) }
        Files.write(single.file("one.png"))
        let log = Log(level: .error)
        let paths = [single.file("one.png"), small.path, large.path]
        let watched = WatchedFolders(paths: paths, watch: true, settle: 2, log: log)
        defer { watched.stop() }
        XCTAssertEqual(watched.items.map(\.path), [single.file("one.png")] + ["a9.jpg", "a10.jpg", "b.jpg"].map(small.file),
                       "a small folder loads at start, exactly as without watching; a large one does not")
        XCTAssertEqual(watched.sources.map(\.folder), [small.path, large.path])
        let unwatched = WatchedFolders(paths: paths, watch: false, settle: 2, log: log)
        XCTAssertTrue(unwatched.isEmpty)
        XCTAssertEqual(unwatched.items, PlaylistLoader(log: log).load(paths))
    }
}
