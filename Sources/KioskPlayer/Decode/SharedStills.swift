import Foundation
import KioskCore

/// One decode of a still for several screens (issue 40): a picture one screen decoded is handed to another screen
/// that asks for the same file, unchanged, decoded the same way, within `window` seconds (screens showing the same
/// folder ask for it at about the same time); a screen asking while the decode runs waits for it instead of
/// decoding too. "The same way" is the screens' decode signature: their decode options alike (canvas, fit, zoom,
/// view, limits, what is read with it), the item's own override alike. Clips, sounds and animations are each
/// screen's own (each plays from its own position). Thread-safe: the decode threads of every screen use it.
final class SharedStills: @unchecked Sendable {
    private struct Key: Hashable {
        let path: String
        let size: Int64
        let modified: Double
        let signature: String
    }

    private enum Entry {
        /// A decode runs; whoever asks waits on the condition.
        case decoding
        /// Decoded at `at` (monotonic seconds).
        case done(DecodedItem, at: Double)
    }

    private let condition = NSCondition()
    private var entries: [Key: Entry] = [:]
    /// Decodes run, and decodes handed over (for tests and the log).
    private(set) var decodes = 0, handedOver = 0
    /// How long a decoded still is kept for another screen.
    let window: Double
    /// The most stills kept at once.
    static let capacity = 16

    /// Stills kept `window` seconds for the other screens.
    init(window: Double = 10) { self.window = window }

    /// `decode` for a screen whose decode options read `signature`: a still another screen decoded the same way is
    /// handed over.
    func decoder(_ decode: @escaping DecodeCache.Decode, signature: String) -> DecodeCache.Decode {
        return { [self] item in
            guard MediaExtensions.isPicture(item.path), let key = Self.key(item, signature: signature) else { return try decode(item) }
            if let shared = take(key) { return shared }
            let decoded: DecodedItem
            do {
                decoded = try decode(item)
            } catch {
                finish(key, nil)
                throw error
            }
            finish(key, decoded)
            return decoded
        }
    }

    /// The file's key: its path, size and modification time (a file replaced since is decoded anew), the signature.
    private static func key(_ item: PlaylistItem, signature: String) -> Key? {
        guard let a = try? FileManager.default.attributesOfItem(atPath: item.path),
              let size = (a[.size] as? NSNumber)?.int64Value, let modified = a[.modificationDate] as? Date else { return nil }
        return Key(path: item.path, size: size, modified: modified.timeIntervalSince1970,
                   signature: signature + "|" + String(describing: item.override))
    }

    /// A still decoded (or being decoded) the same way, waited for; nil: this caller decodes it (marked decoding).
    private func take(_ key: Key) -> DecodedItem? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            switch entries[key] {
            case .decoding?:
                condition.wait()
            case .done(let item, let at)? where MonotonicClock.seconds() - at <= window:
                handedOver += 1
                return item
            default:
                entries[key] = .decoding
                decodes += 1
                return nil
            }
        }
    }

    /// The decode of `key` ended: a still is kept for the others (nil, or not a still: nothing kept).
    private func finish(_ key: Key, _ decoded: DecodedItem?) {
        condition.lock()
        defer { condition.unlock() }
        let now = MonotonicClock.seconds()
        if let decoded, case .still = decoded.picture {
            entries[key] = .done(decoded, at: now)
        } else {
            entries[key] = nil
        }
        // what is past its window goes, and the oldest beyond the capacity
        entries = entries.filter { if case .done(_, let at) = $0.value { return now - at <= window } else { return true } }
        while entries.count > Self.capacity, let oldest = entries.compactMap({ e -> (Key, Double)? in
            if case .done(_, let at) = e.value { return (e.key, at) } else { return nil }
        }).min(by: { $0.1 < $1.1 }) {
            entries[oldest.0] = nil
        }
        condition.broadcast()
    }

    /// The signature of `config`'s decodes: everything in it but what never changes a still's decode (the
    /// slideshow's timing, the sound, an earlier run's state, the grid, sync).
    static func signature(of config: PlayerConfig) -> String {
        var c = config
        c.slideshow = SlideshowOptions()
        c.audio = AudioSettings()
        c.restored = nil
        c.grid = GridSettings()
        c.sync = SyncSettings()
        return String(describing: c)
    }
}
