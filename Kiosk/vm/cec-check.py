#!/usr/bin/env python3
"""Checks the HDMI-CEC VM run (job written by cec-test.sh): the bus as `cec-ctl --monitor-all` saw it from the TV's
adapter, kiosk's log and IPC answers, cec-compliance's result, and screendumps against `kiosk snapshot`.

usage: cec-check.py --shots DIR --results DIR --fixtures DIR

Prints one line per check, `PASS name: detail` or `FAIL name: detail`, and a last line `N passed, M failed`.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check import Checks, read, read_ppm, psnr  # noqa: E402


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

    # (a) --cec auto took the output's adapter (cec1, 1.0.0.0), not the TV's own (cec0, 0.0.0.0), as a playback device
    claimed = re.search(r'cec: /dev/cec1 \(vivid\): playback device at logical address 4, physical 1\.0\.0\.0', log)
    c.check('cec-auto', bool(claimed) and 'cec: 2 adapters and none tied' in log,
            (claimed.group(0) if claimed else 'no claim line for /dev/cec1 at 4, 1.0.0.0') + '; of cec1 and cec2, the first')
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
    # (d) the TV's own standby pauses kiosk and nothing resumes it while the TV stays off; its return resumes
    before, during = (res('cec.playing-while-tv-off').split() + ['?', '?'])[:2]
    paused = 'paused (tv)' in log
    resumed = log.count('info: playing') > int(before) if before.isdigit() else False
    c.check('cec-tv-standby-pauses', paused and before == during and resumed,
            f'paused (tv): {paused}; "playing" lines {before} before and {during} 4 s into the TV\'s standby; resumed when it came back: {resumed}')
    # (e) the schedule's off window on the simulated clock: <Standby> to the TV, which then reports standby
    standby = re.findall(r'\(4 to 0\): STANDBY', bus)
    power_off = res('cec-power-off.txt').strip()
    status_off = res('cec-status-off.txt').strip()
    c.check('cec-off-window', 'cec: screen off: <Standby> sent to the TV' in log and len(standby) >= 1
            and power_off in ('standby', 'to-standby') and ('TV standby' in status_off or 'TV to-standby' in status_off),
            f'{len(standby)} <Standby> from kiosk on the bus; cec-power {power_off!r}; ctl status {status_off!r}')
    # (f) the next window: One Touch Play again and the TV back on, the screen showing the slideshow again
    power_on = res('cec-power-on.txt').strip()
    ok, detail = same('cec-on-again', 'a')
    c.check('cec-on-window', len(ivo) >= 2 and power_on == 'on' and ok,
            f'{len(ivo)} <Image View On> in all; cec-power {power_on!r}; {detail}')
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
