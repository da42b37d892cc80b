import KioskCore
import KioskMedia

/// The slot lengths of `--sync-epoch`'s timeline, read from the files' headers before anything is decoded, so
/// every player with the same files and options gets the same numbers: a still its duration (the item's own, else
/// `--duration`), an animation whole loops (`MediaTiming.slotLength`), a clip or a sound file its length capped by
/// `--video-max`, a one-frame video like a still. A file that cannot be probed gets the still's duration (one
/// warning); it is then skipped in its turn, and its slot shows the frame before it.
enum SyncLengths {
    /// One length per item, in playlist order.
    static func lengths(of items: [PlaylistItem], config: PlayerConfig, log: Log) -> [Double] {
        // An #EXTINF may say less than a slot can last: every player clamps it alike.
        items.map { max(WallTimeline.shortestLength, length(of: $0, config: config, log: log)) }
    }

    /// The slot length of one item.
    static func length(of item: PlaylistItem, config: PlayerConfig, log: Log) -> Double {
        let still = item.duration ?? config.slideshow.duration
        let info: MediaInfo
        do {
            info = try MediaFile.probe(item.path, limits: config.limits)
        } catch {
            log.warn("\(DecodeCache.describe(error, path: item.path)); its synced slot lasts \(still) s")
            return still
        }
        switch info.kind {
        case .image:
            return still
        case .animation:
            guard let loop = info.duration, loop > 0 else { return still }
            return MediaTiming.animation(frameDurations: [loop], loops: info.loops).slotLength(forDuration: still)
        case .video, .audio:
            if info.kind == .video, Player.isSingleFrame(info) { return still }
            guard let d = info.duration, d > 0 else {
                log.warn("\(item.path): no length in its header; its synced slot lasts \(still) s")
                return still
            }
            return min(d, config.videoMax ?? .infinity)
        }
    }
}
