/// Handing out the CRTCs of one card to the connectors shown at once. Pure: works on candidate lists.
///
/// Each connector can be driven by some CRTCs (its encoders' `possible_crtcs`, the one in use first); two
/// connectors never share one. Taking each connector's first free candidate can fail where an assignment exists
/// (A could use 1 or 2, B only 1: A must leave 1 to B), so this finds a matching by augmenting paths, keeping
/// each connector's earlier candidates where it can.
public enum CRTCAllocation {
    /// One CRTC for each connector, in the order of `candidates` (each connector's CRTC ids, preferred first),
    /// no two the same; nil when no such assignment exists.
    public static func assign(_ candidates: [[UInt32]]) -> [UInt32]? {
        var owner: [UInt32: Int] = [:]
        for connector in candidates.indices {
            var visited: Set<UInt32> = []
            guard claim(connector, candidates, &owner, &visited) else { return nil }
        }
        var result = [UInt32](repeating: 0, count: candidates.count)
        for (crtc, connector) in owner { result[connector] = crtc }
        return result
    }

    /// Gives `connector` its first free candidate, else one an earlier connector gives up by moving to another
    /// of its own candidates (recursively).
    private static func claim(_ connector: Int, _ candidates: [[UInt32]], _ owner: inout [UInt32: Int],
                              _ visited: inout Set<UInt32>) -> Bool {
        if let free = candidates[connector].first(where: { owner[$0] == nil }) {  // nobody has to move
            owner[free] = connector
            return true
        }
        for crtc in candidates[connector] where !visited.contains(crtc) {
            visited.insert(crtc)
            if let holder = owner[crtc], claim(holder, candidates, &owner, &visited) {
                owner[crtc] = connector
                return true
            }
        }
        return false
    }
}
