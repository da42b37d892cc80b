import Foundation
import KioskCore
import KioskMedia

/// A SMIL layout as one item of a playlist (the demo tour ends on one): when its slot comes, the layout takes the
/// screen for one pass of its body (a body with no end: the item's own duration, else `--duration`), then the
/// playlist goes on. It is read ahead like the next picture, on the decode thread (libxml2, the document, each
/// medium probed: seconds for thousands of media), and the slot starts only once it is: the decode cache holds a
/// placeholder for it, and `LayoutItemReads` the file read, for the loop to take when the slot begins.
enum LayoutItem {
    /// What the decode cache holds for a layout item: the file read and checked (a broken layout fails here, with
    /// its FILE:LINE, and the playlist skips it like a broken picture), and a black pixel for the slot's picture.
    /// The file read is kept in `reads` when given (the player's, for the slot to take).
    static func placeholder(_ path: String, limits: DecodeLimits, into reads: LayoutItemReads? = nil) throws -> DecodedItem {
        do {
            let file = try SMILFile.load(path, limits: limits)
            reads?.keep(file, for: path)
        } catch {
            reads?.forget(path)
            throw MediaError(path: path, reason: "\(error)")
        }
        let info = MediaInfo(path: path, kind: .image, width: 1, height: 1, frames: 1, duration: nil, loops: 0, orientation: 1)
        return DecodedItem(info: info, picture: .still(RGBAImage(size: PixelSize(width: 1, height: 1), fill: (0, 0, 0, 255))))
    }

    /// How long the layout `file` plays as an item: one pass of its body, or for a body with no end the item's
    /// `duration` (its `#EXTINF`), else `stillDuration`.
    static func length(of file: SMILFile, itemDuration: Double?, stillDuration: Double) -> Double {
        let pass = file.timeline(stillDuration: stillDuration).duration
        return pass.isFinite && pass > 0 ? pass : (itemDuration ?? stillDuration)
    }
}

/// The layout items the decode threads read ahead, by path (the latest read of each), until the loop takes them when
/// their slot begins. It holds what the decode cache holds: pruned with it (`keep(paths:)`). Thread-safe.
final class LayoutItemReads: @unchecked Sendable {
    private let lock = NSLock()
    private var files: [String: SMILFile] = [:]

    /// Keeps `file`, the layout at `path` just read (in place of an older read).
    func keep(_ file: SMILFile, for path: String) {
        lock.lock()
        defer { lock.unlock() }
        files[path] = file
    }

    /// Drops the read of `path` (it no longer reads).
    func forget(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        files[path] = nil
    }

    /// Drops every read but those of `paths` (the items the decode cache keeps).
    func keep(paths: Set<String>) {
        lock.lock()
        defer { lock.unlock() }
        files = files.filter { paths.contains($0.key) }
    }

    /// The layout at `path` as last read, or nil when it was not read here.
    func file(_ path: String) -> SMILFile? {
        lock.lock()
        defer { lock.unlock() }
        return files[path]
    }

    /// The player's decoder with its layout items read into `reads` (the rest decoded by `decode`).
    static func decoder(_ decode: @escaping DecodeCache.Decode, limits: DecodeLimits, into reads: LayoutItemReads) -> DecodeCache.Decode {
        return { item in
            guard SMILFile.isSMIL(item.path) else { return try decode(item) }
            return try LayoutItem.placeholder(item.path, limits: limits, into: reads)
        }
    }
}

extension Screen {
    /// The slideshow's current slot is a layout: it takes the screen (LayoutMode, ending the slot after its
    /// length), from the next turn. The file was read ahead with the slot's decode (the slot starts only once it
    /// is), so nothing is read here, on the frame loop; a layout not read (its read failed since) ends the slot
    /// with one line.
    func playLayoutItem(_ slot: Slot) {
        do {
            guard let file = services.intake.layoutItems.file(slot.path) else {
                throw MediaError(path: slot.path, reason: "the layout was not read ahead of its slot")
            }
            let length = LayoutItem.length(of: file, itemDuration: show.playlist.item(slot.id)?.duration,
                                           stillDuration: config.slideshow.duration)
            try play(layout: file)
            layoutMode?.endsSlot = (slot.sequence, length)
        } catch {
            log.warn("\(DecodeCache.describe(error, path: slot.path)); skipped")
            show.endCurrent(.error)
        }
    }
}
