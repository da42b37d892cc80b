/// Counts the outputs that use one card's DRM master: the first to join takes it, the last to leave gives it
/// back. A failed take leaves nobody joined, so the next join tries again.
final class MasterHold {
    /// How many outputs hold it now.
    private(set) var holders = 0
    private let take: () throws -> Void
    private let release: () -> Void

    /// A hold that runs `take` for its first holder and `release` when the last one leaves.
    init(take: @escaping () throws -> Void, release: @escaping () -> Void) {
        self.take = take
        self.release = release
    }

    /// Joins; takes the resource first when nobody holds it (its error is thrown, and nothing is joined).
    func join() throws {
        if holders == 0 { try take() }
        holders += 1
    }

    /// Leaves; the last holder's leave releases it. Leaving more often than joining does nothing.
    func leave() {
        guard holders > 0 else { return }
        holders -= 1
        if holders == 0 { release() }
    }
}
