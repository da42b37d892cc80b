import Foundation
import KioskCore
import KioskMedia

/// SMIL files a remote asked to load (`loadfile x.smil`, MQTT's `load`, a schedule's window), read on a thread of
/// their own so that the frame loop never waits on a file or a parse: the loop hands the command here, the file is
/// read (libxml2, the document, each medium probed), and the same command goes back into the inbox with its reply,
/// to find the file ready. Thread-safe.
final class LayoutLoads: @unchecked Sendable {
    /// A file read: the layout, or why it cannot play (one line).
    enum Outcome: Sendable {
        case ready(SMILFile)
        case failed(String)
    }

    private let lock = NSLock()
    private var read: [String: Outcome] = [:]

    /// Whether the file at `path` is read and waiting to be taken.
    func isReady(_ path: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return read[path] != nil
    }

    /// The file at `path` read, once (nil when it was not read here: the caller reads it itself).
    func take(_ path: String) -> Outcome? {
        lock.lock()
        defer { lock.unlock() }
        return read.removeValue(forKey: path)
    }

    /// Keeps `outcome` for the file at `path`, read elsewhere (the content fetcher's thread), for the next load of it.
    func put(_ path: String, _ outcome: Outcome) {
        lock.lock()
        read[path] = outcome
        lock.unlock()
    }

    /// Reads the file at `path` on a new thread (with the player's decode `limits`, its media confined to
    /// `--media-root`), then calls `then` there: it sends the command again.
    func start(_ path: String, limits: DecodeLimits, then: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            let outcome: Outcome
            do {
                outcome = .ready(try SMILFile.load(path, limits: limits, confined: true, content: FetchedIndexes.map(for: path)))
            } catch {
                outcome = .failed("\(error)")
            }
            lock.lock()
            read[path] = outcome
            lock.unlock()
            then()
        }
        thread.name = "kiosk-layout-read"
        thread.start()
    }
}

extension Screen {
    /// Whether `envelope` is a replacing load of one SMIL file not read yet: then it is read off the frame loop
    /// and comes back into the inbox, with its reply, once it is (true: the loop is done with it for now). On a
    /// virtual clock (`record`, which waits for every decode) it is read in its turn, so a recording stays exact.
    func readsLayoutFirst(_ command: PlayerCommand, reply: CommandInbox.Reply?, screen name: String? = nil) -> Bool {
        guard !services.waitForDecodes, case .load(let items, let mode) = command, mode == .replace || mode == .reload, items.count == 1,
              let path = items.first?.path, SMILFile.isSMIL(path), !services.intake.layoutLoads.isReady(path) else { return false }
        let inbox = services.inbox
        services.intake.layoutLoads.start(path, limits: config.limits) { inbox.send(command, toScreen: name, reply: reply) }
        return true
    }
}
