import Foundation
import KioskCore
@testable import KioskPlayer
import XCTest

/// The kill test (issue 12, part 3): a real process saves states as fast as it can (`kiosk-bench state-saver`,
/// the player's `StateStore`), and is SIGKILLed at a random (seeded) moment, 200 times. Each time the state
/// read back must be a whole state: the last one the saver said it saved, or the one it was saving. Never
/// corrupt, never a mix; and no more than the one temporary file a crash can leave.
final class StateKillTests: XCTestCase {
    /// The `kiosk-bench` binary next to the test bundle.
    private var saver: String { (CLITests.kiosk as NSString).deletingLastPathComponent + "/kiosk-bench" }

    /// State number `n` as `kiosk-bench state-saver` writes it.
    private func state(_ n: Int) -> PlayerState { NumberedStates.state(n) }

    func testKilledWhileSavingLeavesTheOldStateOrTheNew() throws {
        guard FileManager.default.isExecutableFile(atPath: saver) else {
            return XCTFail("no kiosk-bench next to the tests at \(saver) (swift build --build-tests builds it)")
        }
        let dir = try TempDir()
        let folder = dir.file("state")
        let lines = LockedLines()
        let store = StateStore(directory: folder, log: Log(level: .debug, sink: { lines.append($0) }))
        var rng = SeededGenerator(seed: 20_240_612)
        var first = 0
        var (inFlight, renamedUnprinted, leftovers) = (0, 0, 0)
        for round in 0..<200 {
            let delay = rng.unit() * 0.02  // 0–20 ms into the saving, after its first save
            let printed = try killedSaver(folder: folder, first: first, after: delay)
            guard let last = printed.last else { return XCTFail("round \(round): the saver printed nothing") }
            guard let loaded = store.load() else {
                return XCTFail("round \(round): no state read back after a kill (last saved \(last)): \(lines.all)")
            }
            let n = Int(loaded.saved)
            XCTAssertTrue(n == last || n == last + 1, "round \(round): read state \(n), the saver had said \(last)")
            XCTAssertEqual(loaded, state(n), "round \(round): state \(n) is not whole")
            if n == last + 1 { renamedUnprinted += 1 }
            let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
            XCTAssertTrue(names.isSubset(of: [StateDirectory.fileName, StateStore.temporaryName]), "round \(round): \(names)")
            if names.contains(StateStore.temporaryName) { leftovers += 1 }
            if n == last && names.contains(StateStore.temporaryName) { inFlight += 1 }
            first = n + 1
        }
        XCTAssertEqual(lines.all, [], "no load complained")
        print("state kill test: 200 kills; \(leftovers) left the temporary file (\(inFlight) mid-save before the rename), "
              + "\(renamedUnprinted) just after the rename; last state \(first - 1)")
        XCTAssertGreaterThan(leftovers, 0, "some kills should land inside a save")
        try store.save(state(first))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [StateDirectory.fileName],
                       "the next save takes the leftover")
    }

    /// Runs the saver from state `first`; once it has said its first `saved`, waits `after` seconds and SIGKILLs it.
    /// Returns the numbers it said it saved. Bounded: 10 s for the first line, 5 s for the end.
    private func killedSaver(folder: String, first: Int, after: Double) throws -> [Int] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: saver)
        process.arguments = ["state-saver", folder, "\(first)", "20"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        try? out.fileHandleForWriting.close()
        let fd = out.fileHandleForReading.fileDescriptor
        defer { try? out.fileHandleForReading.close() }
        var text = ""
        let started = Date(timeIntervalSinceNow: 10)
        while !text.contains("\n") {
            guard let chunk = read(fd, until: started) else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw SocketTestError(description: "kiosk-bench state-saver said nothing in 10 s (or ended)")
            }
            text += chunk
        }
        usleep(UInt32(after * 1_000_000))
        kill(process.processIdentifier, SIGKILL)
        let ended = Date(timeIntervalSinceNow: 5)
        while let chunk = read(fd, until: ended) { text += chunk }
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal, "the saver ended before the kill")
        return text.split(separator: "\n", omittingEmptySubsequences: true).compactMap { line in
            line.hasPrefix("saved ") ? Int(line.dropFirst(6)) : nil
        }
    }

    /// What the pipe has by `deadline`; nil at its end or the deadline.
    private func read(_ fd: Int32, until deadline: Date) -> String? {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ms = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
        guard poll(&p, 1, ms) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        return n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : nil
    }
}
