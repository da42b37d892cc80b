/// What the DRM display output does when the display goes away and comes back, as a pure state machine
/// (no C, no clock of its own), so the decisions are testable without a DRM device.
///
/// Lost master (a VT switch, another client: a flip or commit fails with EACCES/EPERM): stop showing, try to
/// take master again every `masterRetry` seconds. Disconnected (the connector poll says so): stop showing, poll
/// the connector every `connectorPoll` seconds. Back: set the mode again on the next frame. While showing,
/// the connector is polled every `connectorPoll` seconds too (a static slide does not flip).
/// This poll is the hotplug fallback; a udev monitor (in the input layer, which wraps libudev) makes the player
/// call `DRMDisplayOutput.displayChanged()` at once when the kernel reports a change.
public struct DisplayLink: Sendable, Equatable {
    /// Where the display stands.
    public enum State: Sendable, Equatable {
        /// Frames are shown.
        case showing
        /// Another client holds DRM master.
        case lostMaster
        /// The connector has no display.
        case disconnected
    }

    /// What the output should do next.
    public enum Action: Sendable, Equatable {
        /// Nothing: keep going.
        case none
        /// Try to become DRM master again.
        case retryMaster
        /// Read the connector's status and modes.
        case pollConnector
    }

    /// Seconds between two tries to take master back.
    public var masterRetry = 0.5
    /// Seconds between two connector polls.
    public var connectorPoll = 1.0
    /// The current state.
    public private(set) var state = State.showing
    /// Counts the returns to `showing`: the player redraws when it changes.
    public private(set) var generation = 0
    private var lastTry = -Double.infinity

    /// Starts showing; `now` is the time the last poll counts from.
    public init(now: Double) { lastTry = now }

    /// Whether frames can be shown.
    public var isShowing: Bool { state == .showing }

    /// A flip or commit failed because another client has master: returns true the first time (log it once).
    public mutating func masterLost(at now: Double) -> Bool {
        guard state != .lostMaster else { return false }
        state = .lostMaster
        lastTry = now
        return true
    }

    /// The connector poll said `connected` or not: returns the new state when it changed.
    public mutating func connector(connected: Bool, at now: Double) -> State? {
        lastTry = now
        switch (state, connected) {
        case (.showing, false):
            state = .disconnected
        case (.disconnected, true):
            state = .showing
            generation += 1
        default:
            return nil
        }
        return state
    }

    /// Master came back (or the retry failed when `regained` is false): returns true when showing again.
    public mutating func masterRetried(regained: Bool, at now: Double) -> Bool {
        lastTry = now
        guard state == .lostMaster, regained else { return false }
        state = .showing
        generation += 1
        return true
    }

    /// The output changed under the player (a new mode): draw again even if the scene did not change.
    public mutating func redraw() { generation += 1 }

    /// What is due at `now`.
    public func due(at now: Double) -> Action {
        switch state {
        case .lostMaster: return now - lastTry >= masterRetry ? .retryMaster : .none
        case .showing, .disconnected: return now - lastTry >= connectorPoll ? .pollConnector : .none
        }
    }
}
