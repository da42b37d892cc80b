import Foundation

/// `kiosk play` keeps its state (item, position, volume, pause) and continues from it at the next start. A test's
/// kiosk must do neither with another's: every child a test starts gets `STATE_DIRECTORY` set to a folder of its
/// own, removed when it ends, unless the test sets `STATE_DIRECTORY` itself (`--state-dir` wins over both). So
/// no run continues paused because a test before it paused, and none writes to /var/lib/kiosk or ~/.local/state.
enum IsolatedState {
    /// `environment` with a fresh `STATE_DIRECTORY` (not created: kiosk makes it), and that folder to remove.
    static func environment(_ environment: [String: String]) -> (environment: [String: String], folder: String?) {
        guard environment["STATE_DIRECTORY"] == nil else { return (environment, nil) }
        let folder = NSTemporaryDirectory() + "kiosk-test-state-\(UUID().uuidString)"
        return (environment.merging(["STATE_DIRECTORY": folder]) { $1 }, folder)
    }

    /// Removes a folder `environment` made.
    static func remove(_ folder: String?) {
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }
}
