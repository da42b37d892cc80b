#!/usr/bin/env python3
"""Checks the two-screen VM run (job written by screens-test.sh): kiosk's log, and each head's screendump against
`kiosk snapshot` of its own picture at its mode's size (PSNR above 30 dB; screen b is 800x600 by its section's
drm-mode) and of the other screen's (lower). Then the span (issue 40): one canvas of 1280x480 across both heads
(`--screen w:Virtual-1+Virtual-2:span.mp4`), judged by pairs of screendumps taken while the VM stood still
(vm.py's `screendump-pair`): each half carries the clip's frame number as a binary code (frame lock: both heads
show the same frame at every pair; it plays: at least 3 frames), and head 0 | head 1 side by side is ffmpeg's own
decode of that frame (seamless: each half's luma PSNR at least SPAN_DB against its half of the frame, while the
same frame with a half shifted by 8 px, or the left half in place of the right, must stay below SPAN_DB, checked
on every frame used).

usage: screens-check.py --shots DIR --results DIR --fixtures DIR [--span-pairs N]
       screens-check.py --make-span-clip OUT.mp4     (the span's clip; screens-test.sh makes it with this)
       screens-check.py --selftest [--kiosk PATH]    (the span checks on made-up pairs, with the cases that must fail)

Prints one line per check, `PASS name: detail` or `FAIL name: detail`, and a last line `N passed, M failed`.
"""
import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check import Checks, crop, read, read_ppm, psnr  # noqa: E402

# The span's clip: 1280x480 (two 640x480 heads), 5 fps, 8 s, testsrc2 underneath (bars, a gradient bar across the
# seam, moving shapes). Each half carries the frame number n at the same place: 8 bits, least significant first,
# each a 64x64 cell from x = CODE_X + 64 k, y = CODE_Y of the half, white for 1; the row below holds the complement,
# so a clean code needs every cell clearly black or white and its pair the opposite.
SPAN_W, SPAN_H, HEAD_W = 1280, 480, 640
SPAN_FPS, SPAN_SECONDS = 5, 8
CODE_X, CODE_Y, CELL, CODE_BITS = 64, 176, 64, 8
SHIFT = 8  # px: the negative control's wrong offset (a head's source x off by 8, a bezel where there is none)
# A half matches its half of ffmpeg's frame when the PSNR of their luma (BT.601 weights) is at least SPAN_DB.
# Luma, not RGB: kiosk's conversion upsamples the 4:2:0 chroma differently from ffmpeg's, which costs RGB PSNR at
# every vertical edge between saturated bars (kiosk snapshot's render of this clip against ffmpeg's decode: RGB
# 28.1-30.3 dB per half, a thin margin over a shift's 16 dB) but not luma, while a shift moves luma edges as much
# as colour ones. Measured with `--selftest --kiosk` (2026-12-07, all 40 frames, luma): kiosk snapshot's render
# (the GL pipeline play uses, on llvmpipe) against ffmpeg's decode 44.5-46.3 dB per half; the controls 15.1-22.3
# dB (a half 8 px off either way; 22.3 is head 1 from x 648 on frames whose code starts with white cells), the
# left half for the right 15.2-16.1 dB. 30 dB lies 14 dB under the one and 8 dB over the other. The first VM run
# of the span (kiosk at fa3e23e, 12 halves): 43.1 dB at worst (RGB 27.6 dB).
SPAN_DB = 30.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--shots', required=True)
    ap.add_argument('--results', required=True)
    ap.add_argument('--fixtures', required=True)
    ap.add_argument('--span-pairs', type=int, default=6, help='the screendump pairs span-1..N the job took')
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
    span_checks(c, a.shots, a.results, os.path.join(a.fixtures, 'span.mp4'), a.span_pairs)
    legacy_checks(c, a.shots, a.results, os.path.join(a.fixtures, 'span.mp4'))
    mirror_checks(c, shot, refs['a'], read(os.path.join(a.results, 'mirror.log')), read(os.path.join(a.results, 'mirror.exit')))
    touch_checks(c, read(os.path.join(a.results, 'touch.log')), read(os.path.join(a.results, 'touch.exit')))
    print(f'{c.passed} passed, {c.failed} failed')
    return 0 if c.failed == 0 else 1


def legacy_checks(c, shots, results, clip):
    """The span with `--drm-commit legacy`: its output line says legacy, one warning line says the CRTCs flip each on
    its own, kiosk ran to the TERM; and each head of the pairs `legacy-K` is its half of ffmpeg's frame of the code
    it shows (seamless; the two heads may show different frames for a vblank, so frame lock is not asked)."""
    log = read(os.path.join(results, 'legacy.log'))
    tail = log[-300:].replace('\n', ' | ') or 'no legacy.log'
    said = [l for l in log.splitlines() if 'legacy commits flip each CRTC on its own' in l]
    out = [l for l in log.splitlines() if 'output: drm' in l and 'Virtual-1+Virtual-2' in l and ' legacy span ' in l]
    exit_line = read(os.path.join(results, 'legacy.exit')).split()
    c.check('span-legacy-says-so', len(said) == 1 and len(out) == 1 and exit_line[:2] == ['0', '1'] and not log_errors(log),
            f'{len(said)} warning line(s), {len(out)} legacy span output line(s), exit {exit_line or "missing"}; {said or tail}')

    def shot(name):
        path = os.path.join(shots, f'{name}.ppm')
        return read_ppm(path) if os.path.exists(path) else None
    pairs = [(f'legacy-{k}', shot(f'legacy-{k}-head0'), shot(f'legacy-{k}-head1')) for k in (1, 2)]
    seamless = [(ok, detail) for name, ok, detail in judge_span(pairs, clip) if name == 'span-seamless']
    ok, detail = seamless[0] if seamless else (False, 'not judged')
    c.check('span-legacy-seamless', ok, detail)


def mirror_checks(c, shot, ref, log, exit_text):
    """The mirror: one output line naming both connectors as a mirror, and both heads of the pair `mirror` showing
    a's snapshot (PSNR above 30 dB each) and each other (above 40 dB: one buffer scanned out twice)."""
    lines = [l for l in log.splitlines() if 'output: drm' in l]
    c.check('mirror-output-line', len(lines) == 1 and 'Virtual-1,Virtual-2' in lines[0] and ' mirror' in lines[0]
            and exit_text.split()[:2] == ['0', '1'], f'{lines or log[-300:]!r}; exit {exit_text.split() or "missing"}')
    h0, h1 = shot('mirror-head0'), shot('mirror-head1')
    if h0 is None or h1 is None:
        c.check('mirror-both-heads', False, f'missing dumps (head0 {h0 is not None}, head1 {h1 is not None})')
        return
    p0, p1, same = psnr(h0, ref), psnr(h1, ref), psnr(h0, h1)
    c.check('mirror-both-heads', p0 > 30 and p1 > 30 and same > 40,
            f'PSNR against a: head 0 {p0:.1f} dB, head 1 {p1:.1f} dB; head 0 against head 1 {same:.1f} dB')


def touch_checks(c, log, exit_text):
    """Touch by udev's WL_OUTPUT: the touchscreen routed to screen b by its WL_OUTPUT line; its swipe stepped b to
    2-a.png while a showed a.png once; the keyboard's space paused a, not b; kiosk ran to the TERM."""
    tail = log[-300:].replace('\n', ' | ')
    routed = [l for l in log.splitlines() if 'is screen b\'s: udev WL_OUTPUT=Virtual-2' in l]
    c.check('touch-routed-by-wl-output', len(routed) == 1, f'{routed or tail}')
    a_shows = [l for l in log.splitlines() if 'screen a: showing' in l]
    b_steps = [l for l in log.splitlines() if re.search(r'screen b: showing .*2-a\.png', l)]
    c.check('touch-swipe-steps-its-screen', len(b_steps) >= 1 and len(a_shows) == 1,
            f'screen b stepped to 2-a.png: {len(b_steps)} line(s); screen a showed {len(a_shows)} time(s) (1 wanted); {tail}')
    paused = [l for l in log.splitlines() if 'paused (user)' in l]
    c.check('keys-stay-with-the-first-screen', bool(paused) and all('screen a:' in l for l in paused),
            f'{paused or tail}')
    c.check('touch-exit', exit_text.split()[:2] == ['0', '1'], f'exit {exit_text.split() or "missing"}; {tail}')


def span_checks(c, shots, results, clip, count):
    """The span's six checks: its output line, a clean log, exit 0 on SIGTERM, frame lock, it plays, seamless."""
    log = read(os.path.join(results, 'span.log'))
    tail = log[-400:].replace('\n', ' | ') or 'no span.log'
    spans = re.findall(r'^.*output:.*Virtual-1\+Virtual-2.*$', log, re.M)
    c.check('span-output-line', len(spans) == 1,
            f'{len(spans)} output lines naming Virtual-1+Virtual-2 (1 wanted): {spans or tail}; '
            f'Virtual-2 before it: {read(os.path.join(results, "span-status")).strip() or "unknown"}')
    bad = log_errors(log)
    c.check('span-log-clean', bool(log) and not bad,
            (f'{len(bad)} error lines: {" | ".join(bad[:4])}' if bad else 'no error or crash lines' if log else 'no span.log')
            + f'; its span lines: {" | ".join(read(os.path.join(results, "span-lines.txt")).splitlines()[:6]) or "none"}')
    exit_line = read(os.path.join(results, 'span.exit')).split()
    c.check('span-exit', exit_line[:2] == ['0', '1'],
            f'exit {exit_line or "missing"} (status, alive at the end); {tail}')

    def shot(name):
        path = os.path.join(shots, f'{name}.ppm')
        return read_ppm(path) if os.path.exists(path) else None
    pairs = [(f'span-{k}', shot(f'span-{k}-head0'), shot(f'span-{k}-head1')) for k in range(1, count + 1)]
    for name, ok, detail in judge_span(pairs, clip):
        c.check(name, ok, detail)


CRASH = re.compile(r'fatal error|crash|segmentation fault|illegal instruction|aborted|core dumped|'
                   r'stack dump|trace/breakpoint|panic', re.I)


def log_errors(log):
    """The lines of a play log that tell an error or a crash: kiosk's `error:` lines and its lines without a level
    (usage errors, `kiosk: --screen: ...`), and a crash's words from anyone."""
    out = []
    for line in log.splitlines():
        m = re.match(r'(<\d>)?kiosk: (\w+):', line)
        if (line.startswith('kiosk: ') and not (m and m.group(2) in ('info', 'warn', 'debug'))) or CRASH.search(line):
            out.append(line.strip())
    return out


def span_code(img):
    """The frame number in a 640x480 half (w, h, RGB bytes), or None when it holds no clean code: every cell's middle
    32x32 averages clearly white (> 185) or black (< 70) in luma, and the cell below it the opposite."""
    w, h, px = img
    if w < CODE_X + CELL * CODE_BITS or h < CODE_Y + 2 * CELL:
        return None

    def cell(x0, y0):
        total = n = 0
        for y in range(y0 + CELL // 4, y0 + 3 * CELL // 4, 2):
            row = px[(y * w + x0 + CELL // 4) * 3:(y * w + x0 + 3 * CELL // 4) * 3]
            total += sum(row[0::6]) * 299 + sum(row[1::6]) * 587 + sum(row[2::6]) * 114
            n += len(row[0::6])
        return total / n / 1000
    value = 0
    for k in range(CODE_BITS):
        top, bottom = cell(CODE_X + CELL * k, CODE_Y), cell(CODE_X + CELL * k, CODE_Y + CELL)
        if not ((top > 185 and bottom < 70) or (top < 70 and bottom > 185)):
            return None
        value |= (top > 185) << k
    return value


def luma(img):
    """(w, h, luma bytes) of a (w, h, RGB bytes) image, BT.601 weights: a one-channel image psnr() takes."""
    w, h, px = img
    return w, h, bytes(map(lambda r, g, b: (r * 299 + g * 587 + b * 114 + 500) // 1000, px[0::3], px[1::3], px[2::3]))


def halves(img):
    """The left and right 640 px of a 1280x480 picture."""
    return crop(img, {'x': 0, 'y': 0, 'width': HEAD_W, 'height': SPAN_H}), \
        crop(img, {'x': HEAD_W, 'y': 0, 'width': HEAD_W, 'height': SPAN_H})


def shifted(img, x):
    """A head's view of a 1280x480 frame from source x `x`, 640 px wide, the edge column repeated past the frame."""
    w, h, px = img
    rows = []
    for y in range(h):
        row = px[y * w * 3:(y + 1) * w * 3]
        part = row[max(0, x) * 3:min(w, x + HEAD_W) * 3]
        part = row[:3] * max(0, -x) + part + row[-3:] * max(0, x + HEAD_W - w)
        rows.append(part)
    return HEAD_W, h, b''.join(rows)


def controls(frame):
    """{name: luma PSNR} of the wrong views of a frame against the right ones: each must stay below SPAN_DB."""
    left, right = (luma(h) for h in halves(frame))
    return {f'left{SHIFT:+d}': psnr(luma(shifted(frame, SHIFT)), left),
            f'right{-SHIFT:+d}': psnr(luma(shifted(frame, HEAD_W - SHIFT)), right),
            f'right{SHIFT:+d}': psnr(luma(shifted(frame, HEAD_W + SHIFT)), right),
            'right=left': psnr(left, right)}


def make_span_clip(path):
    """Writes the span's clip (see CODE_X): testsrc2 with the code block overlaid in both halves, h264 yuv420p."""
    bit = f'mod(floor(N/pow(2\\,floor(X/{CELL})))\\,2)'
    code = (f"color=black:size={CELL * CODE_BITS}x{2 * CELL}:rate={SPAN_FPS}:duration={SPAN_SECONDS},format=gray,"
            f"geq=lum='255*if(lt(Y\\,{CELL})\\,{bit}\\,1-{bit})'")
    subprocess.run(['ffmpeg', '-v', 'error', '-nostdin', '-y',
                    '-f', 'lavfi', '-i', f'testsrc2=size={SPAN_W}x{SPAN_H}:rate={SPAN_FPS}:duration={SPAN_SECONDS}',
                    '-f', 'lavfi', '-i', code, '-filter_complex',
                    f'[1]split[c0][c1];[0][c0]overlay={CODE_X}:{CODE_Y}[t];[t][c1]overlay={HEAD_W + CODE_X}:{CODE_Y},'
                    'format=yuv420p', '-c:v', 'libx264', '-g', str(SPAN_FPS), '-pix_fmt', 'yuv420p', path], check=True)


def clip_frames(clip, wanted=None):
    """{n: (1280, 480, RGB bytes)} of ffmpeg's own decode of the clip's frames n in `wanted` (all when None), and the
    number of frames it has."""
    size = SPAN_W * SPAN_H * 3
    proc = subprocess.Popen(['ffmpeg', '-v', 'error', '-nostdin', '-i', clip, '-vsync', 'passthrough',
                             '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], stdout=subprocess.PIPE)
    frames, n = {}, 0
    while True:
        data = proc.stdout.read(size)
        if len(data) < size:
            break
        if wanted is None or n in wanted:
            frames[n] = (SPAN_W, SPAN_H, data)
        n += 1
    proc.wait()
    if proc.returncode != 0:
        raise OSError(f'ffmpeg could not decode {clip} (exit {proc.returncode})')
    return frames, n


def judge_span(pairs, clip, db=SPAN_DB):
    """[(name, ok, detail)] of span-frame-lock, span-plays and span-seamless for `pairs`: [(name, head 0, head 1)],
    each head a (w, h, RGB bytes) screendump or None when missing; `clip` the clip they show."""
    codes = [(n, span_code(h0) if h0 else None, span_code(h1) if h1 else None) for n, h0, h1 in pairs]
    missing = [n for n, h0, h1 in pairs if h0 is None or h1 is None]
    sizes = sorted({f'{h[0]}x{h[1]}' for _, h0, h1 in pairs for h in (h0, h1) if h})
    told = ', '.join(f'{n[5:] if n.startswith("span-") else n}: {"?" if a is None else a}|{"?" if b is None else b}'
                     for n, a, b in codes)
    locked = bool(pairs) and not missing and all(a is not None and a == b for _, a, b in codes)
    out = [('span-frame-lock', locked, f'codes head0|head1 at each pair, ? for none ({told or "no pairs"})'
            + (f'; missing dumps: {" ".join(missing)}' if missing else '') + f'; dump sizes {" ".join(sizes) or "none"}')]
    distinct = [len({c[i] for c in codes if c[i] is not None}) for i in (1, 2)]
    out.append(('span-plays', min(distinct) >= 3,
                f'{distinct[0]} different frames on head 0, {distinct[1]} on head 1 (>= 3 each) over {len(pairs)} pairs'))
    wanted = {c for _, a, b in codes for c in (a, b) if c is not None}
    try:
        frames, total = clip_frames(clip, wanted) if wanted else ({}, 0)
    except OSError as e:
        out.append(('span-seamless', False, str(e)))
        return out
    judged, bad, worst, worst_rgb, ctrl_max, notes = 0, [], math.inf, math.inf, -math.inf, []
    for (n, h0, h1), (_, a, b) in zip(pairs, codes):
        for head, img, code in ((0, h0, a), (1, h1, b)):
            if img is None or code is None:
                bad.append(f'{n} head {head}: {"no dump" if img is None else "no clean code"}')
                continue
            if code not in frames:
                bad.append(f'{n} head {head}: code {code}, the clip has frames 0..{total - 1}')
                continue
            ref = halves(frames[code])[head]
            p = psnr(luma(img), luma(ref))
            judged += 1
            worst = min(worst, p)
            worst_rgb = min(worst_rgb, psnr(img, ref))
            if p < db:
                bad.append(f'{n} head {head}: {p:.1f} dB against frame {code}')
    for code in sorted(k for k in wanted if k in frames):
        ref_codes = [span_code(h) for h in halves(frames[code])]
        if ref_codes != [code, code]:
            notes.append(f'ffmpeg frame {code} reads {ref_codes}')
        ctrl = controls(frames[code])
        ctrl_max = max(ctrl_max, *ctrl.values())
        notes += [f'frame {code} control {k} {v:.1f} dB' for k, v in ctrl.items() if v >= db]
    ok = judged > 0 and not bad and not notes
    out.append(('span-seamless', ok,
                (f'{judged} halves judged against ffmpeg\'s frame of their code, worst luma PSNR {worst:.1f} dB (>= {db:g}; '
                 f'RGB {worst_rgb:.1f} dB, told only)' if judged else 'no half judged')
                + (f'; {"; ".join(bad[:6])}' + (f' (and {len(bad) - 6} more)' if len(bad) > 6 else '') if bad else '')
                + (f'; controls (a half {SHIFT} px off, the left half for the right) at most {ctrl_max:.1f} dB (< {db:g})'
                   if frames else '')
                + (f'; the check cannot tell: {"; ".join(notes[:4])}' if notes else '')))
    return out


def selftest(kiosk=None):
    """The span checks on made-up pairs cut from ffmpeg's decode of the clip: right ones pass, wrong ones (a head 8
    px off, the left half on head 1, a head a frame behind, a still picture, no code) fail. With `kiosk`, also pairs
    cut from `kiosk snapshot` renders of the clip (the GL pipeline play uses), which must pass, and the measured
    margins. Exit status 0 when every case came out as expected."""
    tmp = tempfile.mkdtemp(prefix='span-selftest-')
    try:
        return _selftest(tmp, kiosk)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _selftest(tmp, kiosk):
    clip = os.path.join(tmp, 'span.mp4')
    make_span_clip(clip)
    frames, total = clip_frames(clip)
    ok_all = total == SPAN_FPS * SPAN_SECONDS
    print(f'{"PASS" if ok_all else "FAIL"} selftest clip: {total} frames (want {SPAN_FPS * SPAN_SECONDS})')
    picks = [3, 11, 12, 20, 27, 39]

    def pair(n, left, right):
        return (f'span-{n}', left, right)

    def cut(fn):
        return [pair(k + 1, *fn(n)) for k, n in enumerate(picks)]
    cases = [('right', cut(lambda n: halves(frames[n])), set()),
             ('head 1 from source x 632', cut(lambda n: (halves(frames[n])[0], shifted(frames[n], HEAD_W - SHIFT))),
              {'span-seamless'}),
             ('head 1 from source x 648 (a bezel)', cut(lambda n: (halves(frames[n])[0], shifted(frames[n], HEAD_W + SHIFT))),
              {'span-seamless'}),
             ('head 0 from source x 8', cut(lambda n: (shifted(frames[n], SHIFT), halves(frames[n])[1])),
              {'span-seamless'}),
             ('head 1 shows the left half', cut(lambda n: (halves(frames[n])[0], halves(frames[n])[0])),
              {'span-seamless'}),
             ('head 1 a frame behind', cut(lambda n: (halves(frames[n])[0], halves(frames[n - 1])[1])),
              {'span-frame-lock'}),
             ('a still picture', cut(lambda n: halves(frames[12])), {'span-plays'}),
             ('head 1 black', cut(lambda n: (halves(frames[n])[0], (HEAD_W, SPAN_H, bytes(HEAD_W * SPAN_H * 3)))),
              {'span-frame-lock', 'span-plays', 'span-seamless'}),
             ('a pair missing', cut(lambda n: halves(frames[n]))[:-1] + [pair(6, halves(frames[39])[0], None)],
              {'span-frame-lock', 'span-seamless'})]
    if kiosk:
        renders = {}
        env = dict(os.environ, LIBGL_ALWAYS_SOFTWARE='1')
        for n in range(total):
            png, ppm = os.path.join(tmp, f'k{n}.png'), os.path.join(tmp, f'k{n}.ppm')
            subprocess.run([kiosk, 'snapshot', clip, '--size', f'{SPAN_W}x{SPAN_H}', '--at', f'{(n + 0.5) / SPAN_FPS:.2f}',
                            '--output', png], check=True, env=env)
            subprocess.run(['ffmpeg', '-v', 'error', '-nostdin', '-y', '-i', png, '-f', 'image2', '-vcodec', 'ppm', ppm],
                           check=True)
            renders[n] = read_ppm(ppm)
        pairs = [(h, r) for n in range(total) for h, r in zip(halves(renders[n]), halves(frames[n]))]
        per = [psnr(luma(h), luma(r)) for h, r in pairs]
        rgb = [psnr(h, r) for h, r in pairs]
        ctrl = [v for n in range(total) for v in controls(frames[n]).values()]
        print(f'INFO kiosk snapshot of frames 0-{total - 1} against ffmpeg\'s, per half: luma {min(per):.1f}-{max(per):.1f} dB '
              f'(RGB {min(rgb):.1f}-{max(rgb):.1f}); controls, luma: {min(ctrl):.1f}-{max(ctrl):.1f} dB; threshold {SPAN_DB:g} dB')
        cases.insert(1, ('kiosk snapshot renders', cut(lambda n: halves(renders[n])), set()))
        cases.insert(2, ('kiosk snapshot, head 1 from source x 632',
                         cut(lambda n: (halves(renders[n])[0], shifted(renders[n], HEAD_W - SHIFT))), {'span-seamless'}))
    for what, pairs, must_fail in cases:
        results = judge_span(pairs, clip)
        failed = {name for name, ok, _ in results if not ok}
        good = failed == must_fail
        ok_all &= good
        print(f'{"PASS" if good else "FAIL"} selftest {what}: fails {sorted(failed) or "nothing"}, '
              f'expected {sorted(must_fail) or "nothing"}')
        for name, ok, detail in results:
            print(f'    {"pass" if ok else "fail"} {name}: {detail}')
    print('selftest: ' + ('all cases as expected' if ok_all else 'SOME CASES WRONG'))
    return 0 if ok_all else 1


if __name__ == '__main__':
    if '--selftest' in sys.argv[1:]:
        ap = argparse.ArgumentParser()
        ap.add_argument('--selftest', action='store_true')
        ap.add_argument('--kiosk', help='also judge `kiosk snapshot` renders of the clip (and measure the margins)')
        sys.exit(selftest(ap.parse_args().kiosk))
    if sys.argv[1:2] == ['--make-span-clip'] and len(sys.argv) == 3:
        make_span_clip(sys.argv[2])
        sys.exit(0)
    sys.exit(main())
