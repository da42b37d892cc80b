import KioskCore

/// The states of the kill test, by number (issue 12): `kiosk-bench state-saver` saves them one after another and
/// the test (StateKillTests) rebuilds the one it reads back from its number. Every field follows from the
/// number, and the size changes from one to the next, so a torn or mixed file cannot pass for one of them.
public enum NumberedStates {
    /// State number `n`.
    public static func state(_ n: Int) -> PlayerState {
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
}
