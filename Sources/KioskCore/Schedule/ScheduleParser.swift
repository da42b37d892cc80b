import Foundation

/// Reads schedule text line by line into rules and a fallback, collecting every problem as `FILE:LINE: reason`.
/// A line is `days time target [dates]` or `fallback target`; blank lines and `#` comments are skipped, and a `#`
/// that starts a field starts a comment. Paths with spaces are quoted with `"..."`; relative paths are taken
/// against `base`, the schedule file's folder. The file system is never touched.
enum ScheduleParser {
    /// One field of a line, and whether it was quoted (a quoted `"off"` is a path, not the keyword).
    struct Field: Equatable {
        var text: String
        var quoted: Bool
    }

    /// The schedule `text` says, or every problem in it.
    static func parse(text: String, file: String, base: String) throws(ScheduleError) -> Schedule {
        var rules: [ScheduleRule] = []
        var fallback: (path: String, line: Int)?
        var problems: [ScheduleError.Problem] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline }).enumerated() {
            let line = index + 1
            func problem(_ reason: String) { problems.append(.init(file: file, line: line, reason: reason)) }
            let fields: [Field]
            switch Self.fields(index == 0 && raw.hasPrefix("\u{FEFF}") ? raw.dropFirst() : raw) {
            case .success(let f): fields = f
            case .failure(let e): problem(e.description); continue
            }
            guard let first = fields.first else { continue }
            if !first.quoted && first.text.lowercased() == "fallback" {
                switch fallbackTarget(fields.dropFirst(), base: base) {
                case .failure(let e): problem(e.description)
                case .success(let path):
                    if let earlier = fallback { problem("second fallback line (the first is line \(earlier.line))") }
                    else { fallback = (path, line) }
                }
                continue
            }
            let (read, errors) = rule(fields, line: line, base: base)
            if let read { rules.append(read) }
            errors.forEach { problem($0.description) }
        }
        guard problems.isEmpty else { throw ScheduleError(problems: problems) }
        return Schedule(rules: rules, fallback: fallback?.path, fallbackLine: fallback?.line)
    }

    /// A rule line's fields read into a rule, or every problem with them.
    static func rule(_ fields: [Field], line: Int, base: String) -> (rule: ScheduleRule?, errors: [FieldError]) {
        let days = fields[0].text
        guard fields.count >= 2, fields[1].text.first?.isNumber == true else {
            // No time in the second field: a misspelt keyword (`fallbak`), or a rule without its time.
            let word = !fields[0].quoted && days.allSatisfy { $0.isLetter } && WeekdaySet.names[days.lowercased()] == nil
            if word { return (nil, [FieldError("unknown keyword '\(ErrorQuote.cut(days))' (a line is 'days time target [dates]' or 'fallback target')")]) }
            return (nil, [FieldError(fields.count < 2 ? "missing time and target (a rule is 'days time target [dates]')"
                                                         : "bad time '\(ErrorQuote.cut(fields[1].text))' (expected HH:MM-HH:MM)")])
        }
        var errors: [FieldError] = []
        func value<T>(_ r: Result<T, FieldError>) -> T? {
            switch r {
            case .success(let v): return v
            case .failure(let e): errors.append(e); return nil
            }
        }
        let weekdays = value(WeekdaySet.parse(days))
        let time = value(DailyWindow.parse(fields[1].text))
        var target: ScheduleTarget?
        var dates: DateSpan? = .always
        if fields.count < 3 {
            errors.append(FieldError("missing target (a rule is 'days time target [dates]')"))
        } else if fields.count == 3, !fields[2].quoted, fields[2].text.first?.isNumber == true, fields[2].text.contains("..") {
            errors.append(FieldError("missing target before the dates '\(ErrorQuote.cut(fields[2].text))'"))
        } else {
            target = value(Self.target(fields[2], base: base))
        }
        // A fourth field is the dates; anything else there is most likely the rest of a path with spaces.
        let extra = fields.count >= 4 && (fields[3].quoted || fields[3].text.first?.isNumber != true) ? 3 : 4
        if fields.count >= 4 && extra == 4 { dates = value(DateSpan.parse(fields[3].text)) }
        if fields.count > extra {
            errors.append(FieldError("too many fields from '\(ErrorQuote.cut(fields[extra].text))' on (quote a path with spaces: \"...\")"))
        }
        guard errors.isEmpty, let weekdays, let time, let target, let dates else { return (nil, errors) }
        return (ScheduleRule(line: line, window: RecurringWindow(days: weekdays, time: time, dates: dates), target: target), [])
    }

    /// The fields after `fallback`: exactly one target, not `off`.
    static func fallbackTarget(_ fields: ArraySlice<Field>, base: String) -> Result<String, FieldError> {
        guard let field = fields.first else { return .failure(FieldError("missing target after fallback")) }
        guard fields.count == 1 else {
            return .failure(FieldError("too many fields from '\(ErrorQuote.cut(fields[fields.startIndex + 1].text))' on (fallback takes one target; quote a path with spaces: \"...\")"))
        }
        switch target(field, base: base) {
        case .success(.path(let p)): return .success(p)
        case .success(.off): return .failure(FieldError("fallback cannot be off (start the file with '* 00:00-24:00 off' instead)"))
        case .failure(let e): return .failure(e)
        }
    }

    /// A target field: `off` unquoted, else a path taken against `base` when relative.
    static func target(_ field: Field, base: String) -> Result<ScheduleTarget, FieldError> {
        if !field.quoted && field.text.lowercased() == "off" { return .success(.off) }
        guard !field.text.isEmpty else { return .failure(FieldError("empty target \"\"")) }
        if field.text.hasPrefix("/") || base.isEmpty { return .success(.path(field.text)) }
        return .success(.path((base as NSString).appendingPathComponent(field.text)))
    }

    /// The fields of one line: whitespace-separated, `"..."` quoted (no escapes), up to a `#` that starts a field.
    static func fields(_ line: Substring) -> Result<[Field], FieldError> {
        var fields: [Field] = []
        var i = line.startIndex
        while i < line.endIndex {
            let c = line[i]
            if c == " " || c == "\t" { i = line.index(after: i); continue }
            if c == "#" { break }
            if c == "\"" {
                let open = line.index(after: i)
                guard let close = line[open...].firstIndex(of: "\"") else { return .failure(FieldError("unterminated quote")) }
                let after = line.index(after: close)
                guard after == line.endIndex || line[after] == " " || line[after] == "\t" else {
                    return .failure(FieldError("text right after a closing quote: '\(ErrorQuote.cut(line[i...]))'"))
                }
                fields.append(Field(text: String(line[open..<close]), quoted: true))
                i = after
                continue
            }
            let end = line[i...].firstIndex { $0 == " " || $0 == "\t" } ?? line.endIndex
            fields.append(Field(text: String(line[i..<end]), quoted: false))
            i = end
        }
        return .success(fields)
    }
}
