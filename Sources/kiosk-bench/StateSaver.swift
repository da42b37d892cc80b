import Foundation
import KioskCore
import KioskPlayer

/// `kiosk-bench state-saver DIR FIRST [SECONDS]`: saves states number FIRST, FIRST+1, … into DIR with the
/// player's `StateStore`, as fast as it can, and prints `saved N` after each save returns. The kill test
/// (Tests/KioskTests/StateStoreTests) SIGKILLs it at random moments and checks that the file it reads back is
/// always a whole state: the last one printed, or the one being saved. It stops by itself after SECONDS
/// (default 20), so a test that loses it leaves no process behind for long.
enum StateSaver {
    /// State number `n`: every field follows from `n`, and the size changes from one to the next, so a torn
    /// or mixed file cannot pass for one of them. (The test builds the same states.)
    static func state(_ n: Int) -> PlayerState {
        var s = PlayerState()
        s.path = n % 2 == 0 ? "/media/clips/long \(n).mp4" : "/media/b.jpg"
        s.position = n % 2 == 0 ? Double(n) / 4 : nil
        s.duration = n % 2 == 0 ? 480 : nil
        s.volume = n % 101
        s.muted = n % 3 == 0
        s.paused = n % 5 == 0
        s.resume = Dictionary(uniqueKeysWithValues: (0..<(n % 7)).map { ("/media/clips/long \($0).mp4", Double(n * 10 + $0)) })
        s.saved = Double(n)
        return s
    }

    /// Saves until `seconds` have passed.
    static func run(directory: String, first: Int, seconds: Double) throws {
        let store = StateStore(directory: directory, log: Log(level: .warn))
        try store.prepare()
        let end = Date(timeIntervalSinceNow: seconds)
        var n = first
        while Date() < end {
            try store.save(state(n))
            let line = Array("saved \(n)\n".utf8)
            _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }  // unbuffered: a kill loses nothing printed
            n += 1
        }
    }
}
