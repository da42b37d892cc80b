import Foundation

/// How many GL objects kiosk holds now, by kind: counted where they are made and deleted, so a test can check that
/// a long run gives every texture, program and framebuffer back (read by the soak test and `kiosk-bench soak`).
public enum GLObjectCount {
    /// A kind of GL object.
    enum Kind: Int, CaseIterable { case texture, program, framebuffer }

    private final class Counts: @unchecked Sendable {
        let lock = NSLock()
        var values = [Int](repeating: 0, count: Kind.allCases.count)
    }

    private static let counts = Counts()

    /// Adds `delta` objects of `kind` (negative when they are deleted).
    static func add(_ kind: Kind, _ delta: Int = 1) {
        counts.lock.lock()
        counts.values[kind.rawValue] += delta
        counts.lock.unlock()
    }

    /// The objects alive now: textures, programs, framebuffers.
    public static var now: (textures: Int, programs: Int, framebuffers: Int) {
        counts.lock.lock()
        defer { counts.lock.unlock() }
        return (counts.values[0], counts.values[1], counts.values[2])
    }
}
