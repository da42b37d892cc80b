import Foundation
import KioskCore

/// The JSON API under `/api/`, behind every page action (docs/web-page.md).
extension WebApp {
    func api(_ r: WebRequest) -> WebResponse {
        let reading = r.method == "GET" || r.method == "HEAD"
        if reading {
            if r.path == "/api/session" { return session(r) }
            if case .anonymous = caller(r), security.passwordHash != nil || security.token != nil {
                return .error(401, "log in first (or send Authorization: Bearer TOKEN)")
            }
        } else if let refused = guardChange(r) {
            return refused
        }
        let screen: WebScreenParts
        switch self.screen(r) {
        case .success(let parts): screen = parts
        case .failure(let refused): return refused
        }
        switch (r.method, r.path) {
        case ("GET", "/api/screens"):
            let names = (backend.firstScreen.map { [$0] } ?? ["main"]) + backend.screens.map(\.name)
            return .json(200, JSONValue.object([("screens", .array(names.map { .string($0) }))]).text)
        case ("GET", "/api/status"):
            return .json(200, WebStatusJSON.status(screen.status()).text)
        case ("GET", "/api/media"):
            guard let media else { return .error(404, "there is no media folder (--media-root DIR)") }
            return .json(200, media.list().text)
        case ("GET", "/api/screenshot.jpg"):
            do throws(WebRefusal) {
                return WebResponse(type: "image/jpeg", body: try screen.screenshot())
            } catch {
                return .error(503, error.description)
            }
        case ("GET", "/api/report"):
            return report(r)
        case ("GET", "/api/log"):
            return .json(200, JSONValue.array(backend.recentLog().map { .string($0) }).text)
        case ("POST", "/api/upload"):
            guard let media else { return .error(404, "uploads need --media-root DIR") }
            let response = media.claim(r.files)
            log.info("http: \(r.client) uploaded \(r.files.map(\.name).joined(separator: ", ")): HTTP \(response.status)")
            return response
        case ("DELETE", let path) where path.hasPrefix("/api/media/"):
            guard let media else { return .error(404, "there is no media folder") }
            return media.delete(String(path.dropFirst("/api/media/".count)))
        case ("POST", "/api/caption"):
            guard let media else { return .error(404, "there is no media folder") }
            guard let json = try? JSONValue.parse(r.body), let name = json["name"]?.string, let text = json["caption"]?.string else {
                return .error(400, "send JSON {\"name\": FILE, \"caption\": TEXT}")
            }
            return media.setCaption(name, text)
        case ("POST", "/api/playlist"):
            guard let media else { return .error(404, "there is no media folder") }
            guard let json = try? JSONValue.parse(r.body), let name = json["name"]?.string, case .array(let items)? = json["items"],
                  items.count <= 10_000 else {
                return .error(400, "send JSON {\"name\": \"NAME.m3u\", \"items\": [FILE, …]}")
            }
            return media.setPlaylist(name, items.compactMap(\.string))
        case ("GET", "/api/schedule"):
            guard let schedule = backend.schedule else { return .error(404, "kiosk runs without --schedule FILE") }
            let text = (try? String(contentsOfFile: schedule.path, encoding: .utf8)) ?? ""
            return .json(200, WebSchedulePage.json(schedule, text: text).text)
        case ("POST", "/api/schedule"):
            guard let schedule = backend.schedule else { return .error(404, "kiosk runs without --schedule FILE") }
            guard let json = try? JSONValue.parse(r.body), let text = json["text"]?.string, text.utf8.count <= 1_048_576 else {
                return .error(400, "send JSON {\"text\": THE SCHEDULE}")
            }
            return WebSchedulePage.save(schedule, text: text, log: log, client: r.client)
        case ("POST", "/api/restart"):
            guard let restart = backend.restart else { return .error(404, "no restart here") }
            log.warn("http: \(r.client) asked for a restart")
            restart()
            return .json(202, JSONValue.object([("restarting", .bool(true))]).text)
        case ("POST", "/api/command"):
            guard (r.headers["content-type"] ?? "").lowercased().hasPrefix("application/json") else {
                return .error(415, "send the command as application/json")
            }
            guard let json = try? JSONValue.parse(r.body), case .array(let words) = json, !words.isEmpty, words.count <= 16 else {
                return .error(400, "send a JSON array: the IPC command and its arguments ([\"playlist-next\"])")
            }
            let reply = screen.command(json)
            return .json(reply["error"] == .string("success") ? 200 : 400, reply.text)
        default:
            return .error(404, "no API at \(r.method) \(r.path)")
        }
    }

    /// The screen `?screen=NAME` names (none, or the first screen's name: the first screen), or the 404 saying
    /// which screens there are.
    private func screen(_ r: WebRequest) -> ScreenChoice {
        let first = WebScreenParts(name: backend.firstScreen ?? "main", status: backend.status, command: backend.command,
                                   screenshot: backend.screenshot)
        guard let name = r.query["screen"], name != first.name else { return .success(first) }
        if let other = backend.screens.first(where: { $0.name == name }) { return .success(other) }
        let names = ([first.name] + backend.screens.map(\.name)).joined(separator: ", ")
        return .failure(.error(404, "no screen '\(ErrorQuote.cut(name))' (screens: \(names))"))
    }

    /// A screen's parts, or the answer refusing the name.
    private enum ScreenChoice {
        case success(WebScreenParts)
        case failure(WebResponse)
    }

    /// `GET /api/session`: the CSRF token of the caller's session (a new session on loopback without a password).
    private func session(_ r: WebRequest) -> WebResponse {
        switch caller(r) {
        case .session(_, let csrf):
            return .json(200, JSONValue.object([("csrf", .string(csrf))]).text)
        case .bearer:
            return .json(200, JSONValue.object([("csrf", .null)]).text)
        case .anonymous:
            guard security.passwordHash == nil else { return .error(401, "log in first: POST /login with the field password") }
            let s = sessions.create(now: clock())
            var response = WebResponse.json(200, JSONValue.object([("csrf", .string(s.csrf))]).text)
            response.headers.append(("Set-Cookie", cookie(s.token, secure: r.secure)))
            return response
        }
    }

    /// `GET /api/report?since=&until=&by=&format=`: the play log's report (JSON unless `format` says otherwise;
    /// CSV as a download). `since` and `until` are read by `ReportTime`, as `kiosk report` reads its own: local
    /// dates or times in the player's zone (`2026-12-01`, `2026-12-01T08:00`) or times with `Z` or an offset.
    private func report(_ r: WebRequest) -> WebResponse {
        func instant(_ name: String) -> (Date?, WebResponse?) {
            guard let text = r.query[name], !text.isEmpty else { return (nil, nil) }
            do throws(ReportTime.Refusal) {
                return (try ReportTime.parse(text, zone: backend.reports.zone), nil)
            } catch {
                return (nil, WebResponse.error(400, "\(name): \(error)"))
            }
        }
        let by = r.query["by"] ?? "item", format = r.query["format"] ?? "json"
        guard PlayReportQuery.groupings.contains(by) else { return .error(400, "by '\(by)' is not item, hour, day, region, screen or verdict") }
        let verdict = r.query["verdict"] ?? "seen"
        guard PlayReportQuery.verdicts.contains(verdict) else { return .error(400, "verdict '\(verdict)' is not \(PlayReportQuery.verdicts.joined(separator: ", "))") }
        guard PlayReportQuery.formats.contains(format) else { return .error(400, "format '\(format)' is not table, csv, json or xibo") }
        let (since, badSince) = instant("since"), (until, badUntil) = instant("until")
        if let bad = badSince ?? badUntil { return bad }
        do throws(PlayReportRefusal) {
            let text = try backend.reports.report(PlayReportQuery(by: by, format: format, since: since, until: until, verdict: verdict))
            switch format {
            case "json": return .json(200, text)
            case "csv": return WebResponse(type: "text/csv; charset=utf-8", body: Array(text.utf8),
                                           headers: [("Content-Disposition", "attachment; filename=\"kiosk-report-\(by).csv\"")])
            case "xibo": return WebResponse(type: "application/xml", body: Array(text.utf8))
            default: return .text(200, text)
            }
        } catch {
            return .error(503, error.description)
        }
    }
}
