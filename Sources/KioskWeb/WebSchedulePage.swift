import Foundation
import KioskCore

/// The schedule page: the file in a text area, check-config's problems (`FILE:LINE: reason`) when a change has
/// any (then nothing is saved), and the next 7 days as a timeline (SVG, one row a day, a colour per target).
enum WebSchedulePage {
    static func body(_ schedule: WebSchedule?) -> String {
        guard let schedule else {
            return "<h1>Schedule</h1><p>kiosk runs without a schedule. Start it with <code>--schedule FILE</code> to edit one here.</p>"
        }
        let text = (try? String(contentsOfFile: schedule.path, encoding: .utf8)) ?? ""
        var timeline = ""
        if case .success(let spans) = schedule.check(text) { timeline = svg(spans) }
        return """
            <h1>Schedule</h1>
            <p><code>\(WebPages.escape(schedule.path))</code>: lines <code>DAYS HH:MM-HH:MM TARGET [DATES]</code>, <code>off</code>,
            <code>fallback TARGET</code>.</p>
            <textarea id="schedule-text" rows="12" spellcheck="false" aria-label="The schedule">\(WebPages.escape(text))</textarea>
            <p><button id="schedule-save">Check and save</button></p>
            <ul id="problems" class="error"></ul><p id="message" role="status"></p>
            <h2>The next 7 days</h2><div id="timeline">\(timeline)</div>
            """
    }

    static func json(_ schedule: WebSchedule, text: String) -> JSONValue {
        var fields: [(String, JSONValue)] = [("path", .string(schedule.path)), ("text", .string(text))]
        switch schedule.check(text) {
        case .success(let spans): fields += [("problems", .array([])), ("timeline", .string(svg(spans)))]
        case .failure(let p): fields.append(("problems", .array(p.lines.map { .string($0) })))
        }
        return .object(fields)
    }

    /// Saves `text` when check-config finds nothing wrong with it (through a temporary file and a rename), and
    /// the player takes it up; else 422 with the problems.
    static func save(_ schedule: WebSchedule, text: String, log: Log, client: String) -> WebResponse {
        // a NUL is no text: the file would be cut there by whatever reads it as a C string, so it is never saved
        if let nul = text.utf8.firstIndex(of: 0) {
            let line = text.utf8[..<nul].count(where: { $0 == 10 }) + 1
            return .error(400, "the schedule holds a NUL byte on line \(line): a schedule is text; nothing was saved")
        }
        switch schedule.check(text) {
        case .failure(let p):
            return .json(422, JSONValue.object([("problems", .array(p.lines.map { .string($0) }))]).text)
        case .success(let spans):
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: schedule.path), options: .atomic)
            } catch {
                return .error(500, "cannot write \(schedule.path): \(error.localizedDescription)")
            }
            log.info("http: \(client) saved the schedule \(schedule.path)")
            schedule.reload()
            return .json(200, JSONValue.object([("problems", .array([])), ("timeline", .string(svg(spans)))]).text)
        }
    }

    /// Seven rows, one per local day, 00:00 to 24:00, each stretch a bar of its target's colour with its name.
    static func svg(_ spans: [WebScheduleSpan], zone: TimeZone = .current) -> String {
        guard let first = spans.first else { return "<p>Nothing scheduled.</p>" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let day0 = calendar.startOfDay(for: first.start)
        let left = 110, width = 720, row = 30
        var out = "<svg id=\"schedule-timeline\" class=\"chart\" role=\"img\" viewBox=\"0 0 \(left + width + 10) \(7 * row + 24)\" width=\"100%\" "
            + "xmlns=\"http://www.w3.org/2000/svg\">"
        for h in stride(from: 0, through: 24, by: 6) {
            out += "<text x=\"\(left + width * h / 24)\" y=\"\(7 * row + 18)\" font-size=\"11\" text-anchor=\"middle\">\(String(format: "%02d:00", h))</text>"
        }
        let palette = ["#2b6cb0", "#2f855a", "#b7791f", "#6b46c1", "#c05621", "#2c7a7b", "#b83280"]
        var colours: [String: String] = [:]
        for d in 0..<7 {
            guard let dayStart = calendar.date(byAdding: .day, value: d, to: day0),
                  let dayEnd = calendar.date(byAdding: .day, value: d + 1, to: day0) else { continue }
            let y = d * row
            let name = DateFormatter.localizedString(from: dayStart, dateStyle: .short, timeStyle: .none)
            let weekday = calendar.shortWeekdaySymbols[calendar.component(.weekday, from: dayStart) - 1]
            out += "<text x=\"\(left - 6)\" y=\"\(y + 19)\" font-size=\"12\" text-anchor=\"end\">\(weekday) \(WebPages.escape(name))</text>"
            let length = dayEnd.timeIntervalSince(dayStart)
            for s in spans where s.end > dayStart && s.start < dayEnd {
                let a = max(s.start, dayStart).timeIntervalSince(dayStart), b = min(s.end, dayEnd).timeIntervalSince(dayStart)
                let x = left + Int(saturating: Double(width) * a / length, rounding: .towardZero), w = max(1, Int(saturating: Double(width) * (b - a) / length, rounding: .towardZero))
                let colour = s.off ? "#a0aec0" : colours[s.label] ?? palette[colours.count % palette.count]
                colours[s.label] = colour
                out += "<rect x=\"\(x)\" y=\"\(y + 4)\" width=\"\(w)\" height=\"\(row - 8)\" fill=\"\(colour)\"><title>\(WebPages.escape(s.label))</title></rect>"
                if w > 60 {
                    let label = (s.label as NSString).lastPathComponent
                    out += "<text x=\"\(x + 4)\" y=\"\(y + 19)\" font-size=\"11\" fill=\"#fff\">\(WebPages.escape(String(label.prefix(w / 7))))</text>"
                }
            }
        }
        return out + "</svg>"
    }
}
