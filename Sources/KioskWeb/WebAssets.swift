/// The page's stylesheet and script, built into the binary: no CDN, no framework, nothing inline (the CSP
/// forbids it).
enum WebAssets {
    /// The tab's icon: a screen on its stand.
    static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="3" y="5" width="26" height="17" rx="2" fill="#1a365d"/>\
        <rect x="6" y="8" width="20" height="11" fill="#90cdf4"/><rect x="14" y="22" width="4" height="4" fill="#1a365d"/>\
        <rect x="9" y="26" width="14" height="2" rx="1" fill="#1a365d"/></svg>
        """

    static let css = """
        *{box-sizing:border-box}body{margin:0;font:16px/1.4 system-ui,sans-serif;color:#1a202c;background:#f7fafc}
        header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;padding:.6rem 1rem;background:#1a365d;color:#fff}
        header nav{display:flex;flex-wrap:wrap;gap:.25rem .9rem;align-items:center}header a{color:#fff;text-decoration:none}
        header a[aria-current]{text-decoration:underline}header form{display:inline}
        main{max-width:1200px;margin:0 auto;padding:1rem}h1{margin:.2rem 0 1rem;font-size:1.5rem}
        button{font:inherit;padding:.45rem .8rem;margin:.15rem;border:1px solid #2b6cb0;border-radius:6px;background:#fff;color:#2b6cb0;cursor:pointer}
        button:hover{background:#ebf4ff}.live img{width:100%;max-width:640px;height:auto;background:#000;border-radius:6px}
        .controls{display:flex;flex-wrap:wrap;align-items:center;gap:.3rem}.controls label{margin-left:.5rem}
        .drop{border:2px dashed #2b6cb0;border-radius:8px;padding:1.5rem;text-align:center;background:#fff}.drop.over{background:#ebf4ff}
        table{width:100%;border-collapse:collapse;margin-top:1rem}th,td{text-align:left;padding:.35rem;border-bottom:1px solid #e2e8f0;vertical-align:middle}
        td img{width:96px;height:54px;object-fit:cover;background:#000;border-radius:4px}td input{width:100%;min-width:8rem}
        progress{width:12rem}.error{color:#c53030}.log{background:#1a202c;color:#e2e8f0;padding:.6rem;overflow:auto;max-height:60vh;font-size:13px}
        .chart{max-width:900px;background:#fff}.login{max-width:22rem}.login input{display:block;width:100%;margin:.3rem 0 .8rem;padding:.4rem}
        ol.playlist li{margin:.2rem 0}textarea{width:100%;font:14px/1.4 monospace;padding:.4rem}
        @media (max-width:600px){th:nth-child(4),td:nth-child(4),th:nth-child(5),td:nth-child(5){display:none}td img{width:64px;height:36px}}
        """

    static let js = #"""
        'use strict';
        const csrf = (document.querySelector('meta[name=csrf]') || {}).content || '';
        const page = document.body.dataset.page;
        const $ = (s) => document.querySelector(s);
        function say(text, bad) { const m = $('#message'); if (m) { m.textContent = text; m.className = bad ? 'error' : ''; } }
        async function api(method, path, body) {
          const opts = { method, credentials: 'same-origin', headers: { 'X-CSRF-Token': csrf } };
          if (body !== undefined) { opts.headers['Content-Type'] = 'application/json'; opts.body = JSON.stringify(body); }
          const r = await fetch(path, opts);
          const text = await r.text();
          let json = null; try { json = JSON.parse(text); } catch (e) { json = null; }
          if (!r.ok) throw new Error((json && json.error) || (r.status + ' ' + r.statusText));
          return json;
        }
        // with several screens the dashboard's choice: '' (the first screen) or '?screen=NAME'
        let screenQuery = '';
        const command = (words) => api('POST', '/api/command' + screenQuery, words);
        function visibleEvery(ms, f) { f(); setInterval(() => { if (document.visibilityState === 'visible') f(); }, ms); }

        function dashboard() {
          const img = $('#screen'); let loading = false;
          img.addEventListener('load', () => { loading = false; }); img.addEventListener('error', () => { loading = false; });
          const shot = () => { loading = true; img.src = '/api/screenshot.jpg?t=' + Date.now() + screenQuery.replace('?', '&'); };
          visibleEvery(2000, () => { if (!loading) shot(); });
          api('GET', '/api/screens').then((r) => {
            if (!r || r.screens.length < 2) return;
            const pick = $('#screen-choice');
            for (const n of r.screens) { const o = document.createElement('option'); o.value = n; o.textContent = n; pick.appendChild(o); }
            $('#screens').hidden = false;
            pick.addEventListener('change', () => { screenQuery = pick.selectedIndex === 0 ? '' : '?screen=' + encodeURIComponent(pick.value); shot(); });
          }).catch(() => {});
          const name = (p) => p ? p.split('/').pop() : '—';
          visibleEvery(2000, async () => {
            try {
              const s = await api('GET', '/api/status' + screenQuery);
              $('#now').textContent = s.state === 'idle' ? 'nothing (idle)' : name(s.path) + (s.paused ? ' (paused)' : '');
              $('#next').textContent = name(s.next);
              $('#pause').textContent = s.paused ? 'Resume' : 'Pause';
              $('#screen-state').textContent = s.screen; $('#cec').textContent = s.cec_power || 'not followed';
              $('#today').textContent = s.showings_today === null ? '' : s.showings_today + ' showings today';
              if (document.activeElement !== $('#volume')) $('#volume').value = s.volume;
              content(s.content); health(s.health);
              const ul = $('#regions'); ul.textContent = '';
              for (const r of s.regions) { const li = document.createElement('li'); li.textContent = r.name + ': ' + name(r.path || r.src) + (r.next ? ' → next ' + name(r.next) : ''); ul.appendChild(li); }
            } catch (e) { say(e.message, true); }
          });
          for (const b of document.querySelectorAll('button[data-command]')) {
            b.addEventListener('click', async () => { try { const r = await command(JSON.parse(b.dataset.command)); say(r && typeof r.data === 'string' ? r.data : 'Done.'); } catch (e) { say(e.message, true); } });
          }
          $('#volume').addEventListener('change', async (ev) => { try { await command(['set_property', 'volume', Number(ev.target.value)]); } catch (e) { say(e.message, true); } });
        }

        // the content fetcher (kiosk play URL): its URL, the last check and its result, the cache's use
        function content(c) {
          const p = $('#content-source'); if (!p) return;
          p.hidden = !c || !c.url; if (p.hidden) return;
          const mib = (n) => (n / 1048576).toFixed(1) + ' MiB';
          const when = (t) => t ? new Date(t).toLocaleString() : 'not yet';
          $('#content').textContent = c.url + ' · checked ' + when(c.last_check) + ' (' + c.result + (c.problem ? ': ' + c.problem : '') + ')'
            + ' · fetched ' + when(c.fetched) + ' · ' + c.media + ' media · cache ' + mib(c.cache_bytes) + (c.cache_budget === null ? '' : ' of ' + mib(c.cache_budget));
        }

        function upload(files) {
          for (const f of files) {
            const li = document.createElement('li'); const bar = document.createElement('progress'); bar.max = 100; bar.value = 0;
            li.append(f.name + ' ', bar); $('#progress').appendChild(li);
            const data = new FormData(); data.append('files', f, f.name);
            const x = new XMLHttpRequest(); x.open('POST', '/api/upload'); x.setRequestHeader('X-CSRF-Token', csrf);
            x.upload.addEventListener('progress', (e) => { if (e.lengthComputable) bar.value = Math.round(100 * e.loaded / e.total); });
            x.addEventListener('load', () => {
              let r = {}; try { r = JSON.parse(x.responseText); } catch (e) { r = {}; }
              bar.value = 100;
              const refused = (r.refused || []).map((z) => z.name + ': ' + z.reason).join('; ');
              li.className = x.status === 200 ? 'done' : 'error';
              li.append(' ' + (x.status === 200 ? 'stored' : (refused || r.error || ('HTTP ' + x.status))));
              listMedia();
            });
            x.send(data);
          }
        }

        async function listMedia() {
          let m; try { m = await api('GET', '/api/media'); } catch (e) { say(e.message, true); return; }
          const body = $('#media tbody'); body.textContent = '';
          for (const f of m.files) {
            const tr = document.createElement('tr'); tr.dataset.name = f.name;
            const cell = (x) => { const td = document.createElement('td'); if (x instanceof Node) td.appendChild(x); else td.textContent = x; tr.appendChild(td); return td; };
            if (f.kind !== 'audio') { const i = document.createElement('img'); i.src = '/thumb/' + encodeURIComponent(f.name); i.alt = ''; i.loading = 'lazy'; i.onerror = () => { const n = (+i.dataset.tries || 0) + 1; if (n <= 5) { i.dataset.tries = n; setTimeout(() => { i.src = '/thumb/' + encodeURIComponent(f.name) + '?try=' + n; }, 2000 * n); } }; cell(i); } else cell('♪');
            cell(f.name); cell(f.kind); cell(f.size < 1048576 ? Math.ceil(f.size / 1024) + ' KiB' : (f.size / 1048576).toFixed(1) + ' MiB'); cell(f.duration ? f.duration.toFixed(1) + ' s' : '');
            const cap = document.createElement('input'); cap.value = f.caption || ''; cap.placeholder = 'caption'; cap.setAttribute('aria-label', 'Caption of ' + f.name);
            cap.addEventListener('change', async () => { try { await api('POST', '/api/caption', { name: f.name, caption: cap.value }); say('Caption saved.'); } catch (e) { say(e.message, true); } });
            cell(cap);
            const del = document.createElement('button'); del.textContent = 'Delete'; del.className = 'delete';
            del.addEventListener('click', async () => {
              if (del.dataset.armed !== '1') { del.dataset.armed = '1'; del.textContent = 'Really delete?'; return; }
              try { await api('DELETE', '/api/media/' + encodeURIComponent(f.name)); say('Deleted ' + f.name + '.'); listMedia(); } catch (e) { say(e.message, true); }
            });
            cell(del); body.appendChild(tr);
          }
          playlists(m);
        }

        function playlists(m) {
          const box = $('#playlists'); box.textContent = '';
          const lists = m.playlists.length ? m.playlists : [{ name: 'playlist.m3u', items: m.files.map((f) => f.name), fresh: true }];
          for (const p of lists) {
            const h = document.createElement('h3'); h.textContent = p.name + (p.fresh ? ' (new: every file)' : ''); box.appendChild(h);
            const ol = document.createElement('ol'); ol.className = 'playlist'; ol.dataset.name = p.name;
            for (const item of p.items) {
              const li = document.createElement('li'); li.dataset.item = item; li.append(item + ' ');
              for (const [label, dir] of [['↑', -1], ['↓', 1]]) {
                const b = document.createElement('button'); b.textContent = label; b.className = dir < 0 ? 'up' : 'down'; b.setAttribute('aria-label', (dir < 0 ? 'Move up ' : 'Move down ') + item);
                b.addEventListener('click', () => { const s = dir < 0 ? li.previousElementSibling : li.nextElementSibling; if (s) { if (dir < 0) ol.insertBefore(li, s); else ol.insertBefore(s, li); } });
                li.appendChild(b);
              }
              ol.appendChild(li);
            }
            const save = document.createElement('button'); save.textContent = 'Save order'; save.className = 'save';
            save.addEventListener('click', async () => {
              try { await api('POST', '/api/playlist', { name: p.name, items: [...ol.children].map((li) => li.dataset.item) }); say('Saved ' + p.name + '.'); listMedia(); } catch (e) { say(e.message, true); }
            });
            box.append(ol, save);
          }
        }

        function media() {
          const form = $('#upload'); if (!form) return;
          const input = form.querySelector('input[type=file]');
          input.addEventListener('change', () => { upload(input.files); input.value = ''; });
          form.addEventListener('dragover', (e) => { e.preventDefault(); form.classList.add('over'); });
          form.addEventListener('dragleave', () => form.classList.remove('over'));
          form.addEventListener('drop', (e) => { e.preventDefault(); form.classList.remove('over'); upload(e.dataTransfer.files); });
          listMedia();
        }

        function schedule() {
          const save = $('#schedule-save'); if (!save) return;
          save.addEventListener('click', async () => {
            const ul = $('#problems'); ul.textContent = '';
            const r = await fetch('/api/schedule', { method: 'POST', credentials: 'same-origin',
              headers: { 'X-CSRF-Token': csrf, 'Content-Type': 'application/json' }, body: JSON.stringify({ text: $('#schedule-text').value }) });
            let j = {}; try { j = await r.json(); } catch (e) { j = {}; }
            if (r.status === 422) {
              for (const p of j.problems) { const li = document.createElement('li'); li.textContent = p; ul.appendChild(li); }
              say('Not saved: fix the lines above.', true);
            } else if (r.ok) {
              $('#timeline').innerHTML = j.timeline; say('Saved. The player follows the new schedule.');
            } else say(j.error || ('HTTP ' + r.status), true);
          });
        }

        function system() {
          const b = $('#restart'); if (!b) return;
          b.addEventListener('click', async () => { try { await api('POST', '/api/restart'); b.textContent = 'Restarting…'; } catch (e) { b.textContent = e.message; } });
        }

        if (page === '/') dashboard();
        if (page === '/schedule') schedule();
        if (page === '/system') system();
        if (page === '/media') media();
        """#
}
