#!/usr/bin/env python3
"""Checks the HDMI-CEC VM run (job written by cec-test.sh): the bus as `cec-ctl --monitor-all` saw it from the TV's
adapter, kiosk's log and IPC answers, cec-compliance's result, and screendumps against `kiosk snapshot`.

usage: cec-check.py --shots DIR --results DIR --fixtures DIR

Prints one line per check, `PASS name: detail` or `FAIL name: detail`, and a last line `N passed, M failed`.
"""
import argparse
import os
import re
import sqlite3
import sys

import fleet_view

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check import Checks, read, read_ppm, psnr  # noqa: E402


MESSAGE = re.compile(r'^(?:Transmitted by|Received from) .*?\((\d+) to (\d+)\): (\w+)')


def bus_messages(text):
    """The messages `cec-ctl --monitor-all` printed, as (line, from, to, opcode, power state or None). A message
    the adapter sent is printed twice (sent, then its Tx status): only the first is kept."""
    out, lines = [], text.splitlines()
    for i, line in enumerate(lines):
        m = MESSAGE.match(line)
        if not m:
            continue
        state = None
        if m.group(3) == 'REPORT_POWER_STATUS' and i + 1 < len(lines):
            s = re.search(r'pwr-state: ([\w-]+)', lines[i + 1])
            state = s.group(1) if s else None
        msg = (i + 1, int(m.group(1)), int(m.group(2)), m.group(3), state)
        if out and out[-1][1:] == msg[1:] and 'Tx,' in (lines[i + 1] if i + 1 < len(lines) else ''):
            continue
        out.append(msg)
    return out


def tv_states(messages):
    """The power states the TV (logical address 0) reported, in order, repeats folded."""
    states = [m[4] for m in messages if m[1] == 0 and m[3] == 'REPORT_POWER_STATUS' and m[4]]
    return [x for i, x in enumerate(states) if i == 0 or states[i - 1] != x]


def first(messages, src, dst, opcode):
    """The index of the first message `opcode` from `src` to `dst`, or None."""
    return next((i for i, m in enumerate(messages) if m[1:4] == (src, dst, opcode)), None)


def screens(a, c):
    """Several screens (issue 40): a headless kiosk of screens a (cec1, TV A on cec0), b (its section's cec4, TV B on
    cec3, on the second vivid's bus) and c (cec1 too: refused). Four checks."""
    log = read(os.path.join(a.results, 'screens.log'))

    def res(name):
        return read(os.path.join(a.results, name))

    steps = {}
    for line in res('screens.steps').splitlines():
        f = line.split()
        if len(f) == 5:
            steps[f[1]] = (int(f[2]), int(f[3]), int(f[4]))
    bus_a, bus_b = bus_messages(res('screens-monitor-a.log')), bus_messages(res('screens-monitor-b.log'))

    def between(start, end):
        """Bus A's and bus B's messages and kiosk's log from step `start`'s mark to step `end`'s."""
        a0, b0, l0 = steps.get(start, (0, 0, 0))
        a1, b1, l1 = steps.get(end, (None, None, None))
        return ([m for m in bus_a if m[0] > a0 and (a1 is None or m[0] <= a1)],
                [m for m in bus_b if m[0] > b0 and (b1 is None or m[0] <= b1)],
                '\n'.join(log.splitlines()[l0:l1]))

    def probed(name):
        s = re.search(r'pwr-state: ([\w-]+)', res(name))
        return s.group(1) if s else None

    # (s1) each screen its own adapter on its own bus, c refused in one line, and One Touch Play on each bus
    adapters = res('screens-adapters.txt')
    buses = re.findall(r'Adapter Name\s*: (vivid-\d+)', adapters)
    claim_a = re.search(r'screen a: cec: /dev/cec1 \(vivid\): playback device at logical address (\d+), physical 1\.0\.0\.0', log)
    claim_b = re.search(r'screen b: cec: /dev/cec4 \(vivid\): playback device at logical address (\d+), physical 1\.0\.0\.0', log)
    la_a, la_b = (int(m.group(1)) if m else 4 for m in (claim_a, claim_b))
    refused = [ln for ln in log.splitlines() if 'screen c: cec:' in ln]
    otp = [first(bus, la, 0, 'IMAGE_VIEW_ON') is not None and first(bus, la, 15, 'ACTIVE_SOURCE') is not None
           for bus, la in ((bus_a, la_a), (bus_b, la_b))]
    c.check('cec-screens-adapters', bool(claim_a) and bool(claim_b) and len(refused) == 1
            and refused[0].endswith("screen c: cec: /dev/cec1 is screen a's already: the screen's power is DPMS alone")
            and otp == [True, True] and len(set(buses)) == 2,
            f'a on cec1 at {la_a}: {bool(claim_a)}, b on cec4 at {la_b}: {bool(claim_b)}; c: {refused}; '
            f'One Touch Play on bus A, B: {otp}; '
            f'vivid instances: {sorted(set(buses))}')
    # (s2) TV B's right key moves b (a.png to b.png) and nothing else
    _, _, said = between('keys', 'b-off')
    shown = re.findall(r'screen (\w+): showing (\S+)', said)
    keys = re.findall(r'screen (\w+): cec: key (\w[\w-]*) from 0', said)
    c.check('cec-screens-remote', keys == [('b', 'right')] and shown == [('b', f'{a.fixtures}/b.png')],
            f'keys heard after the mark: {keys}; shown: {shown}')
    # (s3) b's screen off (its socket): <Standby> to TV B, TV B reports standby and says so when probed; TV A hears
    # no <Standby> and says it is on; each screen's cec-power is its own TV's
    off_a, off_b, said = between('b-off', 'b-on')
    sent = first(off_b, la_b, 0, 'STANDBY')
    replies = tv_states(off_b[sent + 1:]) if sent is not None else []
    standby_a = first(off_a, la_a, 0, 'STANDBY')
    probe_a, probe_b = probed('screens-probe-a-off.txt'), probed('screens-probe-b-off.txt')
    power_a, power_b = res('screens-power-a-off.txt').strip(), res('screens-power-b-off.txt').strip()
    c.check('cec-screens-off', sent is not None and bool(replies) and set(replies) <= {'to-standby', 'standby'}
            and standby_a is None and probe_a == 'on' and probe_b in ('standby', 'to-standby')
            and power_a == 'on' and power_b in ('standby', 'to-standby') and 'screen a: cec: screen off' not in said,
            f'<Standby> on bus B: {sent is not None}, TV B then {replies or "nothing"}; on bus A: {standby_a is not None}; '
            f'probed: TV A {probe_a}, TV B {probe_b}; cec-power: a {power_a!r}, b {power_b!r}')
    # (s4) b's screen on: <Image View On> to TV B, which ends on; kiosk exits 0 on SIGTERM
    _, on_b, _ = between('b-on', 'end')
    sent = first(on_b, la_b, 0, 'IMAGE_VIEW_ON')
    replies = tv_states(on_b[sent + 1:]) if sent is not None else []
    power_b, probe_b = res('screens-power-b-on.txt').strip(), probed('screens-probe-b-on.txt')
    exit_status = res('screens.exit').strip()
    c.check('cec-screens-on', sent is not None and bool(replies) and replies[-1] == 'on' and power_b == 'on'
            and probe_b == 'on' and exit_status == '0',
            f'<Image View On> on bus B: {sent is not None}, TV B then {replies or "nothing"}; b\'s cec-power {power_b!r}, '
            f'probed {probe_b}; exit {exit_status!r}')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--shots', required=True)
    ap.add_argument('--results', required=True)
    ap.add_argument('--fixtures', required=True)
    a = ap.parse_args()
    c = Checks()
    log = read(os.path.join(a.results, 'cec.log'))
    bus = read(os.path.join(a.results, 'cec-monitor.log'))

    def res(name):
        return read(os.path.join(a.results, name))

    def same(name, item):
        p = os.path.join(a.shots, name + '.ppm')
        if not os.path.exists(p):
            return False, f'no screendump {name}'
        s = read_ppm(p)
        mine = psnr(s, read_ppm(os.path.join(a.fixtures, item + '.ppm')))
        other = psnr(s, read_ppm(os.path.join(a.fixtures, ('b' if item == 'a' else 'a') + '.ppm')))
        return mine >= 30 and other < 30, f'{name}: PSNR {mine:.1f} dB vs snapshot of {item} (>= 30), {other:.1f} vs the other (< 30)'

    steps = {}
    for line in res('cec.steps').splitlines():
        f = line.split()
        if len(f) == 4:
            steps[f[1]] = (int(f[2]), int(f[3]))
    messages = bus_messages(bus)

    def between(start, end):
        """What the bus and kiosk's log held from step `start`'s mark to step `end`'s (to the end without it)."""
        b0, l0 = steps.get(start, (0, 0))
        b1, l1 = steps.get(end, (None, None))
        return {'bus': [m for m in messages if m[0] > b0 and (b1 is None or m[0] <= b1)],
                'log': '\n'.join(log.splitlines()[l0:l1])}

    def darkness(name):
        p = os.path.join(a.shots, name + '.ppm')
        if not os.path.exists(p):
            return False, f'no screendump {name}'
        w, h, px = read_ppm(p)
        mean = sum(px) / max(1, len(px))
        return mean < 8, f'{name}: mean level {mean:.1f} (< 8: dark)'

    screens(a, c)
    # (a) --cec auto took the output's adapter (cec1, 1.0.0.0), not the TV's own (cec0, 0.0.0.0), as a playback device:
    # the first of the four outputs' (cec1, cec2, and cec4, cec5 on the second vivid's bus)
    claimed = re.search(r'cec: /dev/cec1 \(vivid\): playback device at logical address 4, physical 1\.0\.0\.0', log)
    c.check('cec-auto', bool(claimed) and 'cec: 4 adapters and none tied' in log,
            (claimed.group(0) if claimed else 'no claim line for /dev/cec1 at 4, 1.0.0.0') + '; of cec1, cec2, cec4 and cec5, the first')
    # (b) One Touch Play at start: <Image View On> to the TV, then <Active Source> 1.0.0.0 to all, as the TV saw them
    ivo = [m.start() for m in re.finditer(r'\(4 to 0\): IMAGE_VIEW_ON', bus)]
    src = [m.start() for m in re.finditer(r'\(4 to 15\): ACTIVE_SOURCE \(0x82\):\s*phys-addr: 1\.0\.0\.0', bus)]
    c.check('cec-one-touch-play', bool(ivo) and bool(src) and ivo[0] < src[0],
            f'{len(ivo)} <Image View On>, {len(src)} <Active Source> 1.0.0.0 on the bus; the TV then reported on: '
            f'{"cec: the TV is on" in log}')
    # (c) the TV's remote: right shows b, left shows a again, each as kiosk snapshot draws it
    for name, item in [('cec-a', 'a'), ('cec-b', 'b'), ('cec-a-again', 'a')]:
        ok, detail = same(name, item)
        c.check(f'cec-remote-{name}', ok, detail)
    keys = re.findall(r'cec: key (\w[\w-]*) from 0', log)
    c.check('cec-remote-keys', keys[:2] == ['right', 'left'], f'keys kiosk heard from the TV: {keys}')
    # (d) the TV's own standby pauses kiosk: after the step's mark the TV reports standby on the bus, kiosk says it
    # paused, shows nothing new, and the screen holds b past its 8 s slot (two screendumps 10 s apart)
    standby = between('tv-standby', 'tv-back')
    said = standby['log']
    tv = tv_states(standby['bus'])
    ok1, d1 = same('cec-standby-1', 'b')
    ok2, d2 = same('cec-standby-2', 'b')
    c.check('cec-tv-standby-pauses', bool(set(tv) & {'standby', 'to-standby'}) and 'paused (tv)' in said
            and 'showing ' not in said and ok1 and ok2,
            f'the TV reported {tv or "nothing"}; kiosk after the mark: paused (tv) {"paused (tv)" in said}, '
            f'{said.count("showing ")} items shown; {d1}; {d2}')
    # (d2) the TV comes back and asks for the source: kiosk resumes and the slideshow goes on to a
    back = between('tv-back', 'compliance')['log']
    ok, detail = same('cec-resumed', 'a')
    c.check('cec-tv-back-resumes', 'info: playing' in back and f'showing {a.fixtures}/a.png' in back and ok,
            f'kiosk after the mark: playing {"info: playing" in back}, a shown {f"showing {a.fixtures}/a.png" in back}; {detail}')
    # (d3) the health alert tv-standby (issue 41, docs/health.md): the TV in standby while the player has the screen on
    # (paused is not off) is raised once in the standby step, not before it, and cleared once after the TV is back;
    # each a line of its own (a raise is a warn line, a clear an info line)
    def alert_lines(text, edge):
        return [ln for ln in text.splitlines() if f'health: {edge} tv-standby (' in ln]
    before = between('start', 'tv-standby')['log']
    raised = alert_lines(said, 'raised')
    c.check('cec-tv-standby-alert-raised', len(raised) == 1 and 'warn: health: raised tv-standby' in raised[0]
            and not alert_lines(before, 'raised') and not alert_lines(said, 'cleared'),
            f'{len(raised)} raise line(s) in the standby step (1 wanted): {raised}; before it {len(alert_lines(before, "raised"))} '
            f'(0 wanted); clears in the step {len(alert_lines(said, "cleared"))} (0 wanted); '
            f'health rounds on: {"health: every 0.5 s" in log}')
    cleared, again = alert_lines(back, 'cleared'), alert_lines(back, 'raised')
    c.check('cec-tv-back-alert-cleared', len(cleared) == 1 and 'info: health: cleared tv-standby' in cleared[0] and not again,
            f'{len(cleared)} clear line(s) after the TV came back (1 wanted): {cleared}; raised again: {len(again)} (0 wanted)')
    # the schedule's off window: the screen is off, so a TV in standby then is no alert ("opening hours")
    window = between('wait-off', 'wait-on')['log']
    c.check('cec-off-window-no-alert', not alert_lines(window, 'raised') and 'cec: screen off' in window,
            f'tv-standby raised in the off window: {alert_lines(window, "raised") or "never"}; '
            f'screen off said: {"cec: screen off" in window}')
    # (d4) proof of display (issue 41, docs/proof-of-play.md): the play log's showings in order. a, b, a on a TV that
    # was on: seen, cec on (the first may have begun before CEC's first report: unknown, still seen); then b, on screen when the TV went to standby by itself: tv-standby (its worst moment);
    # and later the one the schedule's off window turned the screen off under: screen-off (the screen off comes first:
    # not tv-standby). (The showing right after the TV came back may be tv-standby: a woken cec-follower has said on,
    # standby, to-on, on within seconds.)
    try:
        db = sqlite3.connect(os.path.join(a.results, 'cec.sqlite'))
        rows = [(os.path.basename(p).split('.')[0], v, cp) for p, v, cp in
                db.execute('SELECT path, verdict, cec_power FROM showings ORDER BY id').fetchall()]
        db.close()
    except sqlite3.Error as e:
        rows = [('error', str(e), '')]
    got = [(n, v) for n, v, _ in rows]
    ok = (got[:4] == [('a', 'seen'), ('b', 'seen'), ('a', 'seen'), ('b', 'tv-standby')]
          and rows[0][2] in ('on', 'unknown') and all(cp == 'on' for _, _, cp in rows[1:3])
          and rows[3][2] in ('standby', 'to-standby')
          and any(v == 'screen-off' for _, v in got[4:]))
    c.check('cec-proof-verdicts', ok, f'showings (name, verdict, cec_power): {rows}')
    # (d5) the fleet view (issue 41): kiosk fleet --json against the broker in the guest shows cec-screen online with
    # the tv-standby alert within 60 s of the TV's standby
    took = fleet_view.seconds(res('fleet.steps')).get('standby')
    state, kinds, roster = fleet_view.kiosk(res('fleet-standby.json'), 'cec-screen')
    ok = state == 'online' and 'tv-standby' in kinds and took is not None and took <= 60
    c.check('cec-fleet-standby', ok,
            f'cec-screen {state or "missing"} with alerts {kinds} (tv-standby wanted) '
            f'{took if took is None else round(took, 1)} s after the standby (<= 60)'
            + ('' if ok else f'; {res("fleet.err")[-200:]!r} {res("mosquitto.log")[-200:]!r}; roster {str(roster)[:300]}'))
    # (e) the schedule's off window on the simulated clock: kiosk sends <Standby>, and the TV's own power status
    # replies after it are all on the way to standby or in it, never on (cec-follower's answers, in order: it may
    # still say to-standby when the window's checks are done; a CI run saw only that); the screen is dark.
    # kiosk's own account (cec-power, ctl status) is judged alongside.
    off = between('wait-off', 'wait-on')['bus']
    sent = first(off, 4, 0, 'STANDBY')
    replies = tv_states(off[sent + 1:]) if sent is not None else []
    power_off = res('cec-power-off.txt').strip()
    status_off = res('cec-status-off.txt').strip()
    dark, dark_detail = darkness('cec-off')
    c.check('cec-off-window', sent is not None and bool(replies) and set(replies) <= {'to-standby', 'standby'}
            and dark and power_off in ('standby', 'to-standby') and ('TV standby' in status_off or 'TV to-standby' in status_off),
            f'<Standby> from kiosk on the bus: {sent is not None}; the TV replied {replies or "nothing"} after it; {dark_detail}; '
            f'kiosk: cec-power {power_off!r}, ctl status {status_off!r}')
    # (f) the next window: kiosk sends <Image View On>, the TV's replies after it go to on and end there, and the
    # screen shows the slideshow again
    on = between('wait-on', 'unbind')['bus']
    sent = first(on, 4, 0, 'IMAGE_VIEW_ON')
    replies = tv_states(on[sent + 1:]) if sent is not None else []
    power_on = res('cec-power-on.txt').strip()
    ok, detail = same('cec-on-again', 'a')
    c.check('cec-on-window', sent is not None and bool(replies) and replies[-1] == 'on'
            and 'standby' not in replies and power_on == 'on' and ok,
            f'<Image View On> from kiosk on the bus: {sent is not None}; the TV replied {replies or "nothing"} after it; '
            f'kiosk: cec-power {power_on!r}; {detail}')
    # (g) cec-compliance from the TV's adapter against kiosk: no failures
    comp = res('cec-compliance.log')
    total = re.search(r'Total for .*?: (\d+), Succeeded: (\d+), Failed: (\d+), Warnings: (\d+)', comp)
    c.check('cec-compliance', bool(total) and total.group(3) == '0' and 'rc 0' in comp,
            total.group(0) if total else 'no summary: ' + comp[-300:].replace('\n', ' | '))
    # (h) the adapter goes away: one line, and kiosk plays on (a remote's next shows b)
    gone = log.count('went away')
    ok, detail = same('cec-after-unbind', 'b')
    exit_line = res('cec.exit').split()
    c.check('cec-adapter-gone', gone == 1 and ok and exit_line == ['0', '1'],
            f'{gone} "went away" line(s); {detail}; exit status and alive: {exit_line}')
    print(f'{c.passed} passed, {c.failed} failed')
    return 0 if c.failed == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
