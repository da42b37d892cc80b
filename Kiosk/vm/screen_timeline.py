"""What was on the guest's screen when, seen from the host: QEMU screendumps taken at a steady pace, each with the
host-side times the dump began and ended. The VM checks judge "the slideshow advances on time" and "it goes on
after a fault" from these pictures, not from the lines kiosk logs about itself.

vm.py runs a `ScreenWatch` while the guest asks for one (`KIOSK-VM watch NAME` ... `KIOSK-VM unwatch NAME`), and
writes DIR/NAME.watch.jsonl: one line per dump, `{"t0": S, "t1": S, "w": W, "h": H, "px": HEX}`, with the times in
seconds since QEMU started and `px` the RGB of every 16th pixel of every 16th row (from 8,8), plus one line
`{"mark": NOTE, "t": S}` for each `KIOSK-VM mark NAME NOTE` the guest printed while watching (the moment of a fault).
check.py reads them back with `load`, names each dump by the reference picture it matches (`label`) or by the
frame number a clip burns into its picture (`frame_code`), and finds the changes (`changes`).
"""
import json
import math
import os
import threading
import time

STEP = 16  # sample every 16th pixel of every 16th row: 1,200 samples of a 640x480 screen
CODE_BITS = 10  # the faults clip's frame number: 10 columns, top row the bits, bottom row their complement


def read_ppm(path):
    """(width, height, RGB bytes) of a binary P6/255 PPM."""
    with open(path, 'rb') as f:
        magic, w, h, maxval, px = f.read().split(maxsplit=4)
    if magic != b'P6' or maxval != b'255':
        raise ValueError(f'{path}: not a P6/255 PPM')
    w, h = int(w), int(h)
    if len(px) < w * h * 3:
        raise ValueError(f'{path}: {len(px)} bytes of pixels, {w}x{h} needs {w * h * 3}')
    return w, h, px[:w * h * 3]


def sample(w, h, px):
    """The RGB bytes of the pixels at (8 + 16i, 8 + 16j) of a (w, h, RGB bytes) image, row by row."""
    rows = []
    x0 = STEP // 2 * 3
    for y in range(STEP // 2, h, STEP):
        row = px[y * w * 3:(y + 1) * w * 3]
        r, g, b = row[x0::STEP * 3], row[x0 + 1::STEP * 3], row[x0 + 2::STEP * 3]
        rows.append(bytes(v for t in zip(r, g, b) for v in t))
    return b''.join(rows)


class ScreenWatch:
    """Takes a screendump every `interval` seconds (or as fast as QEMU answers) until stopped, and appends each one's
    times and samples to `path`. `dump(ppm_path)` takes one screendump and returns (w, h, RGB bytes); the caller
    serialises it with its other monitor commands."""

    def __init__(self, path, dump, clock, interval=0.2):
        self.path, self.dump, self.clock, self.interval = path, dump, clock, interval
        self.stopping = threading.Event()
        self.file = open(path, 'w')
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        ppm = self.path + '.ppm'
        while not self.stopping.is_set():
            t0 = self.clock()
            try:
                w, h, px = self.dump(ppm)
            except (OSError, ValueError) as e:
                self._write({'error': str(e), 't': round(t0, 3)})
                w = None
            t1 = self.clock()
            if w is not None:
                self._write({'t0': round(t0, 3), 't1': round(t1, 3), 'w': w, 'h': h, 'px': sample(w, h, px).hex()})
            self.stopping.wait(max(0.0, t0 + self.interval - self.clock()))
        if os.path.exists(ppm):
            os.unlink(ppm)

    def _write(self, record):
        with self.lock:
            self.file.write(json.dumps(record) + '\n')
            self.file.flush()

    def mark(self, note):
        """Records a moment the guest named (a fault it just caused), at the host's time."""
        self._write({'mark': note, 't': round(self.clock(), 3)})

    def stop(self):
        self.stopping.set()
        self.thread.join(timeout=30)
        self.file.close()


def load(path):
    """(dumps, marks) of a watch file: dumps as dicts with t0, t1, w, h and px (bytes), in order; marks as
    {note: host time}. Both empty when the file is missing."""
    dumps, marks = [], {}
    if not os.path.exists(path):
        return dumps, marks
    for line in open(path):
        try:
            r = json.loads(line)
        except ValueError:
            continue  # a line cut short when the VM stopped
        if 'mark' in r:
            marks.setdefault(r['mark'], r['t'])
        elif 'px' in r:
            r['px'] = bytes.fromhex(r['px'])
            dumps.append(r)
    return dumps, marks


def sample_psnr(a, b):
    """PSNR in dB of two sample strings of the same length."""
    se = sum((x - y) * (x - y) for x, y in zip(a, b))
    return math.inf if se == 0 else 10 * math.log10(255 * 255 * len(a) / se)


MATCH_DB = 25  # a dump is an item when its samples are this close to the item's picture...
OTHERS_DB = 15  # ...and farther than this from every other candidate


def label(dump, refs):
    """The name of the reference a dump shows, or '?' (another picture: the console, black, a wrong size).
    refs: {name: (w, h, samples)}."""
    scores = sorted(((sample_psnr(dump['px'], s), n) for n, (w, h, s) in refs.items()
                     if (w, h) == (dump['w'], dump['h'])), reverse=True)
    if not scores or scores[0][0] < MATCH_DB or (len(scores) > 1 and scores[1][0] >= OTHERS_DB):
        return '?'
    return scores[0][1]


def frame_code(dump):
    """The frame number burnt into the faults clip (shown filling the screen), or None when the picture does not
    hold a clean code: each of 10 columns is white (1) or black (0) in the top half and the opposite in the bottom
    half; only samples at least 8 px inside a block count."""
    w, h, px = dump['w'], dump['h'], dump['px']
    gw = len(range(STEP // 2, w, STEP))
    sums = [[[], []] for _ in range(CODE_BITS)]
    for j, y in enumerate(range(STEP // 2, h, STEP)):
        half = 0 if y < h // 2 else 1
        if min(abs(y - h // 2), y, h - y) < 8:
            continue
        for i, x in enumerate(range(STEP // 2, w, STEP)):
            k = x * CODE_BITS // w
            if min(x - k * w / CODE_BITS, (k + 1) * w / CODE_BITS - x) < 8:
                continue
            o = (j * gw + i) * 3
            sums[k][half].append((px[o] * 299 + px[o + 1] * 587 + px[o + 2] * 114) / 1000)
    value = 0
    for k, (top, bottom) in enumerate(sums):
        if not top or not bottom:
            return None
        t, b = sum(top) / len(top), sum(bottom) / len(bottom)
        if not ((t > 185 and b < 70) or (t < 70 and b > 185)):
            return None
        value |= (t > 185) << k
    return value


def changes(dumps, names):
    """The changes of what the screen shows: for each dump whose name (names[i]) differs from the last known one,
    (name, earliest, latest): the change happened after the start of the dump before it and before the end of
    this dump. Dumps named None or '?' are skipped."""
    out, last = [], None
    for i, n in enumerate(names):
        if n is None or n == '?' or n == last:
            continue
        earliest = dumps[i - 1]['t0'] if i > 0 else dumps[i]['t0']
        out.append((n, earliest, dumps[i]['t1']))
        last = n
    return out


def stray_places(names):
    """' (dumps i, j of n)' naming which dumps showed another picture, or '' when none did: where a stray sits
    (the first dump, one between two of the same item) tells a late first frame from a wrong one."""
    places = [str(i) for i, n in enumerate(names) if n == '?']
    return f' (dumps {", ".join(places)} of {len(names)})' if places else ''


def stray_count(names):
    """How many dumps show another picture ('?'), not counting a lone one between two dumps that show different
    items: a screendump can catch the framebuffer while the next item is being written into it (a torn frame),
    which is the change itself, not something else shown. Two in a row, or one between dumps of the same item,
    count."""
    strays = 0
    for i, n in enumerate(names):
        if n != '?':
            continue
        before = names[i - 1] if i > 0 else None
        after = names[i + 1] if i + 1 < len(names) else None
        at_change = before not in (None, '?') and after not in (None, '?') and before != after
        strays += 0 if at_change else 1
    return strays


def dump_gaps(dumps):
    """(median, largest) seconds between the starts of consecutive dumps; (inf, inf) with fewer than two."""
    gaps = sorted(b['t0'] - a['t0'] for a, b in zip(dumps, dumps[1:]))
    return (gaps[len(gaps) // 2], gaps[-1]) if gaps else (math.inf, math.inf)


SLOT_SLACK = 0.25  # kiosk's own slot keeping: the log's slot lengths measured 3.005-3.013 s for 3 s slots
MAX_BRACKET = 0.5  # a change timed no better than +-0.5 s (dumps a second apart) is not timed at all


def timed_slot(start, end, duration):
    """(ok, text) for the slot between two changes (name, earliest, latest): its length, the middle of one bracket
    to the middle of the other, is the slot's duration within SLOT_SLACK plus the two brackets' half widths (the
    most the dump times can be off), and each bracket is at most MAX_BRACKET wide."""
    h0, h1 = (start[2] - start[1]) / 2, (end[2] - end[1]) / 2
    step = (end[1] + end[2]) / 2 - (start[1] + start[2]) / 2
    tol = SLOT_SLACK + h0 + h1
    ok = abs(step - duration) <= tol and max(h0, h1) <= MAX_BRACKET / 2
    return ok, f'{start[0]}->{end[0]} {step:.2f} s (slot {duration:g} s +-{tol:.2f}: {SLOT_SLACK} + brackets {h0:.2f}+{h1:.2f})'


def cadence(dumps):
    """A short text of the dumps' count and pace."""
    med, big = dump_gaps(dumps)
    return f'{len(dumps)} dumps, every {med:.2f} s (median), {big:.2f} s at most'


def judge_advance(dumps, refs, sequence, duration):
    """(ok, text): the screen shows `sequence` (names of refs) in this order, one change each, nothing else in
    between, and each slot after the first one's change lasts `duration` (timed_slot)."""
    names = [label(d, refs) for d in dumps]
    ch = changes(dumps, names)
    seen = [n for n, _, _ in ch]
    at = next((i for i in range(len(ch)) if seen[i:i + len(sequence)] == sequence), None)
    if at is None:
        return False, f'the screen showed {" ".join(seen) or "nothing known"}, not {" ".join(sequence)}; {cadence(dumps)}'
    run = ch[at:at + len(sequence)]
    first = next(i for i, d in enumerate(dumps) if d['t1'] == run[1][2])
    last = next(i for i, d in enumerate(dumps) if d['t1'] == run[-1][2])
    strays = stray_count(names[first:last + 1])
    slots = [timed_slot(a, b, duration) for a, b in zip(run[1:], run[2:])]
    ok = strays == 0 and all(s[0] for s in slots)
    return ok, (f'{" ".join(sequence)} on screen; ' + '; '.join(s[1] for s in slots) +
                f'; {strays} other pictures in between; {cadence(dumps)}')


def judge_goes_on(dumps, refs, order, mark, duration, min_changes=2, untimed=0):
    """(ok, text): after the host time `mark` (a fault) the screen changes at least `min_changes` times, each time
    to the item after the one before in the cyclic playlist `order`, shows nothing else, and each whole slot
    after the fault lasts `duration` (timed_slot), but for the first `untimed` ones, whose length is only told (a
    removed item: kiosk finds it gone when the slot ends, and only then decodes the one after). The dump just
    before the mark gives the item at the fault."""
    if mark is None:
        return False, 'no mark of the fault in the screen watch'
    start = max([i for i, d in enumerate(dumps) if d['t1'] <= mark] or [0])
    after = dumps[start:]
    names = [label(d, refs) for d in after]
    ch = changes(after, names)
    wrong = [f'{a[0]}->{b[0]}' for a, b in zip(ch, ch[1:]) if a[0] not in order or
             order[(order.index(a[0]) + 1) % len(order)] != b[0]]
    slots = [timed_slot(a, b, duration) for a, b in zip(ch[1:], ch[2:])]
    told = [s[1].split(' (')[0] + ' (not timed)' for s in slots[:untimed]]
    slots = slots[untimed:]
    strays = stray_count(names)
    where = stray_places(names)
    ok = len(ch) - 1 >= min_changes and not wrong and strays == 0 and all(s[0] for s in slots)
    bad = [s[1] for s in slots if not s[0]]
    lengths = ' '.join(s[1].split(' ')[1] for s in slots)
    timing = '; '.join(told + ([f'slots {lengths} s (slot {duration:g} s +- 0.25 + brackets)'] if slots else [])
                       + ([f'off: {"; ".join(bad)}'] if bad else []))
    return ok, (f'after the fault at {mark:.2f} s: {" ".join(n for n, _, _ in ch) or "nothing known"} '
                f'({len(ch) - 1} changes, >= {min_changes}, each to the next of {" ".join(order)}'
                + (f'; wrong: {" ".join(wrong)}' if wrong else '') + f'); {strays} other pictures{where}; '
                + (timing or 'no whole slot') + f'; {cadence(after)}')


def judge_clip_goes_on(dumps, mark, fps, min_frames=3, min_pace=0.5):
    """(ok, text): after the host time `mark` every dump shows a clean frame code, the codes never go back, at
    least `min_frames` different frames show, and the clip advances at least `min_pace` clip seconds per host
    second over the watch after the fault (a player that only crawls on is not going on)."""
    if mark is None:
        return False, 'no mark of the fault in the screen watch'
    before = [c for c in (frame_code(d) for d in dumps if d['t1'] <= mark) if c is not None]
    after = [d for d in dumps if d['t0'] >= mark]
    codes = [frame_code(d) for d in after]
    clean = [(d, c) for d, c in zip(after, codes) if c is not None]
    if len(clean) < 2:
        return False, f'{len(clean)} dumps with a frame code after the fault ({len(after)} dumps)'
    seq = [c for _, c in clean]
    back = [f'{a}->{b}' for a, b in zip(([before[-1]] if before else []) + seq, seq) if b < a]
    span = clean[-1][1] - clean[0][1]
    host = clean[-1][0]['t1'] - clean[0][0]['t0']
    pace = span / fps / host if host > 0 else 0.0
    distinct = len(set(seq))
    ok = None not in codes and not back and distinct >= min_frames and pace >= min_pace
    return ok, (f'after the fault at {mark:.2f} s: frames {seq[0]}..{seq[-1]} ({distinct} different, >= {min_frames}), '
                f'{codes.count(None)} dumps without a clean code, '
                + (f'backwards {" ".join(back)}, ' if back else 'never backwards, ')
                + f'{span / fps:.1f} clip s in {host:.1f} host s (pace {pace:.2f}, >= {min_pace}); '
                + (f'before it frames up to {before[-1]}; ' if before else '') + cadence(after))
