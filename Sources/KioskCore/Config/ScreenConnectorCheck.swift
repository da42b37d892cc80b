/// A connector the box has, as `kiosk outputs` reports it: its name and status in `DisplayReport`'s words
/// (`connected`, `disconnected`, `unknown`). Plain names, so the check below runs without DRM.
public struct ConnectorPresence: Sendable, Equatable {
    /// The connector's name (`HDMI-A-1`).
    public var name: String
    /// Its status word.
    public var status: String

    /// A connector named `name` with `status`.
    public init(name: String, status: String) {
        self.name = name
        self.status = status
    }
}

extension ScreenPlan {
    /// Throws for the first of the screen's connectors the box does not have, in one line that names it and the
    /// ones there are, as `--drm-connector`'s error lists them: `--screen b: connector HDMI-A-3 not found; this box
    /// has HDMI-A-1 (connected), HDMI-A-2 (disconnected)`.
    public func checkConnectors(present: [ConnectorPresence]) throws(UsageError) {
        for name in connectors.names where !present.contains(where: { $0.name == name }) {
            let list = present.isEmpty ? "none" : present.map { "\($0.name) (\($0.status))" }.joined(separator: ", ")
            throw UsageError("\(label): connector \(name) not found; this box has \(list)")
        }
    }
}

extension ScreenPlans {
    /// `ScreenPlan.checkConnectors` for each screen in turn: the first connector missing is the error.
    public static func checkConnectors(_ plans: [ScreenPlan], present: [ConnectorPresence]) throws(UsageError) {
        for plan in plans { try plan.checkConnectors(present: present) }
    }
}
