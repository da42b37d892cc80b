import KioskCore

/// The loop's rest after every screen's turn. One screen rests as its mode said (`Screen.rest`: its output's next
/// frame, a deadline, not at all). Several screens share one wait: until the earliest of their deadlines (a
/// screen's next frame is its output's refresh interval from now), on the first screen's output, whose wakeup the
/// inbox raises; then each screen's own step (`--untimed`'s clock) runs.
extension Player {
    /// Rests as the screens that played this turn asked (`rests`: each screen and its rest).
    func rest(_ rests: [(screen: Screen, rest: Rest)]) {
        if rests.count == 1, let only = rests.first {
            only.screen.rest(only.rest)
            return
        }
        var steps: [() -> Void] = []
        let now = screen.clock.now
        let deadline = rests.map { Self.deadline(of: $0.rest, for: $0.screen, now: now, steps: &steps) }.min() ?? now
        if deadline > now { screen.rest(.until(deadline)) }
        for step in steps { step() }
    }

    /// When `rest` ends for `screen` on the player's clock at `now`, its steps collected in `steps`.
    private static func deadline(of rest: Rest, for screen: Screen, now: Double, steps: inout [() -> Void]) -> Double {
        switch rest {
        case .none:
            return now
        case .nextFrame:
            return now + (screen.presenter?.output.refreshInterval ?? 0.002)
        case .until(let deadline):
            return deadline
        case .then(let first, let step):
            steps.append(step)
            return deadline(of: first, for: screen, now: now, steps: &steps)
        }
    }
}
