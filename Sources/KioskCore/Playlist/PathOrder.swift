import Foundation

/// The order folders play in: Foundation's `localizedStandardCompare` (ICU's root collation: case-insensitive,
/// numbers by value, punctuation before digits before letters; case and leading zeros only break ties), the order
/// a file manager shows. ICU costs several microseconds a comparison (sorting 100,000 names took 10 s), so
/// names of printable ASCII are compared here by ICU's primary weights, and ICU itself is asked only for other
/// names and for ties (names that differ only in case or leading zeros). The answer is ICU's either way.
public enum PathOrder {
    /// Whether `a` sorts before `b`.
    public static func precedes(_ a: String, _ b: String) -> Bool { compare(a, b) == .orderedAscending }

    /// `a.localizedStandardCompare(b)`.
    public static func compare(_ a: String, _ b: String) -> ComparisonResult {
        let fast = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in primary(x, y) } ?? nil
        } ?? nil
        return fast ?? a.localizedStandardCompare(b)
    }

    /// `items` sorted by the path each has, stably. Each path's weights are worked out once, into one buffer,
    /// leaving out the folder all of them share (identical bytes up to a `/` weigh the same in every comparison).
    public static func sorted<T>(_ items: [T], by path: (T) -> String) -> [T] {
        var shared = items.first.map { Array(path($0).utf8) } ?? []
        var total = 0
        for item in items {
            let p = path(item).utf8
            total += p.count
            shared.removeLast(shared.count - zip(shared, p).prefix { $0 == $1 }.count)
        }
        let skip = (shared.lastIndex(of: UInt8(ascii: "/")) ?? -1) + 1
        var weights: [UInt8] = []
        weights.reserveCapacity(total - skip * items.count + 4 * items.count)
        var spans: [(start: Int, count: Int)] = []  // count -1: not printable ASCII, left to ICU
        spans.reserveCapacity(items.count)
        for item in items {
            let start = weights.count
            if appendKey(path(item), dropping: skip, to: &weights) {
                spans.append((start, weights.count - start))
            } else {
                weights.removeSubrange(start...)
                spans.append((start, -1))
            }
        }
        let order = weights.withUnsafeBufferPointer { w in
            items.indices.sorted { l, r in
                let a = spans[l], b = spans[r]
                let byKey = a.count < 0 || b.count < 0 ? nil
                    : compareBytes(UnsafeBufferPointer(rebasing: w[a.start..<(a.start + a.count)]),
                                   UnsafeBufferPointer(rebasing: w[b.start..<(b.start + b.count)]))
                let result = byKey ?? path(items[l]).localizedStandardCompare(path(items[r]))
                return result == .orderedSame ? l < r : result == .orderedAscending
            }
        }
        return order.map { items[$0] }
    }

    /// Byte order of two keys; nil when equal.
    private static func compareBytes(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> ComparisonResult? {
        for k in 0..<min(x.count, y.count) where x[k] != y[k] {
            return x[k] < y[k] ? .orderedAscending : .orderedDescending
        }
        return x.count == y.count ? nil : x.count < y.count ? .orderedAscending : .orderedDescending
    }

    /// `paths` sorted.
    public static func sorted(_ paths: [String]) -> [String] { sorted(paths) { $0 } }

    /// ICU's primary weight of each printable ASCII byte (0: not printable ASCII). Space and punctuation come first,
    /// in ICU's order; a digit starts a number (`numberMark`); letters follow, case folded.
    private static let weights: [UInt8] = {
        var w = [UInt8](repeating: 0, count: 128)
        for (rank, c) in " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$".utf8.enumerated() { w[Int(c)] = UInt8(rank + 1) }
        for c in UInt8(ascii: "0")...UInt8(ascii: "9") { w[Int(c)] = numberMark }
        for c in UInt8(ascii: "a")...UInt8(ascii: "z") {
            w[Int(c)] = 100 + c - UInt8(ascii: "a")
            w[Int(c - 32)] = 100 + c - UInt8(ascii: "a")
        }
        return w
    }()
    private static let numberMark: UInt8 = 50
    /// Digit runs longer than this are left to ICU (it splits very long numbers its own way).
    private static let longestNumber = 200

    /// The primary order of two printable-ASCII names; nil when either is not, or when they tie.
    static func primary(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> ComparisonResult? {
        guard isSimple(a), isSimple(b) else { return nil }
        var i = 0, j = 0
        while i < a.count && j < b.count {
            let wa = weights[Int(a[i])], wb = weights[Int(b[j])]
            if wa == numberMark && wb == numberMark {
                let x = number(a, from: i), y = number(b, from: j)
                guard x.digits.count <= longestNumber, y.digits.count <= longestNumber else { return nil }
                if x.digits.count != y.digits.count { return x.digits.count < y.digits.count ? .orderedAscending : .orderedDescending }
                for (p, q) in zip(x.digits, y.digits) where p != q { return p < q ? .orderedAscending : .orderedDescending }
                i = x.end
                j = y.end
                continue
            }
            if wa != wb { return wa < wb ? .orderedAscending : .orderedDescending }
            i += 1
            j += 1
        }
        if i == a.count && j == b.count { return nil }
        return i == a.count ? .orderedAscending : .orderedDescending
    }

    /// Appends the weights of a printable-ASCII name to `out`; they compare as bytes in ICU's primary order (a
    /// number is its mark, its count of significant digits, then the digits). False for other names (`out` may
    /// then hold a part of them).
    static func appendKey(_ s: String, dropping skip: Int = 0, to out: inout [UInt8]) -> Bool {
        s.utf8.withContiguousStorageIfAvailable { whole -> Bool in
            let u = UnsafeBufferPointer(rebasing: whole[min(skip, whole.count)...])
            guard isSimple(u) else { return false }
            var i = 0
            while i < u.count {
                let w = weights[Int(u[i])]
                guard w == numberMark else {
                    out.append(w)
                    i += 1
                    continue
                }
                let n = number(u, from: i)
                guard n.digits.count <= longestNumber else { return false }
                out.append(numberMark)
                out.append(UInt8(n.digits.count))
                out.append(contentsOf: n.digits)
                i = n.end
            }
            return true
        } ?? false
    }

    /// The digit run starting at `start`: its significant digits (leading zeros dropped) and where it ends.
    private static func number(_ u: UnsafeBufferPointer<UInt8>, from start: Int) -> (digits: Slice<UnsafeBufferPointer<UInt8>>, end: Int) {
        var end = start
        while end < u.count, weights[Int(u[end])] == numberMark { end += 1 }
        var first = start
        while first < end, u[first] == UInt8(ascii: "0") { first += 1 }
        return (u[first..<end], end)
    }

    private static func isSimple(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
        u.allSatisfy { $0 < 128 && weights[Int($0)] != 0 }
    }
}
