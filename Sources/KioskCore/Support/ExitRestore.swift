import Foundation

/// What must be given back to the system if the process exits without its clean stop (a frame loop stuck when a
/// stop signal came): the console's text mode, DRM master. Each part that takes such a thing registers a quick
/// undo while it holds it, and removes it once its own clean release ran. The stop watchdog runs what is left, on
/// its own thread, just before `_exit`: an undo must therefore be quick, touch only the values it captured (a
/// descriptor, a mode) and never wait for the thread that is stuck.
public final class ExitRestore: @unchecked Sendable {
    /// The one list of the process.
    public static let shared = ExitRestore()

    /// Names one registered undo, to remove it.
    public struct Token: Hashable, Sendable {
        fileprivate let id: Int
    }

    private let lock = NSLock()
    private var next = 0
    private var undos: [(id: Int, name: String, undo: @Sendable () -> Void)] = []

    /// An empty list (tests make their own; the process uses `shared`).
    public init() {}

    /// Registers `undo`, named `name` for the exit line; returns the token that removes it.
    @discardableResult
    public func add(_ name: String, _ undo: @escaping @Sendable () -> Void) -> Token {
        lock.lock()
        defer { lock.unlock() }
        next += 1
        undos.append((next, name, undo))
        return Token(id: next)
    }

    /// Removes the undo of `token` (its owner released the thing cleanly). Removing twice does nothing.
    public func remove(_ token: Token) {
        lock.lock()
        undos.removeAll { $0.id == token.id }
        lock.unlock()
    }

    /// The names of the undos registered now, oldest first.
    public var pending: [String] {
        lock.lock()
        defer { lock.unlock() }
        return undos.map(\.name)
    }

    /// Runs every registered undo once, newest first (the reverse of taking), and empties the list; returns
    /// their names in the order run.
    @discardableResult
    public func runAll() -> [String] {
        lock.lock()
        let taken = undos
        undos.removeAll()
        lock.unlock()
        for u in taken.reversed() { u.undo() }
        return taken.reversed().map(\.name)
    }
}
