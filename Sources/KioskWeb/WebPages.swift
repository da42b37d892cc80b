import Foundation
import KioskCore

/// The pages, as HTML: plain markup over the API, with one stylesheet and one script (`WebAssets`), both served
/// from the binary (the CSP allows nothing else). Each works at 360 px wide as at 1920.
enum WebPages {
    /// The pages' paths and their titles, in the menu's order.
    static let menu: [(path: String, title: String)] = [("/", "Dashboard"), ("/media", "Media"), ("/schedule", "Schedule"), ("/reports", "Reports"),
                                                          ("/system", "System")]
    static let names = Set(menu.map(\.path))

    /// Text for HTML (element content and attribute values alike).
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    static func document(_ title: String, body: String, csrf: String?, page: String) -> String {
        let nav = csrf == nil ? "" : "<nav>" + menu.map { m in
            "<a href=\"\(m.path)\"\(m.path == page ? " aria-current=\"page\"" : "")>\(m.title)</a>"
        }.joined() + "<form method=\"post\" action=\"/logout\"><input type=\"hidden\" name=\"csrf\" value=\"\(escape(csrf ?? ""))\">"
            + "<button type=\"submit\">Log out</button></form></nav>"
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title)) · kiosk</title><link rel="stylesheet" href="/app.css"><link rel="icon" href="/favicon.svg">
            \(csrf.map { "<meta name=\"csrf\" content=\"\(escape($0))\">" } ?? "")<script src="/app.js" defer></script></head>
            <body data-page="\(escape(page))"><header><strong>kiosk</strong>\(nav)</header><main>
            \(body)
            </main></body></html>
            """
    }

    static func login(error: String?, status: Int) -> WebResponse {
        let body = """
            <h1>Log in</h1>
            <form method="post" action="/login" class="login">
            <label>Password <input type="password" name="password" autocomplete="current-password" autofocus required></label>
            <button type="submit">Log in</button>
            \(error.map { "<p class=\"error\" role=\"alert\">\(escape($0))</p>" } ?? "")
            </form>
            """
        return WebResponse(status: status, type: "text/html; charset=utf-8", body: Array(document("Log in", body: body, csrf: nil, page: "/login").utf8))
    }

    static func page(_ path: String, csrf: String, app: WebApp) -> WebResponse {
        let (title, body): (String, String)
        switch path {
        case "/media": (title, body) = ("Media", media(app))
        case "/reports": (title, body) = ("Reports", WebReportPage.body(app.backend.reports))
        case "/schedule": (title, body) = ("Schedule", WebSchedulePage.body(app.backend.schedule))
        case "/system": (title, body) = ("System", system(app))
        default: (title, body) = ("Dashboard", dashboard)
        }
        return WebResponse(type: "text/html; charset=utf-8", body: Array(document(title, body: body, csrf: csrf, page: path).utf8))
    }

    static let dashboard = """
        <h1>Dashboard</h1>
        <p id="screens" hidden><label>Screen <select id="screen-choice"></select></label></p>
        <section class="live"><img id="screen" src="/api/screenshot.jpg" alt="What the screen shows now" width="640" height="360"></section>
        <section class="now"><p>Now: <b id="now">…</b></p><p>Next: <span id="next">…</span></p><ul id="regions"></ul>
        <p>Screen <span id="screen-state">…</span> · TV <span id="cec">…</span> · <span id="today"></span></p>
        <p id="content-source" hidden>Content <span id="content">…</span>
        <button id="check-content" data-command='["check-content"]'>Check now</button></p></section>
        <section class="controls">
        <button data-command='["playlist-prev"]'>Previous</button><button id="pause" data-command='["cycle","pause"]'>Pause</button>
        <button data-command='["playlist-next"]'>Next</button>
        <label>Volume <input id="volume" type="range" min="0" max="100" step="1"></label>
        <button data-command='["set_property","kiosk-screen","on"]'>Screen on</button>
        <button data-command='["set_property","kiosk-screen","off"]'>Screen off</button>
        </section><p id="message" role="status"></p>
        \(WebHealthPanel.html)
        """

    static func media(_ app: WebApp) -> String {
        guard app.media != nil else { return "<h1>Media</h1><p>Start kiosk with <code>--media-root DIR</code> to upload and manage media here.</p>" }
        return """
            <h1>Media</h1>
            <form id="upload" class="drop"><label>Drop pictures and videos here, or choose them:
            <input type="file" name="files" multiple accept="image/*,video/*"></label></form>
            <ul id="progress"></ul><p id="message" role="status"></p>
            <table id="media"><thead><tr><th></th><th>Name</th><th>Kind</th><th>Size</th><th>Duration</th><th>Caption</th><th></th></tr></thead>
            <tbody></tbody></table>
            <h2>Playlists</h2><div id="playlists"></div>
            """
    }

    static func system(_ app: WebApp) -> String {
        let lines = app.backend.recentLog().suffix(200).map(escape).joined(separator: "\n")
        var info = utsname()
        uname(&info)
        let uptime = (try? String(contentsOfFile: "/proc/uptime", encoding: .utf8)).flatMap { Double($0.split(separator: " ").first ?? "") } ?? 0
        var disk = "unknown"
        if let root = app.backend.mediaRoot, let a = try? FileManager.default.attributesOfFileSystem(forPath: root),
           let free = (a[.systemFreeSize] as? NSNumber)?.doubleValue {
            disk = String(format: "%.1f GiB free in %@", free / 1_073_741_824, escape(root))
        }
        return """
            <h1>System</h1>
            <dl><dt>kiosk</dt><dd>\(escape(KioskVersion.text))</dd><dt>Up</dt><dd>\(Int(saturating: uptime / 3600, rounding: .towardZero)) h \(Int(saturating: uptime, rounding: .towardZero) / 60 % 60) min</dd>
            <dt>Disk</dt><dd>\(disk)</dd></dl>
            \(app.backend.restart == nil ? "" : "<p><button id=\"restart\">Restart the player</button></p>")
            <h2>Log</h2><pre class="log">\(lines)</pre>
            """
    }
}
