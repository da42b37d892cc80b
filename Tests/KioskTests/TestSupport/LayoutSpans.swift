import Foundation
import KioskCore

/// What a region of a timeline shows from its start, as spans (`0:00:00-1:00:00 a.png`), found by stepping from
/// change to change: for the tests that check begin and end times over hours or days.
enum LayoutSpans {
    /// The spans of `region` in `timeline` from 0 to `until` seconds (a span still showing at `until` ends there).
    static func of(_ timeline: SMILTimeline, _ region: String, until: Double) -> [String] {
        var out: [String] = []
        var current: (src: String, from: Double)?
        var t = 0.0
        func close(at end: Double) {
            if let c = current { out.append("\(clock(c.from))-\(clock(end)) \(c.src)") }
        }
        while t < until {
            let shown = timeline.byRegion(at: t)[region]?.media.src
            if shown != current?.src {
                close(at: t)
                current = shown.map { ($0, t) }
            }
            guard let next = timeline.nextChange(after: t) else { break }
            t = next
        }
        close(at: until)
        return out
    }

    /// Seconds as `h:mm:ss` (`26:00:00` for a day and two hours), fractions as `h:mm:ss.s`.
    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        let tenths = Int(((seconds - Double(whole)) * 10).rounded())
        let text = String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
        return tenths == 0 ? text : text + ".\(tenths)"
    }
}
