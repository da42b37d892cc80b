/// The wall-clock timeline of `--sync-epoch`: which item shows, and how far into it, as a pure function of the
/// wall clock (CLOCK_REALTIME seconds). Every player with the same playlist, item lengths, shuffle and seed
/// computes the same answer for the same wall time, so screens agree without talking to each other: a player
/// started late, or whose clock was stepped, simply reads the timeline at its new time.
///
/// The playlist plays in passes from the epoch on (and, the same way, before it): pass `p` covers
/// `[epoch + p·P, epoch + (p+1)·P)` where `P` is the sum of the item lengths, whatever the order. Slot `k` (counted
/// from the epoch, negative before it) is position `k mod n` of pass `floor(k / n)`.

/// Why a timeline cannot be made.
public enum WallTimelineError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The playlist is empty.
    case noItems
    /// An item's length is not a positive finite number of seconds.
    case badLength(index: Int, length: Double)

    /// One line.
    public var description: String {
        switch self {
        case .noItems: return "--sync-epoch: the playlist is empty"
        case .badLength(let i, let l): return "--sync-epoch: item \(i) has no usable length (\(l) s)"
        }
    }
}

/// Where the timeline is at one wall time.
public struct TimelinePosition: Sendable, Equatable {
    /// The slot number from the epoch (negative before it); the same slot on every player.
    public var slot: Int
    /// The pass the slot belongs to.
    public var pass: Int
    /// Its place in that pass's order.
    public var place: Int
    /// The playlist index of the item shown.
    public var item: Int
    /// The wall time the slot began.
    public var start: Double
    /// Seconds into the slot.
    public var offset: Double
    /// The slot's length.
    public var length: Double
}

/// The timeline: item lengths in playlist order, the epoch, and the shuffle.
public struct WallTimeline: Sendable, Equatable {
    /// Wall seconds (Unix time) at which pass 0 begins.
    public let epoch: Double
    /// Seconds each item's slot lasts, in playlist order.
    public let lengths: [Double]
    /// Whether each pass has its own order, drawn from `seed` and the pass number.
    public let shuffle: Bool
    /// The shuffle's seed.
    public let seed: UInt64
    /// Seconds one pass lasts.
    public let passLength: Double

    /// The shortest slot: `--duration`'s own lower bound (an `#EXTINF` may say less).
    public static let shortestLength = 0.05
    /// The longest pass: about 31 years, so a pass number stays a small integer for any epoch.
    public static let longestPass = 1e9

    /// A timeline; throws when there is no item, a length is under `shortestLength` or not finite, or the pass
    /// would last longer than `longestPass`.
    public init(epoch: Double, lengths: [Double], shuffle: Bool, seed: UInt64) throws(WallTimelineError) {
        guard !lengths.isEmpty else { throw .noItems }
        if let bad = lengths.firstIndex(where: { !($0.isFinite && $0 >= Self.shortestLength) }) {
            throw .badLength(index: bad, length: lengths[bad])
        }
        var total = 0.0
        for (i, length) in lengths.enumerated() {
            total += length
            if total > Self.longestPass { throw .badLength(index: i, length: length) }
        }
        self.epoch = epoch
        self.lengths = lengths
        self.shuffle = shuffle
        self.seed = seed
        passLength = lengths.reduce(0, +)
    }

    /// The playlist indices in the order pass `pass` plays them. Without shuffle, the playlist's order. With it, a
    /// Fisher–Yates shuffle driven by SplitMix64 seeded from `seed` and `pass` (written out here, not the
    /// standard library's `shuffle`, so the order can never change with the Swift version); when it would start
    /// with the item the previous pass ended on, its first item swaps with one that is neither first nor last, so
    /// the last item (and with it the rule) depends on the pass alone.
    public func order(ofPass pass: Int) -> [Int] {
        let n = lengths.count
        guard shuffle, n > 1 else { return Array(0..<n) }
        var o = rawOrder(ofPass: pass)
        guard n > 2 else { return rawOrder(ofPass: 0) }  // two items: the only order with no repeat at a seam
        if o[0] == rawOrder(ofPass: pass &- 1)[n - 1] {
            var g = SeededGenerator(seed: Self.mix(seed, pass) ^ 0xA5A5_A5A5_A5A5_A5A5)
            let j = 1 + Int(g.next() % UInt64(n - 2))
            o.swapAt(0, j)
        }
        return o
    }

    /// Pass `pass`'s drawn order, before the seam rule.
    private func rawOrder(ofPass pass: Int) -> [Int] {
        var o = Array(0..<lengths.count)
        var g = SeededGenerator(seed: Self.mix(seed, pass))
        var i = o.count - 1
        while i > 0 {
            let j = Int(g.next() % UInt64(i + 1))
            o.swapAt(i, j)
            i -= 1
        }
        return o
    }

    /// One 64-bit seed from the user's seed and a pass number.
    static func mix(_ seed: UInt64, _ pass: Int) -> UInt64 {
        var g = SeededGenerator(seed: seed ^ (UInt64(bitPattern: Int64(pass)) &* 0x9E37_79B9_7F4A_7C15))
        return g.next()
    }

    /// What shows at wall time `wall`.
    public func position(at wall: Double) -> TimelinePosition {
        let since = wall - epoch
        var pass = Int(saturating: since / passLength, rounding: .down)
        var start = epoch + Double(pass) * passLength
        // Rounding at a pass edge: keep `start <= wall < start + passLength`.
        if wall < start { pass -= 1; start -= passLength }
        if wall >= start + passLength { pass += 1; start += passLength }
        let order = order(ofPass: pass)
        var place = 0
        while place < order.count - 1, wall >= start + lengths[order[place]] {
            start += lengths[order[place]]
            place += 1
        }
        let item = order[place]
        return TimelinePosition(slot: pass * order.count + place, pass: pass, place: place, item: item, start: start,
                                offset: max(0, wall - start), length: lengths[item])
    }

    /// Slot number `slot`: its item and when it begins.
    public func slot(_ slot: Int) -> TimelinePosition {
        let n = lengths.count
        let pass = Int(saturating: Double(slot) / Double(n), rounding: .down)
        let place = slot - pass * n
        let order = order(ofPass: pass)
        var start = epoch + Double(pass) * passLength
        for p in 0..<place { start += lengths[order[p]] }
        let item = order[place]
        return TimelinePosition(slot: slot, pass: pass, place: place, item: item, start: start, offset: 0,
                                length: lengths[item])
    }
}
