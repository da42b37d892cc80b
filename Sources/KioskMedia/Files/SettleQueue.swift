import KioskCore

/// Files that arrived without saying they are complete: created but not yet closed after writing, or found by a
/// scan after start-up (a new subfolder, a rescan, a folder that came back). Each becomes ready once its size
/// and modification time have stayed the same for `settle` seconds; this covers writers whose close the kernel
/// never reports, such as copies onto network shares. A close after writing, or a rename into place, makes a file
/// ready at once (the watcher takes it out of here). Pure: the caller gives the time and how to look at a file.
struct SettleQueue {
    /// What is compared between looks: size and modification time (seconds, nanoseconds).
    struct Look: Equatable {
        var size: Int64
        var modified: Int64
        var modifiedNanoseconds: Int64
    }

    private struct Waiting {
        var look: Look?
        var steadySince: Double
        var nextLook: Double
    }

    /// Seconds a file's size and time must hold still.
    let settle: Double
    /// Seconds between looks at a waiting file: often enough that a file is ready soon after `settle`.
    let interval: Double
    private var waiting: [String: Waiting] = [:]

    /// A queue with the settle time `settle` (seconds, >= 0).
    init(settle: Double) {
        self.settle = max(0, settle)
        interval = min(0.5, max(0.05, self.settle / 4))
    }

    /// How many files are waiting.
    var count: Int { waiting.count }

    /// Whether `rel` is waiting.
    func contains(_ rel: String) -> Bool { waiting[rel] != nil }

    /// Starts (or restarts) the wait for `rel`, seen as `look` at `now`.
    mutating func add(_ rel: String, look: Look?, now: Double) {
        waiting[rel] = Waiting(look: look, steadySince: now, nextLook: now + interval)
    }

    /// Stops waiting for `rel`; whether it was waiting.
    @discardableResult
    mutating func remove(_ rel: String) -> Bool { waiting.removeValue(forKey: rel) != nil }

    /// Stops waiting for everything in the folder `dir` (relative; "" is everything).
    mutating func remove(under dir: String) {
        guard !dir.isEmpty else { return waiting.removeAll() }
        let prefix = dir + "/"
        waiting = waiting.filter { !$0.key.hasPrefix(prefix) }
    }

    /// When the next look is due, if anything waits.
    var nextLook: Double? { waiting.values.lazy.map(\.nextLook).min() }

    /// Looks at every file that is due at `now` (`look` is nil for a file that is gone, which stops its wait).
    /// Returns the files that held still for `settle` seconds, in no order; they leave the queue.
    mutating func ready(now: Double, look: (String) -> Look?) -> [String] {
        var out: [String] = []
        for (rel, w) in waiting where w.nextLook <= now {
            guard let seen = look(rel) else {
                waiting[rel] = nil
                continue
            }
            if seen != w.look {
                waiting[rel] = Waiting(look: seen, steadySince: now, nextLook: now + interval)
            } else if now - w.steadySince >= settle {
                waiting[rel] = nil
                out.append(rel)
            } else {
                waiting[rel]?.nextLook = min(now + interval, w.steadySince + settle)
            }
        }
        return out
    }
}
