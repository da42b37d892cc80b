/// A video plane's bytes where the decoder put them: a frame taken as decoded is referenced, not copied, until the
/// renderer has uploaded it (`VideoPlane.memory`).

/// Read-only bytes owned elsewhere (a decoder's reference-counted buffer), given back by `release` when the last
/// plane holding them goes. The owner must not write them while they are held.
public final class PlaneMemory: @unchecked Sendable {
    /// The first byte.
    public let base: UnsafeRawPointer
    /// How many bytes.
    public let count: Int
    private let release: @Sendable () -> Void

    /// `count` bytes at `base`, held until this object goes, then handed back with `release`.
    public init(base: UnsafeRawPointer, count: Int, release: @escaping @Sendable () -> Void) {
        self.base = base
        self.count = max(0, count)
        self.release = release
    }

    deinit { release() }

    /// The bytes.
    public var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
}
