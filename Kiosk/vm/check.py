#!/usr/bin/env python3
"""Checks one VM run of `kiosk play` (job written by vm-test.sh) against `kiosk snapshot` references.

usage: check.py --gpu bochs|virtio --shots DIR --results DIR --fixtures DIR --duration S

Prints one line per check, `PASS name: detail` or `FAIL name: detail`, and a last line `N passed, M failed`.
Pure Python (no numpy): PPM screendumps and references, PSNR over RGB.
Exit status: 0 when every check passed.
"""
import argparse
from collections import Counter
import math
import json
import os
import re
import sqlite3
import subprocess

import fleet_view
import screen_timeline as st


def read_ppm(path):
    """(width, height, RGB bytes) of a binary P6/255 PPM."""
    data = open(path, 'rb').read()
    magic, w, h, maxval, px = data.split(maxsplit=4)
    if magic != b'P6' or maxval != b'255':
        raise ValueError(f'{path}: not a P6/255 PPM')
    w, h = int(w), int(h)
    return w, h, px[:w * h * 3]


def psnr(a, b):
    """PSNR in dB of two (w, h, px) images of the same size; -1 when the sizes differ."""
    if a[:2] != b[:2]:
        return -1.0
    pa, pb = a[2], b[2]
    se = sum((x - y) * (x - y) for x, y in zip(pa, pb))
    if se == 0:
        return math.inf
    return 10 * math.log10(255 * 255 * len(pa) / se)


def crop(img, r):
    """The part of a (w, h, px) image inside r (a dict with x, y, width, height), clamped to the image."""
    w, h, px = img
    x0, y0 = max(0, r['x']), max(0, r['y'])
    x1, y1 = min(w, r['x'] + r['width']), min(h, r['y'] + r['height'])
    rows = [px[(y * w + x0) * 3:(y * w + x1) * 3] for y in range(y0, y1)]
    return max(0, x1 - x0), max(0, y1 - y0), b''.join(rows)


def rotate_cw(img):
    """The image turned 90 degrees clockwise: the top-left corner goes to the top-right."""
    w, h, px = img
    out = bytearray(w * h * 3)
    nw = h  # new width
    for y in range(h):
        row = px[y * w * 3:(y + 1) * w * 3]
        x_new = h - 1 - y
        for x in range(w):
            j = (x * nw + x_new) * 3
            out[j:j + 3] = row[x * 3:x * 3 + 3]
    return nw, w, bytes(out)


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, ok, detail):
        print(f"{'PASS' if ok else 'FAIL'} {name}: {detail}", flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def read(path, default=''):
    return open(path).read() if os.path.exists(path) else default


def edid_decode_identity(path):
    """Manufacturer, model, serial number (0 when edid-decode prints none) and monitor name as edid-decode reads the
    EDID at `path`; None without an EDID or without edid-decode."""
    if not os.path.exists(path) or os.path.getsize(path) < 128:
        return None
    try:
        out = subprocess.run(['edid-decode', path], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    ident = {'manufacturer': None, 'product': None, 'serial': 0, 'name': None}
    for line in out.splitlines():
        line = line.strip()
        if line.startswith('Manufacturer: '):
            ident['manufacturer'] = line.split(': ', 1)[1]
        elif line.startswith('Model: '):
            ident['product'] = int(re.match(r'\d+', line.split(': ', 1)[1]).group())
        elif line.startswith('Serial Number: '):
            ident['serial'] = int(re.match(r'\d+', line.split(': ', 1)[1]).group())
        elif line.startswith('Display Product Name: '):
            ident['name'] = line.split(': ', 1)[1].strip("'")
    return ident


def check_health(c, g, a):
    """kiosk ctl health on the DRM output: Virtual-1 connected, its monitor's identity as edid-decode reads the kernel's
    EDID of the connector, and frames late counted from the flips (a number per hour, not 'not counted')."""
    err = read(os.path.join(a.results, 'health.err')).strip()
    try:
        data = json.loads(read(os.path.join(a.results, 'health.json')).splitlines()[0])['data']
    except (IndexError, KeyError, ValueError) as e:
        c.check(f'{g} health-edid', False, f'no kiosk-health reply ({e}); kiosk ctl: {err[-300:]!r}')
        return
    ref = edid_decode_identity(os.path.join(a.results, 'edid.bin'))
    displays = data.get('displays') or [{}]
    d = displays[0]
    m = d.get('monitor') or {}
    ours = {k: m.get(k) for k in ('manufacturer', 'product', 'serial', 'name')}
    late = next((r for r in data.get('readings', []) if r.get('name') == 'frames-late'), {})
    ok = (ref is not None and ref['manufacturer'] is not None and ours == ref and d.get('connector') == 'Virtual-1'
          and d.get('state') == 'connected' and isinstance(late.get('value'), int) and late.get('unit') == 'per hour')
    c.check(f'{g} health-edid', ok,
            f'kiosk: {d.get("connector")} {d.get("state")} {ours}; edid-decode: {ref}; frames-late: {late.get("value")!r} '
            f'{late.get("unit")!r}')


def check_unplug(c, g, a):
    """The display unplugged (issue 41): `off` written to Virtual-1's sysfs status, later `detect`. Health rounds of
    0.5 s: display-disconnected raised once after the unplug (a warn line, none before it, none again while it
    lasts), cleared once after the re-plug (an info line); kiosk alive then and exit 0 on SIGTERM. Two checks."""
    log = read(os.path.join(a.results, 'rot.log')).splitlines()
    steps = {}
    for line in read(os.path.join(a.results, 'unplug.steps')).splitlines():
        f = line.split(None, 2)
        if len(f) >= 2 and f[1].isdigit():
            steps[f[0]] = (int(f[1]), f[2] if len(f) > 2 else '')
    err = read(os.path.join(a.results, 'unplug.err')).strip()

    def lines(start, end, edge):
        l0 = steps[start][0] if start else 0
        l1 = steps.get(end, (None, ''))[0]
        return [ln for ln in log[l0:l1] if f'health: {edge} display-disconnected (' in ln]

    sysfs = {k: v[1] for k, v in steps.items()}
    if not {'unplug', 'off', 'replug', 'detect', 'end'} <= set(steps):
        c.check(f'{g} unplug-alert', False, f'the unplug step did not run to its end: steps {sorted(steps)}; {err!r}')
        c.check(f'{g} replug-alert-cleared', False, 'no re-plug step')
        return
    # the counts are taken before each write: 'unplug' before `off`, 'replug' before `detect`
    before = lines(None, 'unplug', 'raised') + lines(None, 'unplug', 'cleared')
    raised = lines('unplug', 'replug', 'raised')
    early_clear = lines('unplug', 'replug', 'cleared')
    said = [ln for ln in log[steps['unplug'][0]:steps['replug'][0]] if 'display on Virtual-1 disconnected' in ln]
    c.check(f'{g} unplug-alert', len(raised) == 1 and 'warn: health: raised display-disconnected' in raised[0]
            and 'Virtual-1' in raised[0] and not before and not early_clear and sysfs.get('off') == 'disconnected',
            f'sysfs status before {sysfs.get("unplug")!r}, after off {sysfs.get("off")!r} (disconnected wanted); '
            f'{len(raised)} raise line(s) while unplugged (1 wanted; 3 s of further rounds after it): {raised}; '
            f'alert lines before: {before}; cleared while unplugged: {early_clear}; output said: {said}'
            + (f'; sysfs errors: {err!r}' if err else ''))
    cleared = lines('replug', 'end', 'cleared')
    again = lines('replug', 'end', 'raised')
    alive = read(os.path.join(a.results, 'unplug.alive')).strip()
    ex = read(os.path.join(a.results, 'rot.exit')).strip()
    c.check(f'{g} replug-alert-cleared', len(cleared) == 1 and 'info: health: cleared display-disconnected' in cleared[0]
            and not again and sysfs.get('detect') == 'connected' and alive == '1' and ex == '0',
            f'sysfs status after detect {sysfs.get("detect")!r} (connected wanted); {len(cleared)} clear line(s) '
            f'(1 wanted): {cleared}; raised again: {again}; alive after {alive!r} (1), exit on SIGTERM {ex!r} (0)')


def thumb_of(img, tw=32, th=18):
    """A (tw, th, RGB) thumbnail of a (w, h, px) image as `glBlitFramebuffer` with GL_LINEAR makes one: each
    thumbnail pixel's centre mapped into the image and sampled bilinearly between the four nearest pixel centres."""
    w, h, px = img

    def axis(i, n, size):
        v = (i + 0.5) * size / n - 0.5
        f = math.floor(v)
        return max(0, min(size - 1, f)), max(0, min(size - 1, f + 1)), v - f
    out = bytearray()
    for y in range(th):
        y0, y1, fy = axis(y, th, h)
        for x in range(tw):
            x0, x1, fx = axis(x, tw, w)
            for k in range(3):
                top = px[(y0 * w + x0) * 3 + k] * (1 - fx) + px[(y0 * w + x1) * 3 + k] * fx
                bottom = px[(y1 * w + x0) * 3 + k] * (1 - fx) + px[(y1 * w + x1) * 3 + k] * fx
                out.append(int(round(top * (1 - fy) + bottom * fy)))
    return tw, th, bytes(out)


SHOWINGS_SQL = ('SELECT s.path, s.verdict, s.display_state, s.display_id, s.cec_power, t.width, t.height, t.rgb '
                'FROM showings s LEFT JOIN thumbs t ON substr(t.hash, 1, 16) = s.thumb ORDER BY s.id')


def showings(path):
    """The play log's showings at `path` in id order: (file name, verdict, display_state, display_id, cec_power,
    thumbnail (w, h, RGB) or None); a text saying why when it cannot be read."""
    if not os.path.exists(path):
        return f'{path}: missing'
    try:
        db = sqlite3.connect(path)
        rows = db.execute(SHOWINGS_SQL).fetchall()
        db.close()
    except sqlite3.Error as e:
        return f'{path}: {e}'
    return [(os.path.basename(r[0]).split('.')[0], r[1], r[2], r[3], r[4],
             (r[5], r[6], bytes.fromhex(r[7])) if r[7] else None) for r in rows]


def check_proof(c, g, a, shot):
    """Proof of display on a real display (issue 41). The first run's play log: a and b were `seen` on a connected
    display with an EDID identity, and a's thumbnail is the screendump of a made small as the GPU's blit does (PSNR
    >= 30 dB, and < 30 against b's). The unplug run's: a seen, b display-absent, a display-absent, b seen. Three
    checks."""
    rows = showings(os.path.join(a.results, 'play.sqlite'))
    if isinstance(rows, str) or not rows:
        c.check(f'{g} proof-seen', False, rows or 'play.sqlite: no showings')
        c.check(f'{g} proof-thumbnail', False, 'no play log')
    else:
        named = {r[0]: r for r in rows}
        ok = all(n in named and named[n][1:3] == ('seen', 'connected') and named[n][3] for n in 'ab')
        c.check(f'{g} proof-seen', ok, '; '.join(f'{r[0]}: {r[1]} ({r[2]}, monitor {r[3]!r}, cec {r[4]})' for r in rows))
        thumb = named.get('a', (None,) * 6)[5]
        sa, sb = shot('play-a'), shot('play-b')
        if thumb is None or sa is None or sb is None:
            c.check(f'{g} proof-thumbnail', False, f'thumbnail of a {"present" if thumb else "missing"}, '
                    f'screendumps play-a {sa is not None}, play-b {sb is not None}')
        else:
            p, other = psnr(thumb, thumb_of(sa)), psnr(thumb, thumb_of(sb))
            c.check(f'{g} proof-thumbnail', thumb[:2] == (32, 18) and p >= 30 and other < 30,
                    f"a's {thumb[0]}x{thumb[1]} thumbnail vs the screendump of a made 32x18: PSNR {p:.1f} dB (>= 30), "
                    f'vs that of b {other:.1f} dB (< 30)')
    rows = showings(os.path.join(a.results, 'rot.sqlite'))
    ctl = read(os.path.join(a.results, 'unplug.ctl')).strip().replace('\n', ' | ')
    got = [(r[0], r[1]) for r in rows] if not isinstance(rows, str) else rows
    want = [('a', 'seen'), ('b', 'display-absent'), ('a', 'display-absent'), ('b', 'seen')]
    c.check(f'{g} proof-unplug-verdicts', got == want, f'showings {got} ({want} wanted); ctl: {ctl}')


def check_fleet(c, g, a):
    """The fleet view (issue 41): `kiosk fleet --json` against the broker in the guest shows vm-screen online with a
    display-disconnected alert within a minute of the unplug, and without it within a minute of the re-plug. Two
    checks."""
    steps = fleet_view.seconds(read(os.path.join(a.results, 'fleet.steps')))
    err = (read(os.path.join(a.results, 'fleet.err')).strip() + ' ' + read(os.path.join(a.results, 'mosquitto.log')).strip())[-300:]
    for name, want in [('unplug', True), ('replug', False)]:
        state, kinds, roster = fleet_view.kiosk(read(os.path.join(a.results, f'fleet-{name}.json')), 'vm-screen')
        took = steps.get(name)
        ok = state == 'online' and ('display-disconnected' in kinds) == want and took is not None and took <= 60
        c.check(f'{g} fleet-{name}', ok,
                f'vm-screen {state or "missing"} with alerts {kinds} '
                f'({"display-disconnected" if want else "none"} wanted) {took if took is None else round(took, 1)} s after the '
                f'{"unplug" if want else "re-plug"} (<= 60)' + ('' if ok else f'; {err!r}; roster {str(roster)[:300]}'))


def check_input(c, g, a, shot, ref):
    """A key pauses, a swipe shows the next item, a double tap zooms, a drag turns a 360 view."""
    log = read(os.path.join(a.results, 'input.log'))
    tail = log[-300:].replace('\n', ' | ')
    devices = re.findall(r"input: device '([^']*)' \(([^)]*)\)", log)
    c.check(f'{g} input-devices', any('touch' in k for _, k in devices) and any('keyboard' in k for _, k in devices),
            f'{devices or "no devices"}' + ('' if devices else f'; {tail}'))

    def compare(name, want, others, detail=''):
        s = shot(name)
        if s is None:
            c.check(f'{g} {name}', False, f'no screendump {name}; {tail}')
            return
        p = psnr(s, ref(want))
        worst = max((psnr(s, ref(o)) for o in others), default=-1)
        c.check(f'{g} {name}', p >= 30 and worst < 30,
                f'PSNR {p:.1f} dB vs snapshot {want} (>= 30), best other {worst:.1f} dB (< 30){detail}')

    paused = read(os.path.join(a.results, 'input.paused')).split()
    # the player's own pause line, after the key: "nothing advanced" alone would also pass on a stuck player
    key_at = log.find('key 57: paused')
    line_at = log.find('kiosk: info: paused (user)', max(key_at, 0))
    c.check(f'{g} input-key-pause-logged', key_at >= 0 and line_at > key_at,
            'paused (user) logged after KEY_SPACE' if key_at >= 0 and line_at > key_at
            else f"no 'paused (user)' line after the key (key note at {key_at}); {tail}")
    if len(paused) == 3:
        item, before, after = paused[0].split('.')[0], int(paused[1]), int(paused[2])
        item = 'pano' if item == 'pano_360' else item
        c.check(f'{g} input-key-pauses', before == after,
                f'{before} -> {after} items shown over {a.duration + 2:.0f} s after KEY_SPACE (slot {a.duration} s)')
        compare('input-paused', item, [x for x in ['a', 'b', 'pano'] if x != item], f' (paused on {item})')
    else:
        c.check(f'{g} input-key-pauses', False, f'no pause record; {tail}')
    c.check(f'{g} input-swipe-logged', 'input: swipe: next' in log,
            next((x for x in log.splitlines() if 'swipe' in x), 'no swipe in the log'))
    compare('input-swiped', 'b', ['a', 'b-zoom'])
    m = re.search(r'double tap at ([0-9]+),([0-9]+): zoom ([0-9.]+) centre ([0-9.]+),([0-9.]+)', log)
    c.check(f'{g} input-double-tap-logged', m is not None and m.groups() == ('480', '120', '2.50', '0.750', '0.250'),
            m.group(0) if m else 'no double tap in the log')
    compare('input-zoomed', 'b-zoom', ['b'])
    compare('input-pano', 'pano', ['pano-yaw', 'b'])
    m = re.search(r'drag: view yaw (-?[0-9.]+) pitch (-?[0-9.]+)', log)
    c.check(f'{g} input-drag-logged', m is not None and abs(float(m.group(1)) + 22.5) < 1 and abs(float(m.group(2))) < 1,
            m.group(0) + ' (yaw -22.5 +-1)' if m else 'no drag in the log')
    compare('input-pano-dragged', 'pano-yaw', ['pano'])
    # The grid: a long press opened it; inside each tile it equals `kiosk snapshot --grid` (the frames around the
    # current and focused tiles are the player's own); a tap on b.png's tile opened b.png.
    c.check(f'{g} input-long-press-grid', 'long press: the grid' in log and 'grid: open' in log,
            next((x for x in log.splitlines() if 'grid:' in x), 'no grid line in the log'))
    s = shot('input-grid')
    tiles = [json.loads(x) for x in read(os.path.join(a.fixtures, 'grid.jsonl')).splitlines() if '"path"' in x]
    if s is None or len(tiles) != 3:
        c.check(f'{g} input-grid', False, f'no screendump input-grid or {len(tiles)} tiles (3); {tail}')
    else:
        want = ref('grid')
        scores = [psnr(crop(s, t), crop(want, t)) for t in tiles]
        c.check(f'{g} input-grid', min(scores) >= 30,
                'tiles vs kiosk snapshot --grid: ' + ', '.join(f'{v:.1f}' for v in scores) + ' dB (>= 30)')
    compare('input-grid-opened', 'b', ['a', 'pano'])
    # A layout: a tap on its logo region began the offer (its activateEvent) in the other region.
    tap = read(os.path.join(a.results, 'tap.log'))
    c.check(f'{g} input-layout-tap', 'layout: a tap at' in tap and 'interrupt begins in region main: b.png' in tap,
            next((x for x in tap.splitlines() if 'layout: a tap' in x or 'interrupt' in x), 'no tap in the log: ' + tap[-300:]))
    compare('tap-before', 'tap-before', ['tap-offer'])
    compare('tap-offer', 'tap-offer', ['tap-before'])
    rc = read(os.path.join(a.results, 'input.exit'), 'none').strip()
    c.check(f'{g} input-exit', rc == '0', f'exit {rc} after SIGTERM')


def check_faults(c, g, a, shot, watch, stills):
    """The ALSA card goes away under a playing clip; the media folder goes away under a slideshow; the state file's
    disk is read-only or full. Whether each goes on is judged by the screen watches (what was on screen when); the
    log's account is only told alongside."""
    res = lambda name, default='': read(os.path.join(a.results, name), default)
    log = res('alsa.log')
    tail = log[-300:].replace('\n', ' | ')
    cards = res('alsa.cards')
    unbind = res('alsa.unbind')
    c.check(f'{g} alsa-card', 'card' in cards, f"/proc/asound: {' '.join(cards.split())}")
    # The unbind completes only when every PCM of the card is closed: kiosk must let go of the dead device
    # while it plays on.
    c.check(f'{g} alsa-released', 'unbind rc 0' in unbind,
            ' '.join(unbind.split()) or 'no unbind record')
    audio = [x for x in log.splitlines() if x.startswith('kiosk: warn: audio:')]  # the failure while playing
    c.check(f'{g} alsa-gone-logged', len(audio) == 1,
            (audio[0] if len(audio) == 1 else f'{len(audio)} audio lines (1)') + ('' if audio else f'; {tail}'))
    ex = res('alsa.exit').split()
    dumps, marks = watch('alsa')
    ok, detail = st.judge_clip_goes_on(dumps, marks.get('unbind'), fps=5)
    if len(ex) == 4:
        rc, alive, before, after = ex[0], ex[1], int(ex[2]), int(ex[3])
        c.check(f'{g} alsa-video-goes-on', ok and alive == '1',
                f'{detail}; alive {alive} (log: presented frames {before} -> {after} over the removal)')
        c.check(f'{g} alsa-exit', rc == '0', f'exit {rc} after SIGTERM')
    else:
        c.check(f'{g} alsa-video-goes-on', False, f'no exit record; {detail}; {tail}')
    s1, s2 = shot('alsa-gone-1'), shot('alsa-gone-2')
    c.check(f'{g} alsa-screen-moves', s1 is not None and s2 is not None and s1 != s2,
            'the screen changed between two screendumps two frames apart after the removal' if s1 and s2 and s1 != s2
            else 'screendumps missing or identical')

    flog = res('folder.log')
    ftail = flog[-300:].replace('\n', ' | ')
    removed_at = int(res('folder.removed', '0').strip() or 0)
    missing = re.findall(r'kiosk: warn: (\S+): no such file', flog)
    shown = len(re.findall(r'showing ', flog))
    c.check(f'{g} folder-missing-logged', 0 < len(missing) == len(set(missing)),
            f'{len(missing)} missing-file lines for {len(set(missing))} files (one each)' + ('' if missing else f'; {ftail}'))
    # c.png goes first (while b shows): the screen goes on b, a, b, ... (b's slot, which ends trying c, is not
    # timed); 4 s later the whole folder: a and b have both been shown since, and go on from what was decoded.
    dumps, marks = watch('folder')
    item, gone = marks.get('item'), marks.get('all')
    ok1, one = st.judge_goes_on([d for d in dumps if gone is None or d['t1'] <= gone], stills, ['a', 'b'],
                                item, 1, untimed=1)
    ok2, two = st.judge_goes_on(dumps, stills, ['a', 'b'], gone, 1)
    c.check(f'{g} folder-goes-on', ok1 and ok2, f'c.png removed: {one}; then the folder: {two}'
            f' (log: {removed_at} items shown before the removal, {shown} in all)')
    ex = res('folder.exit').split()
    c.check(f'{g} folder-exit', ex == ['0', '1'], f'alive 8 s after the removal and exit 0 on SIGTERM: {ex or "no record"}')

    # The state file's disk read-only, then full: one line each, the slideshow goes on, saving comes back.
    for case in ('ro', 'full'):
        slog = res(f'state-{case}.log')
        stail = slog[-300:].replace('\n', ' | ')
        lines = [x for x in slog.splitlines() if x.startswith('kiosk: warn: state:')]
        c.check(f'{g} state-{case}-logged', len(lines) == 1,
                (lines[0] if len(lines) == 1 else f'{len(lines)} state warn lines (1)') + ('' if lines else f'; {stail}'))
        later = slog[slog.find('kiosk: warn: state:'):] if lines else ''
        shown = len(re.findall(r'showing ', later))
        ex = res(f'state-{case}.exit').split()
        dumps, marks = watch(f'state-{case}')
        ok, detail = st.judge_goes_on(dumps, stills, ['a', 'b'], marks.get('fault'), 1)
        c.check(f'{g} state-{case}-goes-on', ok and ex == ['0', '1'],
                f'{detail}; alive and exit 0 on SIGTERM: {ex or "no record"} (log: {shown} items shown after the line)')
    slog = res('state-full.log')
    back = next((x for x in slog.splitlines() if 'state: saving works again' in x), None)
    saved = res('state-full.json')
    try:
        state = json.loads(saved) if saved else None
    except ValueError:
        state = None
    c.check(f'{g} state-full-recovers', back is not None and isinstance(state, dict) and 'path' in state,
            f"{back or 'no recovery line'}; state.json after: {saved.strip()[:120] or 'none'}")

    # The play log's folder read-only, then writable; its disk full, then freed: one warn line, playback goes on,
    # the showings meanwhile are written late (at least 3, with their own times), and the file is whole.
    for case in ('ro', 'full'):
        plog = res(f'plays-{case}.log')
        warns = [x for x in plog.splitlines() if x.startswith('kiosk: warn: play log:')]
        back = re.search(r'play log: writing to \S+ again; (\d+) showings? written late', plog)
        ex = res(f'plays-{case}.exit').split()
        rows, integrity = None, None
        db = os.path.join(a.results, f'plays-{case}.sqlite')
        if os.path.exists(db):
            con = sqlite3.connect(f'file:{db}?mode=ro', uri=True)
            integrity = con.execute('PRAGMA integrity_check').fetchone()[0]
            rows = con.execute("SELECT count(*), sum(reason = 'quit') FROM showings WHERE end_utc IS NOT NULL").fetchone()
            con.close()
        c.check(f'{g} plays-{case}', len(warns) == 1 and back is not None and int(back.group(1)) >= 3
                and ex == ['0', '1'] and integrity == 'ok' and rows is not None and rows[0] >= 3 and rows[1] == 1,
                f"{warns[0] if warns else 'no warn line'} ({len(warns)} warn lines, 1); "
                f"{back.group(0) if back else 'no resume line'}; alive and exit 0: {ex or 'no record'}; "
                f"file: integrity {integrity}, closed rows and quit rows {rows}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--gpu', required=True)
    ap.add_argument('--shots', required=True)
    ap.add_argument('--results', required=True)
    ap.add_argument('--fixtures', required=True)
    ap.add_argument('--duration', type=float, default=3)
    a = ap.parse_args()
    c = Checks()
    g = a.gpu

    def shot(name):
        p = os.path.join(a.shots, name + '.ppm')
        return read_ppm(p) if os.path.exists(p) else None

    def ref(name):
        return read_ppm(os.path.join(a.fixtures, name + '.ppm'))

    def watch(name):
        return st.load(os.path.join(a.shots, name + '.watch.jsonl'))
    stills = {n: (w, h, st.sample(w, h, px)) for n in 'abc'
              for w, h, px in [read_ppm(os.path.join(a.fixtures, f'src-{n}.ppm'))]}

    # (a) the screen shows what `kiosk snapshot` renders, for two items
    for item in ['a', 'b']:
        s = shot('play-' + item)
        if s is None:
            c.check(f'{g} screen-{item}', False, f'no screendump play-{item}')
            continue
        p, other = psnr(s, ref(item)), psnr(s, ref('b' if item == 'a' else 'a'))
        c.check(f'{g} screen-{item}', p >= 30 and other < 30,
                f'PSNR {p:.1f} dB vs snapshot of {item} (>= 30), {other:.1f} dB vs the other item (< 30)')

    # (b) the slideshow advances on time: the screen, watched from the host, shows c, a, b in this order, a's slot
    # timed by the dumps (the log's own times are only told alongside)
    log = read(os.path.join(a.results, 'play.log'))
    times = {}
    for m in re.finditer(r'showing (\S+) at ([0-9.]+) s', log):
        times.setdefault(os.path.basename(m.group(1)).split('.')[0], float(m.group(2)))
    said = f"log: b {times['b'] - times['a']:.3f} s after a" if 'a' in times and 'b' in times \
        else f'log: showing lines missing: {times}; {log[-300:]!r}'
    ok, detail = st.judge_advance(watch('play')[0], stills, ['c', 'a', 'b'], a.duration)
    c.check(f'{g} advance', ok, f'{detail} ({said})')
    first = re.search(r'first frame presented (\d+) ms', log)
    out = re.search(r'output: (.*)', log)
    c.check(f'{g} drm-output', out is not None and out.group(1).startswith('drm /dev/dri/card0'),
            (out.group(1) if out else 'no output line') + (f'; first frame {first.group(1)} ms after start' if first else ''))

    # (c) --rotate 90 turns the picture
    s = shot('rot90')
    if s is None:
        c.check(f'{g} rotate-90', False, 'no screendump rot90')
    else:
        turned = rotate_cw(ref('a-portrait'))
        p, upright = psnr(s, turned), psnr(s, ref('a'))
        c.check(f'{g} rotate-90', p >= 30 and upright < 30,
                f'PSNR {p:.1f} dB vs the 480x640 snapshot turned 90 cw (>= 30), {upright:.1f} dB vs upright (< 30)')
    # The IPC screenshot of that frame (kiosk ctl screenshot, PNG; ffmpeg on the host turns it into a PPM).
    png = os.path.join(a.results, 'rot90-ipc.png')
    ipc_log = read(os.path.join(a.results, 'rot-ipc.log')).strip()
    if s is None or not os.path.exists(png):
        c.check(f'{g} ipc-screenshot', False, f'no screendump or no screenshot; kiosk ctl: {ipc_log[-300:]!r}')
    else:
        ppm = png + '.ppm'
        subprocess.run(['ffmpeg', '-v', 'error', '-y', '-nostdin', '-i', png, '-f', 'image2', '-c:v', 'ppm', ppm],
                       timeout=60, check=False)
        p = psnr(s, read_ppm(ppm)) if os.path.exists(ppm) else -1.0
        c.check(f'{g} ipc-screenshot', p >= 40,
                f'PSNR {p:.1f} dB screenshot-to-file vs the screendump of the rotated screen (>= 40); kiosk ctl: {ipc_log}')
    check_health(c, g, a)
    check_unplug(c, g, a)
    check_proof(c, g, a, shot)
    check_fleet(c, g, a)
    rot = read(os.path.join(a.results, 'rot.log'))
    c.check(f'{g} auto-picks-drm', '(auto: a connected display)' in rot and 'rotate 90' in rot,
            next((line for line in rot.splitlines() if 'output:' in line), 'no output line'))

    # (d) SIGTERM: exit 0 within 2 s (the promise; the stop watchdog ends a stuck loop at 1.5 s with 143, so exit 0
    # also says the clean path stopped it), the console is back. A 1 s bound failed at 1.01 s under TCG on CI.
    ex = read(os.path.join(a.results, 'play.exit')).split()
    if len(ex) == 3:
        rc, took = int(ex[0]), float(ex[1]) - float(ex[2])
        c.check(f'{g} sigterm', rc == 0 and took <= 2.0, f'exit {rc} {took:.2f} s after SIGTERM (0, <= 2 s)')
    else:
        c.check(f'{g} sigterm', False, 'no exit record')
    before, after = shot('console-before'), shot('console-after')
    if before is None or after is None:
        c.check(f'{g} console-restored', False, 'console screendumps missing')
    else:
        # The text written before kiosk started must be there, and be back pixel for pixel (kiosk puts the VT
        # in graphics mode and back to text after restoring the CRTC, which makes fbcon redraw it: on bochs,
        # QEMU's VGA clears video memory on the modeset, so the size alone would pass with a blank screen).
        counts = Counter(before[2][i:i + 3] for i in range(0, len(before[2]), 3))
        text = len(before[2]) // 3 - counts.most_common(1)[0][1]
        same_text = before == after
        c.check(f'{g} console-restored', text > 200 and same_text,
                f'{after[0]}x{after[1]} (before {before[0]}x{before[1]}), {text} text pixels before, '
                f"after {'identical' if same_text else 'differs'}")

    # (e) a new preferred mode (virtio-gpu, resized through VNC): kiosk sets it and keeps showing the item
    if g == 'virtio':
        s = shot('resized')
        rlog = read(os.path.join(a.results, 'resize.log'))
        line = next((x for x in rlog.splitlines() if 'display mode is now' in x), 'no mode change logged')
        if s is None:
            c.check(f'{g} new-mode', False, f'no screendump after the resize; {line}')
        else:
            p = psnr(s, ref('a-800x600'))
            c.check(f'{g} new-mode', s[:2] == (800, 600) and p >= 30,
                    f'screen {s[0]}x{s[1]} (800x600), PSNR {p:.1f} dB vs the 800x600 snapshot (>= 30); {line}')
        hot = next((x for x in rlog.splitlines() if 'display hotplug event' in x), None)
        c.check(f'{g} hotplug-event', hot is not None,
                hot or 'no udev hotplug event reached kiosk (only the timed poll saw the change)')
        rc = read(os.path.join(a.results, 'resize.exit'), 'none').strip()
        c.check(f'{g} new-mode-exit', rc == '0', f'exit {rc} after SIGTERM')

    # (e2) faults (virtio only): an ALSA card unbound under a playing clip, a media folder removed while playing
    if g == 'virtio':
        check_faults(c, g, a, shot, watch, stills)

    # (f) input through libinput (bochs only): synthetic uinput touchscreen and keyboard
    if g == 'bochs':
        check_input(c, g, a, shot, ref)

    # the DRM building blocks' own tests (DPMS, legacy commits, permissions): exit 0 and XCTest's own counts
    for name in ['xctest', 'xctest-nobody']:
        rc = read(os.path.join(a.results, name + '.rc'), 'none').strip()
        out = read(os.path.join(a.results, name + '.log'))
        m = re.findall(r'Executed (\d+) tests?, with (?:(\d+) tests? skipped and )?(\d+) failures?', out)
        executed, skipped, failures = (int(m[-1][0]), int(m[-1][1] or 0), int(m[-1][2])) if m else (0, -1, -1)
        c.check(f'{g} {name}', rc == '0' and executed == 1 and skipped == 0 and failures == 0,
                f'exit {rc}, executed {executed}, skipped {skipped}, failures {failures} (1, 0, 0)')
    print(f'{g}: {c.passed} passed, {c.failed} failed', flush=True)
    return c


if __name__ == '__main__':
    import sys
    r = main()
    sys.exit(1 if r.failed else 0)
