import Foundation
import KioskCore
import KioskMedia
import KioskPlayer

/// `kiosk snapshot --schedule FILE [--start-time T] [--timezone Z] [FALLBACK]`: the frame `kiosk play` with the
/// same schedule shows when it starts at T, as a PNG: black when the schedule turns the screen off then, otherwise
/// the first item of what plays (a window's folder or playlist, or the fallback) that is inside its own time
/// window. A preview of the schedule without waiting for the time to come.
enum ScheduledSnapshot {
    /// What shows at the start time: nil when the screen is off; the item and what it comes from otherwise.
    static func pick(_ o: ParsedOptions, fallback: [PlaylistItem], log: Log) throws -> (item: PlaylistItem, from: String)? {
        let (wall, zone) = try ScheduleSetup.wallClock(o, realClock: false)
        guard let file = o.string("schedule"), let driver = try ScheduleSetup.driver(o, fallback: fallback, realClock: false, log: log) else {
            throw UsageError("snapshot: --schedule FILE is required here")
        }
        let now = wall(0)
        let decision = try ScheduleSetup.read(file).decision(at: now, timeZone: zone)
        let when = ScheduleDriver.format(now, zone)
        if decision.isOff {
            log.info("snapshot: the schedule turns the screen off at \(when)")
            return nil
        }
        let items = driver.startingItems(at: 0)
        let from: String
        switch decision.target {
        case .path(let p)?: from = p
        default: from = o.positional.first ?? "the fallback"
        }
        guard let item = items.first(where: { $0.window?.contains(now, timeZone: zone) ?? true }) else {
            throw PlayerError("snapshot: nothing to show at \(when): \(from) has no item that plays then")
        }
        log.info("snapshot: at \(when) the schedule plays \(from): \(item.path)")
        return (item, from)
    }

    /// A black picture of `size` (the screen turned off).
    static func black(_ size: PixelSize) -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
        for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 }
        return RGBAImage(size: size, pixels: pixels)
    }
}
