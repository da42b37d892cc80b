import Foundation
import KioskCore

/// How far a report URL has taken the play log: every showing with an id up to `through` was acknowledged (a 2xx
/// reply) or is not in the log, and so were the ids in `acknowledged` above it. Those ranges are the showings sent
/// while an older one was still on screen (a layout's logo region can stay open for hours while the main region's
/// showings close and go): that one is sent when it closes, and nothing after it waits for it.
///
/// `mark` is the last showing acknowledged, with its start: a log with another showing under that id, or with
/// fewer ids than it, is another log (moved aside as damaged, deleted, replaced), and is sent from its beginning.
///
/// Kept in a small JSON file written whole (temp, fsync, rename), only after the server's 2xx: a kill or a power
/// cut at any moment leaves the old cursor or the new one, so an outage or a restart loses nothing. A batch the
/// server took just before a kill, whose cursor was not yet saved, is sent again: delivery is at least once, and
/// each showing carries its play-log id, by which a server drops what it already has.
struct ReportCursor: Equatable {
    /// Every id up to this one is done.
    var through: Int64 = 0
    /// Ranges of ids above `through` that are done, sorted, apart.
    var acknowledged: [ClosedRange<Int64>] = []
    /// The last showing acknowledged: its id and start.
    var mark: Mark?

    /// A showing named by id and start.
    struct Mark: Equatable {
        /// The play log's id.
        var id: Int64
        /// Its start, as the log keeps it.
        var start: String
    }

    /// A cursor at the beginning of a log.
    init() {}

    /// Whether `window` (read with `mark.id` as its mark) is of another log than the one this cursor describes.
    func describesAnotherLog(_ window: ShowingWindow) -> Bool {
        guard let mark else { return through > 0 && (window.lastID ?? 0) < through }
        if let start = window.markStart { return start != mark.start }
        return (window.lastID ?? 0) < mark.id
    }

    /// The cursor once the server acknowledged `records`, the first `limit` or fewer closed showings of `window`.
    mutating func acknowledge(_ records: [ShowingRecord], of window: ShowingWindow, limit: Int) {
        guard let last = records.last else { return }
        var ranges = acknowledged
        for record in records { ranges.append(record.id...record.id) }
        // every id up to `upper` is now acknowledged, still on screen, or not in the log: a full batch ends at its last
        // id; a shorter one held every closed showing not yet acknowledged up to the log's highest id
        var upper = records.count >= limit ? last.id : max(window.lastID ?? last.id, last.id)
        if let open = window.firstOpen, open <= upper { upper = open - 1 }
        through = max(through, upper)
        acknowledged = Self.merged(ranges, above: &through)
        if mark.map({ $0.id < last.id }) ?? true { mark = Mark(id: last.id, start: last.start) }
    }

    /// `ranges` sorted and joined, `through` raised over those that touch it, and what is at or under it dropped.
    static func merged(_ ranges: [ClosedRange<Int64>], above through: inout Int64) -> [ClosedRange<Int64>] {
        var out: [ClosedRange<Int64>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let previous = out.last, range.lowerBound <= previous.upperBound &+ 1 {
                out[out.count - 1] = previous.lowerBound...max(previous.upperBound, range.upperBound)
            } else {
                out.append(range)
            }
        }
        var kept: [ClosedRange<Int64>] = []
        for range in out {
            if range.lowerBound <= through &+ 1 {
                through = max(through, range.upperBound)
            } else {
                kept.append(range)
            }
        }
        return kept.filter { $0.upperBound > through }
    }

    // MARK: - the file

    /// The file's JSON: `{"url", "through", "acknowledged": [[first, last], …], "mark": {"id", "start"}}`.
    func json(url: String) -> JSONValue {
        .object([
            ("url", .string(url)), ("through", .int(through)),
            ("acknowledged", .array(acknowledged.map { .array([.int($0.lowerBound), .int($0.upperBound)]) })),
            ("mark", mark.map { .object([("id", .int($0.id)), ("start", .string($0.start))]) } ?? .null),
        ])
    }

    /// The cursor a file's JSON holds; nil when it is not one.
    init?(json: JSONValue) {
        guard let through = json["through"]?.integer, through >= 0, case .array(let list)? = json["acknowledged"] else { return nil }
        var ranges: [ClosedRange<Int64>] = []
        for item in list {
            guard case .array(let pair) = item, pair.count == 2, let a = pair[0].integer, let b = pair[1].integer, a <= b else { return nil }
            ranges.append(a...b)
        }
        self.through = through
        if let mark = json["mark"], let id = mark["id"]?.integer, let start = mark["start"]?.string { self.mark = Mark(id: id, start: start) }
        acknowledged = Self.merged(ranges, above: &self.through)
    }

    /// The cursor kept at `path`: a new one when there is no file; nil, with why, when it cannot be read.
    static func load(_ path: String) -> (cursor: ReportCursor?, problem: String?) {
        do throws(CacheError) {
            guard let data = try AtomicFile.read(path, limit: 1 << 20) else { return (ReportCursor(), nil) }
            guard let json = try? JSONValue.parse(Array(data)), let cursor = ReportCursor(json: json) else {
                return (nil, "\(path): not a report cursor")
            }
            return (cursor, nil)
        } catch {
            return (nil, error.description)
        }
    }

    /// Writes the cursor to `path` (its folder made when missing), whole or not at all.
    func save(_ path: String, url: String) throws(CacheError) {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw CacheError("mkdir \(folder): \(error.localizedDescription)")
            }
        }
        try AtomicFile.write(Data((json(url: url).text + "\n").utf8), to: path)
    }
}
