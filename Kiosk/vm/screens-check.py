#!/usr/bin/env python3
"""Checks the two-screen VM run (job written by screens-test.sh): kiosk's log, and each head's screendump against
`kiosk snapshot` of its own picture at its mode's size (PSNR above 30 dB; screen b is 800x600 by its section's
drm-mode) and of the other screen's (lower).

usage: screens-check.py --shots DIR --results DIR --fixtures DIR

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
    log = read(os.path.join(a.results, 'play.log'))
    tail = log[-400:].replace('\n', ' | ')
    refs = {i: read_ppm(os.path.join(a.fixtures, f'{i}.ppm')) for i in ('a', 'c', 'a-800x600', 'c-800x600')}

    def shot(name):
        path = os.path.join(a.shots, f'{name}.ppm')
        return read_ppm(path) if os.path.exists(path) else None

    def shows(name, want, size=''):
        """The screendump `name` shows `want` (a or c): close to its snapshot (at `size`, e.g. `-800x600`, default
        the VM's), farther from the other's."""
        other = ('c' if want == 'a' else 'a') + size
        want += size
        s = shot(name)
        if s is None:
            c.check(name, False, f'no screendump {name}; {tail}')
            return
        p, q = psnr(s, refs[want]), psnr(s, refs[other])
        c.check(name, p > 30 and q < p, f'{s[0]}x{s[1]}: PSNR {p:.1f} dB against {want}, {q:.1f} dB against {other}')

    forced = read(os.path.join(a.results, 'status-forced'))
    c.check('head2-forced-on', 'rc 0' in forced and forced.split()[-1:] == ['connected'],
            f"before: {read(os.path.join(a.results, 'status-before')).strip()!r}, forced: {forced.strip()!r}; "
            f"kiosk outputs: {read(os.path.join(a.results, 'outputs.txt')).strip()!r}")
    outputs = re.findall(r'output: drm (\S+) (\S+) (\S+) .* for screen (\w+)', log)
    c.check('one-output-line-per-screen',
            [(o[1], o[2].split('@')[0], o[3]) for o in outputs] == [('Virtual-1', '640x480', 'a'), ('Virtual-2', '800x600', 'b')]
            and len({o[0] for o in outputs}) == 1,
            f'{outputs or "none"}' + ('' if outputs else f'; {tail}'))
    crtcs = re.findall(r'DRM output \S+ (\S+) \S+ on CRTC (\d+)', log)
    c.check('a-crtc-each', len(crtcs) == 2 and crtcs[0][1] != crtcs[1][1], f'{crtcs or "none"}')
    shows('both-head0', 'a')
    shows('both-head1', 'c', '-800x600')
    c.check('head2-off-one-line', log.count('display on Virtual-2 disconnected') == 1
            and 'display on Virtual-1 disconnected' not in log, tail)
    shows('off-head0', 'a')
    c.check('head2-back', 'display on Virtual-2 is back' in log, tail)
    shows('back-head1', 'c', '-800x600')
    exit_line = read(os.path.join(a.results, 'play.exit')).split()
    c.check('play-exit', exit_line[:2] == ['0', '1'],
            f'exit {exit_line or "missing"} (status, alive at the end); {tail}')
    print(f'{c.passed} passed, {c.failed} failed')
    return 0 if c.failed == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
