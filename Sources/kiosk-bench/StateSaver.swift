import Foundation
import KioskCore
import KioskPlayer

/// `kiosk-bench state-saver DIR FIRST [SECONDS]`: saves states number FIRST, FIRST+1, … into DIR with the
/// player's `StateStore`, as fast as it can, and prints `saved N` after each save returns. The kill test
/// (Tests/KioskTests/StateStoreTests) SIGKILLs it at random moments and checks that the file it reads back is
/// always a whole state: the last one printed, or the one being saved. It stops by itself after SECONDS
/// (default 20), so a test that loses it leaves no process behind for long.
enum StateSaver {
    /// Saves until `seconds` have passed.
    static func run(directory: String, first: Int, seconds: Double) throws {
        let store = StateStore(directory: directory, log: Log(level: .warn))
        try store.prepare()
        let end = Date(timeIntervalSinceNow: seconds)
        var n = first
        while Date() < end {
            try store.save(NumberedStates.state(n))
            let line = Array("saved \(n)\n".utf8)
            _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }  // unbuffered: a kill loses nothing printed
            n += 1
        }
    }
}
