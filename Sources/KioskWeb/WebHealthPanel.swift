/// The dashboard's Health panel: the health monitor's latest report as `GET /api/status` carries it (`health`: the
/// `HealthReport` JSON, with `alerts` where the alerts run): the active alerts first and highlighted (one line saying
/// there are none otherwise), the machine's readings with their units, each display with its connector, state and
/// monitor, and each screen's frames late and dropped, decode failures, content age and TV power.
///
/// Everything it shows is set as text (`textContent`), never as markup: a monitor's name comes from its EDID bytes,
/// a subject from a folder's path, an alert's message from the config.
enum WebHealthPanel {
    /// The panel's markup on the dashboard, filled by `health(h)` at each look at the status.
    static let html = """
        <section id="health" class="health" aria-labelledby="health-title"><h2 id="health-title">Health</h2>
        <p id="health-time">No health report yet.</p><ul id="health-alerts" class="alerts"></ul><div id="health-body"></div></section>
        """

    /// Its style, after the page's (a phone keeps every column: the tables scroll inside their box instead).
    static let css = """
        .health{margin-top:1.2rem}.health h2{font-size:1.2rem;margin:.2rem 0 .4rem}.health h3{font-size:1rem;margin:.8rem 0 .2rem}
        .health .scroll{overflow-x:auto}.health table{margin-top:.2rem;font-size:14px}.health td{overflow-wrap:anywhere}
        .health th,.health td{display:table-cell}.alerts{list-style:none;padding:0;margin:.3rem 0}
        .alerts li{padding:.35rem .6rem;margin:.2rem 0;border-radius:6px}.alerts li.none{background:#f0fff4;color:#22543d}
        .alerts li.alert{background:#fed7d7;color:#742a2a;border-left:4px solid #c53030}.health.has-alerts h2{color:#c53030}
        """

    /// Its script: `health(h)` (called by the dashboard with each status's `health`), only function declarations,
    /// so that it may follow the page's script.
    static let js = #"""

        // the health panel (WebHealthPanel.swift): every text set as text, never as markup
        function healthValue(r) {
          if (!r) return '—';
          const note = r.note ? ' (' + r.note + ')' : '';
          if (typeof r.value === 'string') return r.value + note;
          if (typeof r.value !== 'number') return '?' + note;
          const v = r.value, u = r.unit || '';
          let text;
          if (u === 'bytes') {
            const f = [[1099511627776, 'TiB'], [1073741824, 'GiB'], [1048576, 'MiB'], [1024, 'KiB']].find(([n]) => v >= n);
            text = f ? (v / f[0]).toFixed(1) + ' ' + f[1] : v + ' bytes';
          } else if (u === 's') {
            const s = Math.trunc(v);
            text = s >= 60 ? s + ' s (' + Math.trunc(s / 3600) + ' h ' + (Math.trunc(s / 60) % 60) + ' min)' : s + ' s';
          } else if (u === '' || u === 'count') text = String(v);
          else text = (Number.isInteger(v) ? String(v) : v.toFixed(1)) + ' ' + u;
          return text + note;
        }
        function healthTable(id, title, head, rows) {
          const h = document.createElement('h3'); h.textContent = title;
          const box = document.createElement('div'); box.className = 'scroll';
          const t = document.createElement('table'); t.id = id;
          const tr = document.createElement('tr');
          for (const c of head) { const th = document.createElement('th'); th.textContent = c; tr.appendChild(th); }
          t.createTHead().appendChild(tr);
          const body = t.createTBody();
          for (const row of rows) {
            const r = document.createElement('tr');
            for (const c of row) { const td = document.createElement('td'); td.textContent = c; r.appendChild(td); }
            body.appendChild(r);
          }
          box.appendChild(t);
          return [h, box];
        }
        function healthAlerts(list) {
          const ul = $('#health-alerts'); ul.textContent = '';
          const active = Array.isArray(list) ? list : [];
          $('#health').classList.toggle('has-alerts', active.length > 0);
          if (!active.length) { const li = document.createElement('li'); li.className = 'none'; li.textContent = 'No active alerts.'; ul.appendChild(li); return; }
          for (const a of active) {
            const li = document.createElement('li'); li.className = 'alert'; li.setAttribute('role', 'alert');
            const b = document.createElement('strong'); b.textContent = String(a.kind || '?');
            li.append(b, (a.subject ? ' ' + a.subject : '') + (a.message ? ': ' + a.message : '') + (a.since ? ' (since ' + a.since + ')' : ''));
            ul.appendChild(li);
          }
        }
        function health(h) {
          const box = $('#health'); if (!box) return;
          const perScreenReadings = ['frames-late', 'frames-dropped', 'decode-failures', 'content-result', 'content-last-good', 'content-age', 'tv-power'];
          const body = $('#health-body'); body.textContent = '';
          if (!h) { $('#health-time').textContent = 'No health report yet: the first round comes within seconds.'; $('#health-alerts').textContent = ''; return; }
          $('#health-time').textContent = 'Read at ' + h.time;
          healthAlerts(h.alerts);
          const readings = Array.isArray(h.readings) ? h.readings : [], displays = Array.isArray(h.displays) ? h.displays : [];
          const screens = [...new Set(displays.map((d) => String(d.screen))
            .concat(readings.filter((r) => perScreenReadings.includes(r.name) && r.subject).map((r) => String(r.subject))))];
          const machine = readings.filter((r) => !(perScreenReadings.includes(r.name) && screens.includes(r.subject)));
          body.append(...healthTable('health-machine', 'Machine', ['Reading', 'Of', 'Value'],
            machine.map((r) => [String(r.name), r.subject ? String(r.subject) : '', healthValue(r)])));
          body.append(...healthTable('health-displays', 'Displays', ['Screen', 'Connector', 'State', 'Monitor'], displays.map((d) => {
            const m = d.monitor;
            const monitor = m ? [m.manufacturer, m.name, 'product ' + m.product, 'serial ' + (m['serial-text'] || m.serial)].filter((x) => x !== null && x !== undefined).join(' ') : (d.note || '');
            return [String(d.screen), String(d.connector), String(d.state), monitor];
          })));
          const of = (name, s) => healthValue(readings.find((r) => r.name === name && r.subject === s));
          body.append(...healthTable('health-screens', 'Screens', ['Screen', 'Frames late', 'Frames dropped', 'Decode failures', 'Content age', 'TV power'],
            screens.map((s) => [s, of('frames-late', s), of('frames-dropped', s), of('decode-failures', s), of('content-age', s), of('tv-power', s)])));
        }
        """#
}
