import Foundation
import KioskCore

/// Items with a time window (`#EXTKIOSK:days=mon-fri,from=09:00,to=17:30,start=…,end=…`) play only inside it:
/// the player tells the slideshow which are outside now, when the playlist changes and at the next window edge
/// (its loop wakes then, to the frame).
extension Screen {
    /// Updates which items are outside their windows at player time `t`, when due.
    func updateItemWindows(at t: Double) {
        let version = show.playlist.version
        guard version != windowCheck.version || t >= windowCheck.next - 1e-9 else { return }
        let now = services.wallClock.at(t)
        var outside = Set<ItemID>()
        var next: Date?
        for id in show.playlist.windowed {
            guard let window = show.playlist.item(id)?.window else { continue }
            if !window.contains(now, timeZone: services.wallClock.zone) { outside.insert(id) }
            if let change = window.nextChange(after: now, timeZone: services.wallClock.zone) { next = min(next ?? change, change) }
        }
        show.setOutsideWindows(outside)
        windowCheck = (version, next.map { t + max(0, $0.timeIntervalSince(now)) } ?? .infinity)
    }
}
