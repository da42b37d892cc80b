/// Which transition each change plays: the one named, or for `random` a seeded pick among the registered
/// transitions (never the same twice in a row). Keyed by the change (the incoming slot's sequence), so the same
/// change always gets the same transition, whatever order frames are drawn in.
import KioskCore

/// Chooses the transition of each change. Pure and cheap: no state is kept between calls.
public struct TransitionChooser: Sendable {
    /// The transition, when the spec names one.
    private let fixed: (any ShaderTransition)?
    /// What `random` picks among: every registered transition except `none`, with its default options.
    private let candidates: [any ShaderTransition]
    /// The `--seed`.
    private let seed: UInt64

    /// A chooser for `spec` (validated here: the error names `--transition`), seeded by `seed` for `random`.
    public init(_ spec: TransitionSpec, seed: UInt64) throws(UsageError) {
        self.seed = seed
        if spec.name == TransitionSpec.random.name {
            guard spec.options.isEmpty else { throw UsageError("--transition: random takes no options") }
            fixed = nil
        } else {
            fixed = try PassRegistry.transition(spec)
        }
        var all: [any ShaderTransition] = []
        for type in PassRegistry.transitions where type.name != NoTransition.name {
            if let made = try? type.init(options: []) { all.append(made) }
        }
        candidates = all
    }

    /// The transition of the change to the slot of `sequence`.
    public func transition(forChange sequence: Int) -> any ShaderTransition {
        if let fixed { return fixed }
        guard !candidates.isEmpty else { return NoTransition() }
        return candidates[index(forChange: sequence)]
    }

    /// Random picks: each block of n changes plays a seeded permutation of the n candidates; when a block would
    /// start with the transition the previous block ended with, its first two are exchanged (with n ≥ 3 that
    /// leaves the block's end as it was, so each block needs only the one before it).
    func index(forChange sequence: Int) -> Int {
        let n = candidates.count
        let s = max(0, sequence)
        guard n >= 3 else { return (s + Int(seed % UInt64(max(n, 1)))) % max(n, 1) }
        let block = s / n
        var order = permutation(block: block, count: n)
        if block > 0, s % n < 2, let previousLast = permutation(block: block - 1, count: n).last, order[0] == previousLast {
            order.swapAt(0, 1)
        }
        return order[s % n]
    }

    /// The seeded order of block `block`.
    private func permutation(block: Int, count: Int) -> [Int] {
        var generator = SeededGenerator(seed: seed ^ (UInt64(block) &* 0xD1B5_4A32_D192_ED03))
        var order = Array(0..<count)
        order.shuffle(using: &generator)
        return order
    }
}
