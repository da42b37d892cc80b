import Foundation

/// Which of several recurring windows holds each instant over a run of wall-clock days: the run cut into
/// segments, each held by the last window (the highest index, as a schedule's later line wins) with an
/// occurrence covering it, or by none. Built in one sweep over the occurrences (sorted edges and a heap of the
/// open windows), so N windows over a few days cost O(N log N), where asking every window at every edge costs
/// O(N²).
struct WindowTimeline {
    /// A stretch of time held by one window throughout (start included, end excluded).
    struct Segment: Equatable {
        /// When it starts.
        var start: Date
        /// When it ends.
        var end: Date
        /// The index of the window holding it, nil when none does.
        var winner: Int?
    }

    /// The segments in order, covering the days asked for from midnight to midnight with no gaps.
    let segments: [Segment]

    /// The timeline of `windows` on the wall-clock days `days` (day numbers) in `timeZone`, by `LocalClock`'s
    /// rule, exactly as `RecurringWindow.occurrence(on:in:)` places each occurrence.
    init(windows: [RecurringWindow], days: ClosedRange<Int>, in timeZone: TimeZone) {
        // The edges by wall second: many rules share the same few, so each is placed (by `LocalClock`) once,
        // and the sweep sorts the few distinct edges rather than every rule's two.
        var slotOfWallSecond: [Int: Int] = [:]
        var times: [Date] = []
        var opening: [[Int]] = [], closing: [[Int]] = []
        func slot(_ day: Int, _ second: Int) -> Int {
            let key = day * LocalClock.secondsPerDay + second
            if let known = slotOfWallSecond[key] { return known }
            times.append(LocalClock.instant(CivilDate(dayNumber: day), second: second, in: timeZone))
            opening.append([])
            closing.append([])
            slotOfWallSecond[key] = times.count - 1
            return times.count - 1
        }
        let fromSlot = slot(days.lowerBound, 0), toSlot = slot(days.upperBound + 1, 0)
        let from = times[fromSlot], to = times[toSlot]
        // An occurrence reaches at most into the day after it starts; two days back covers odd zones too.
        let firstDay = days.lowerBound - 2
        let candidates = windows.indices.filter { i in
            let dates = windows[i].dates
            return (dates.first.map { $0.dayNumber <= days.upperBound } ?? true)
                && (dates.last.map { $0.dayNumber >= firstDay } ?? true)
        }
        for day in firstDay...days.upperBound {
            let date = CivilDate(dayNumber: day)
            let weekday = date.weekday
            for i in candidates where windows[i].days.contains(weekday) && windows[i].dates.contains(date) {
                let time = windows[i].time
                let start = slot(day, time.start * 60), end = slot(day, time.endSecond)
                guard times[start] < times[end], times[end] > from, times[start] < to else { continue }
                opening[times[start] < from ? fromSlot : start].append(i)
                if times[end] < to { closing[end].append(i) }  // one at `to` or later never closes in here
            }
        }
        let order = times.indices.filter { times[$0] >= from && times[$0] <= to }.sorted { times[$0] < times[$1] }
        var openCount = [Int](repeating: 0, count: windows.count)
        var open = MaxHeap()
        var segments: [Segment] = []
        var k = 0
        while k < order.count, times[order[k]] < to {
            let t = times[order[k]]
            while k < order.count, times[order[k]] == t {  // every edge at this instant (a DST gap merges some)
                for i in opening[order[k]] { openCount[i] += 1; open.push(i) }
                for i in closing[order[k]] { openCount[i] -= 1 }
                k += 1
            }
            while let top = open.max, openCount[top] == 0 { open.popMax() }  // closed since pushed
            let next = k < order.count ? times[order[k]] : to
            if let last = segments.last, last.winner == open.max {
                segments[segments.count - 1].end = next
            } else {
                segments.append(Segment(start: t, end: next, winner: open.max))
            }
        }
        self.segments = segments
    }

    /// The window holding `date`, nil when none does or `date` is outside the timeline.
    func winner(at date: Date) -> Int? {
        var lo = 0, hi = segments.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if segments[mid].end <= date { lo = mid + 1 } else { hi = mid }
        }
        return lo < segments.count && segments[lo].start <= date ? segments[lo].winner : nil
    }
}

/// A binary max-heap of window indices: the open window that wins is the one with the highest index.
struct MaxHeap {
    private var items: [Int] = []

    /// The largest index held, nil when empty.
    var max: Int? { items.first }

    /// Adds `item`.
    mutating func push(_ item: Int) {
        items.append(item)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[parent] < items[child] else { break }
            items.swapAt(parent, child)
            child = parent
        }
    }

    /// Removes the largest index.
    mutating func popMax() {
        guard let last = items.popLast(), !items.isEmpty else { return }
        items[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var largest = parent
            if left < items.count, items[left] > items[largest] { largest = left }
            if right < items.count, items[right] > items[largest] { largest = right }
            guard largest != parent else { return }
            items.swapAt(parent, largest)
            parent = largest
        }
    }
}
