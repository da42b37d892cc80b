import KioskCore

extension Slideshow {
    /// Runs the commands among input's `requests` at `t`, as the player does, and hands the requests back.
    @discardableResult
    func run(_ requests: [InteractionRequest], at t: Double) -> [InteractionRequest] {
        for case .command(let c) in requests { _ = apply(c, at: t) }
        return requests
    }
}
