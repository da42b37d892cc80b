#!/usr/bin/env python3
"""Checks one VM run of `kiosk play` (job written by vm-test.sh) against `kiosk snapshot` references.

usage: check.py --gpu bochs|virtio --shots DIR --results DIR --fixtures DIR --duration S

Prints one line per check, `PASS name: detail` or `FAIL name: detail`, and a last line `N passed, M failed`.
Pure Python (no numpy): PPM screendumps and references, PSNR over RGB.
Exit status: 0 when every check passed.
"""
import argparse
import math
import os
import re


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
    rc = read(os.path.join(a.results, 'input.exit'), 'none').strip()
    c.check(f'{g} input-exit', rc == '0', f'exit {rc} after SIGTERM')


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

    # (a) the screen shows what `kiosk snapshot` renders, for two items
    for item in ['a', 'b']:
        s = shot('play-' + item)
        if s is None:
            c.check(f'{g} screen-{item}', False, f'no screendump play-{item}')
            continue
        p, other = psnr(s, ref(item)), psnr(s, ref('b' if item == 'a' else 'a'))
        c.check(f'{g} screen-{item}', p >= 30 and other < 30,
                f'PSNR {p:.1f} dB vs snapshot of {item} (>= 30), {other:.1f} dB vs the other item (< 30)')

    # (b) the slideshow advances on time
    log = read(os.path.join(a.results, 'play.log'))
    times = {}
    for m in re.finditer(r'showing (\S+) at ([0-9.]+) s', log):
        times.setdefault(os.path.basename(m.group(1)).split('.')[0], float(m.group(2)))
    if 'a' in times and 'b' in times:
        step = times['b'] - times['a']
        c.check(f'{g} advance', abs(step - a.duration) <= 0.25,
                f"b shown {step:.3f} s after a (slot {a.duration} s, +-0.25 s)")
    else:
        c.check(f'{g} advance', False, f'showing lines missing: {times}; log: {log[-400:]!r}')
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
    rot = read(os.path.join(a.results, 'rot.log'))
    c.check(f'{g} auto-picks-drm', '(auto: a connected display)' in rot and 'rotate 90' in rot,
            next((line for line in rot.splitlines() if 'output:' in line), 'no output line'))

    # (d) SIGTERM: exit 0 within 1 s, the console is back
    ex = read(os.path.join(a.results, 'play.exit')).split()
    if len(ex) == 3:
        rc, took = int(ex[0]), float(ex[1]) - float(ex[2])
        c.check(f'{g} sigterm', rc == 0 and took <= 1.0, f'exit {rc} {took:.2f} s after SIGTERM (0, <= 1 s)')
    else:
        c.check(f'{g} sigterm', False, 'no exit record')
    before, after = shot('console-before'), shot('console-after')
    if before is None or after is None:
        c.check(f'{g} console-restored', False, 'console screendumps missing')
    else:
        same_size = before[:2] == after[:2]
        # bochs: QEMU's VGA clears video memory when the driver enables the display and fbcon does not
        # redraw, so only the console's mode can come back there (see README.md).
        same_text = before[2] == after[2]
        ok = same_size and (same_text or g == 'bochs')
        c.check(f'{g} console-restored', ok, f'{after[0]}x{after[1]} (before {before[0]}x{before[1]}), '
                f"text {'identical' if same_text else 'differs'}")

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

    # (f) input through libinput (bochs only): synthetic uinput touchscreen and keyboard
    if g == 'bochs':
        check_input(c, g, a, shot, ref)

    # the DRM building blocks' own tests (DPMS, legacy commits, permissions)
    for name in ['xctest', 'xctest-nobody']:
        rc = read(os.path.join(a.results, name + '.rc'), 'none').strip()
        c.check(f'{g} {name}', rc == '0', f'exit {rc}')
    print(f'{g}: {c.passed} passed, {c.failed} failed', flush=True)
    return c


if __name__ == '__main__':
    import sys
    r = main()
    sys.exit(1 if r.failed else 0)
