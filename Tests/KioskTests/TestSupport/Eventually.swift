import Foundation

/// Asks `condition` every `interval` seconds until it holds or `seconds` have passed, and once more at the deadline;
/// whether it held. The tests' one way to wait for a state instead of sleeping a fixed time and hoping: give it a
/// generous deadline (a loaded 2-core machine stalls for seconds), which costs nothing when the state comes soon.
func eventually(_ seconds: Double, every interval: Double = 0.01, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: interval)
    }
    return try condition()
}
