import KioskCore
import KioskMedia

/// A SMIL layout as one item of a playlist (the demo tour ends on one): when its slot comes, the layout takes the
/// screen for one pass of its body (a body with no end: the item's own duration, else `--duration`), then the
/// playlist goes on. The decode cache holds only a placeholder for it: the layout is read when its slot begins.
enum LayoutItem {
    /// What the decode cache holds for a layout item: the file read and checked (a broken layout fails here, with
    /// its FILE:LINE, and the playlist skips it like a broken picture), and a black pixel for the slot's picture.
    static func placeholder(_ path: String, limits: DecodeLimits) throws -> DecodedItem {
        do {
            _ = try SMILFile.load(path, limits: limits)
        } catch {
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

extension Player {
    /// The slideshow's current slot is a layout: it takes the screen (LayoutMode, ending the slot after its
    /// length), from the next turn. A layout that cannot be read now ends the slot with one line.
    func playLayoutItem(_ slot: Slot) {
        do {
            let file = try SMILFile.load(slot.path, limits: config.limits)
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
