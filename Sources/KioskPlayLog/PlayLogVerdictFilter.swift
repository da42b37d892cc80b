import Foundation

extension PlayLogReport {
    /// Which showings a report counts, by their verdict (`ShowingVerdict`); a row from before proof of display (no
    /// verdict) is `seen`.
    public enum VerdictFilter: Sendable, Equatable {
        /// Every showing, whatever its verdict.
        case all
        /// Only those of one verdict (`seen` by default: what was shown on a screen that was on).
        case only(ShowingVerdict)

        /// Only the showings that were seen: the default.
        public static let seen = VerdictFilter.only(.seen)

        /// `all`, or a verdict's name (`seen`, `screen-off`, `display-absent`, `tv-standby`, `unknown`); nil for
        /// anything else.
        public init?(name: String) {
            if name == "all" {
                self = .all
            } else if let v = ShowingVerdict(rawValue: name) {
                self = .only(v)
            } else {
                return nil
            }
        }

        /// The names `init(name:)` takes.
        public static let names = ["seen", "all"] + ShowingVerdict.allCases.map(\.rawValue).filter { $0 != "seen" }

        /// Whether a showing of `verdict` is counted.
        public func admits(_ verdict: ShowingVerdict) -> Bool {
            switch self {
            case .all: true
            case .only(let v): v == verdict
            }
        }

        /// The SQL condition (after the others; `?3` its verdict).
        var condition: String {
            switch self {
            case .all: ""
            case .only: " AND COALESCE(verdict, 'seen') = ?3"
            }
        }

        /// The value of `?3`, if the condition has one.
        var values: [SQLiteDatabase.Value] {
            switch self {
            case .all: []
            case .only(let v): [.text(v.rawValue)]
            }
        }
    }

    /// The showings a report left out by its verdict, between the same times: per verdict (worst first), how many
    /// and their seconds on screen; empty when every one was counted, or the log has no verdicts.
    public static func leftOut(path: String, since: Date?, until: Date?, verdicts: VerdictFilter) throws(SQLiteError) -> [Row] {
        guard verdicts != .all else { return [] }
        return try rows(path: path, since: since, until: until, by: .verdict, verdicts: .all)
            .filter { r in !(ShowingVerdict(rawValue: r.group).map(verdicts.admits) ?? false) }
            .sorted { (ShowingVerdict(rawValue: $0.group) ?? .unknown) < (ShowingVerdict(rawValue: $1.group) ?? .unknown) }
    }

    /// The table's lines under the total for the showings left out (`leftOut`): `not counted: screen-off 3
    /// (12.000 s), tv-standby 1 (5.000 s)`; empty without any.
    public static func leftOutLine(_ rows: [Row]) -> String {
        guard !rows.isEmpty else { return "" }
        return "not counted (not seen): " + rows.map { "\($0.group) \($0.count) (\(String(format: "%.3f", $0.seconds)) s)" }
            .joined(separator: ", ") + "\n"
    }
}
