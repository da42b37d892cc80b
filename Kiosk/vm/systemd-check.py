#!/usr/bin/env python3
"""Checks one run of the systemd VM test (systemd-test.sh): the records systemd-guest-test.sh wrote inside the
guest (systemctl, journalctl, /proc) and the screendumps, against `kiosk snapshot` references.

usage: systemd-check.py --shots DIR --results DIR --fixtures DIR

Prints one line per check, `PASS name: detail` or `FAIL name: detail`, and a last line `N passed, M failed`.
Exit status: 0 when every check passed.
"""
import argparse
from collections import Counter
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check import Checks, psnr, read, read_ppm  # noqa: E402  (the plain VM test's PPM and PSNR helpers)

MEDIA = '/srv/kiosk/media'
WATCHDOG_SEC = 10
TIMEOUT_STOP_SEC = 5


def props(text):
    """`systemctl show` output as a dict."""
    return dict(line.split('=', 1) for line in text.splitlines() if '=' in line)


def journal_lines(text):
    """(monotonic seconds, message) of each `journalctl -o short-monotonic` line."""
    out = []
    for line in text.splitlines():
        m = re.match(r'\[\s*([0-9.]+)\] \S+ ([^:]+): (.*)', line)
        if m:
            out.append((float(m.group(1)), m.group(2), m.group(3)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--shots', required=True)
    ap.add_argument('--results', required=True)
    ap.add_argument('--fixtures', required=True)
    a = ap.parse_args()
    c = Checks()
    R = a.results

    def rec(name):
        return read(os.path.join(R, name))

    def shot(name):
        p = os.path.join(a.shots, name + '.ppm')
        return read_ppm(p) if os.path.exists(p) else None

    refs = {i: read_ppm(os.path.join(a.fixtures, i + '.ppm')) for i in ('a', 'b')}
    journal = journal_lines(rec('kiosk.journal'))

    def first(pattern, after=0.0):
        return next(((t, m) for t, _, m in journal if t >= after and re.search(pattern, m)), None)

    # 1. Type=notify: start returns after READY=1, i.e. after the first frame; the unit is then active/running.
    start = rec('start.rc').split()
    show = props(rec('start.show'))
    ff = re.search(r'first frame presented (\d+) ms', rec('kiosk.journal'))
    if len(start) == 3 and ff and show.get('ActiveEnterTimestampMonotonic'):
        rc, t0, t1 = int(start[0]), float(start[1]), float(start[2])
        exec_at = int(show['ExecMainStartTimestampMonotonic']) / 1e6
        active_at = int(show['ActiveEnterTimestampMonotonic']) / 1e6
        ready_after, first_ms = active_at - exec_at, int(ff.group(1))
        state = f"{show.get('ActiveState')}/{show.get('SubState')}"
        c.check('start-notify', rc == 0 and state == 'active/running' and t1 >= active_at
                and ready_after >= first_ms / 1000 - 0.5,
                f'systemctl start rc {rc} after {t1 - t0:.1f} s, then {state}; active {ready_after:.2f} s after '
                f'the exec, first frame {first_ms} ms after process start (READY=1 follows it)')
    else:
        c.check('start-notify', False, f'records missing: start {start}, show {show}, first frame {bool(ff)}')
    st = show.get('StatusText', '')
    c.check('status-text', re.fullmatch(rf'showing {MEDIA}/[ab]\.png', st) is not None,
            f'StatusText={st!r} right after the start; NRestarts={show.get("NRestarts")} MainPID={show.get("MainPID")}')

    # 2. The screen shows the item StatusText names (= kiosk snapshot of it), for both items.
    def compare(name, want=None):
        before, _, after = rec(name + '.status').strip().partition('|')
        s = shot(name)
        m = re.fullmatch(rf'showing {MEDIA}/([ab])\.png', before)
        item = m.group(1) if m else None
        if s is None or item is None or before != after or (want and item != want):
            c.check(f'screen-{name}', False, f'StatusText before/after the screendump {before!r}/{after!r}, '
                    f'screendump {"taken" if s is not None else "missing"}')
            return
        other = 'b' if item == 'a' else 'a'
        p, q = psnr(s, refs[item]), psnr(s, refs[other])
        c.check(f'screen-{name}', p >= 30 and q < 30,
                f'StatusText names {item}.png; PSNR {p:.1f} dB vs snapshot of {item} (>= 30), {q:.1f} dB vs {other} (< 30)')
    compare('shown-a', 'a')
    compare('shown-b', 'b')

    # 3. Watchdog: SIGSTOP -> "Watchdog timeout" within WatchdogSec (+2 s), SIGABRT, restart, a new MainPID.
    wd = rec('watchdog.txt').split()
    wshow = props(rec('watchdog.show'))
    if len(wd) == 4:
        pid, n0, t_stop, t_back = wd[0], int(wd[1]), float(wd[2]), float(wd[3])
        timeout = first(r'Watchdog timeout', t_stop)
        abrt = first(rf'Killing process {pid} \(kiosk\) with signal SIGABRT', t_stop)
        result = first(r"Failed with result 'watchdog'", t_stop)
        restart = first(r'Scheduled restart job', t_stop)
        ready = first(r'first frame presented', t_stop)
        delay = timeout[0] - t_stop if timeout else None
        state = f"{wshow.get('ActiveState')}/{wshow.get('SubState')}"
        nr = int(wshow.get('NRestarts') or -1)
        ok = (timeout and abrt and result and restart and ready and delay <= WATCHDOG_SEC + 2
              and state == 'active/running' and nr == n0 + 1 and wshow.get('MainPID') not in (pid, '0'))
        c.check('watchdog', bool(ok),
                (f'SIGSTOP pid {pid} at {t_stop:.1f} s; "{timeout[1]}" {delay:.1f} s later (<= {WATCHDOG_SEC}+2)'
                 if timeout else f'no "Watchdog timeout" after the SIGSTOP at {t_stop:.1f} s')
                + f'; SIGABRT {"sent" if abrt else "missing"}; result watchdog {"yes" if result else "no"}; '
                f'restart {"scheduled" if restart else "missing"}; then {state} MainPID {wshow.get("MainPID")} '
                f'NRestarts {nr} (was {n0}); '
                + (f'first frame again {ready[0] - t_stop:.1f} s after the SIGSTOP' if ready else 'no first frame since'))
        killed = first(r"State 'stop-watchdog' timed out", t_stop)
        if killed and timeout:
            print(f'== note: the aborted player did not exit within the unit\'s TimeoutAbortSec: SIGKILL '
                  f'{killed[0] - timeout[0]:.1f} s after the watchdog timeout (the Swift runtime\'s backtracer was '
                  'still running; under TCG it is slow)')
    else:
        c.check('watchdog', False, f'no watchdog record: {wd}')
    compare('restarted')

    # 4. Journal priorities: the warning is at -p warning, the info lines only at -p info; no visible <N>.
    warn = rec('journal-warning.txt')
    info = rec('journal-info.txt')
    missing_line = f'{MEDIA}/gone.png: skipped: no such file or folder'
    prios = Counter()
    raw_prefix = 0
    for line in rec('journal.json').splitlines():
        try:
            e = json.loads(line)
        except ValueError:
            continue
        msg = e.get('MESSAGE') if isinstance(e.get('MESSAGE'), str) else ''
        if e.get('_COMM') != 'kiosk':
            continue
        raw_prefix += msg.startswith('<')
        m = re.match(r'kiosk: (error|warn|info|debug): ', msg)
        if m:
            prios[(m.group(1), e.get('PRIORITY'))] += 1
    levels_ok = (all((lvl, p) in {('error', '3'), ('warn', '4'), ('info', '6'), ('debug', '7')} for lvl, p in prios)
                 and ('warn', '4') in prios and ('info', '6') in prios)
    c.check('journal-priorities', missing_line in warn and 'kiosk: info:' not in warn and missing_line in info
            and 'kiosk: info: first frame presented' in info and levels_ok and raw_prefix == 0,
            f"-p warning: {sum(1 for l in warn.splitlines() if 'kiosk: warn:' in l)} kiosk warn lines "
            f"({'the missing file' if missing_line in warn else 'NOT the missing file'}), "
            f"{sum(1 for l in warn.splitlines() if 'kiosk: info:' in l)} info lines; -p info: "
            f"{sum(1 for l in info.splitlines() if 'kiosk: info:' in l)} info lines; (level, PRIORITY) "
            f"{dict(sorted(prios.items()))}; {raw_prefix} messages with a visible <N>")

    # 5. Reload: systemctl reload -> SIGHUP -> the reload line, the same process active.
    rl = rec('reload.txt').split()
    line = first(r'SIGHUP: reloaded')
    c.check('reload', len(rl) == 5 and rl[0] == '0' and rl[1] == '0' and rl[2] == rl[3] and rl[4] == 'active/running',
            f'systemctl reload rc {rl[0] if rl else "?"}; "{line[1] if line else "no reload line"}"; MainPID '
            f'{rl[2] if len(rl) > 2 else "?"} -> {rl[3] if len(rl) > 3 else "?"}, {rl[4] if len(rl) > 4 else "?"}')

    # 6. Stop within TimeoutStopSec, by SIGTERM (no SIGKILL), the unit inactive, the console back.
    sp = rec('stop.txt').split()
    sshow = props(rec('stop.show'))
    if len(sp) == 4:
        rc, took, t0 = int(sp[0]), float(sp[2]) - float(sp[1]), float(sp[1])
        stopping = first(r'Stopping kiosk.service', t0)
        sigterm = first(r'SIGTERM: stopping', t0)
        gone = first(r'Deactivated successfully|Main process exited|Failed with result', t0)
        kill = first(r'SIGKILL|timed out', t0)
        ok_exit = gone is not None and 'Deactivated successfully' in gone[1]
        within = gone[0] - stopping[0] if gone and stopping else None
        c.check('stop', rc == 0 and within is not None and within < TIMEOUT_STOP_SEC and sigterm and ok_exit
                and not kill and sshow.get('ActiveState') == 'inactive',
                f'systemctl stop rc {rc} ({took:.2f} s with its own start under TCG); '
                + (f'"Stopping" to "{gone[1]}" {within:.2f} s (< TimeoutStopSec {TIMEOUT_STOP_SEC} s)'
                   if within is not None else 'no stop in the journal')
                + f'; {"SIGTERM logged" if sigterm else "no SIGTERM line"}; {kill[1] if kill else "no SIGKILL"}; '
                f'then {sshow.get("ActiveState")}/{sshow.get("SubState")}')
    else:
        c.check('stop', False, f'no stop record: {sp}')
    before, after = shot('console-before'), shot('console-after')
    if before is None or after is None:
        c.check('console-restored', False, 'console screendumps missing')
    else:
        counts = Counter(before[2][i:i + 3] for i in range(0, len(before[2]), 3))
        text = len(before[2]) // 3 - counts.most_common(1)[0][1]
        acounts = Counter(after[2][i:i + 3] for i in range(0, len(after[2]), 3))
        atext = len(after[2]) // 3 - acounts.most_common(1)[0][1]
        probe = rec('tty-probe.txt').strip().replace('\n', ' | ')
        c.check('console-restored', text > 200 and before == after,
                f'{text} text pixels before, {atext} after ({"identical" if before == after else "differs"}); '
                f'VT access from the service: {probe}')

    # 7. The sandbox: user kiosk, no_new_privs, seccomp filter mode, no capabilities, the state file written.
    status = props(rec('sandbox.status').replace(':\t', '=').replace(':', '='))
    uid = status.get('Uid', '').split()
    user = rec('sandbox.ps').split()
    c.check('sandbox-user', user[:1] == ['kiosk'] and len(set(uid)) == 1,
            f"ps: {' '.join(user)}; Uid {' '.join(uid)}; Groups {status.get('Groups', '').strip()}")
    c.check('sandbox-nnp-seccomp', status.get('NoNewPrivs', '').strip() == '1' and status.get('Seccomp', '').strip() == '2'
            and status.get('CapEff', '').strip() == '0000000000000000',
            f"NoNewPrivs {status.get('NoNewPrivs', '?').strip()}, Seccomp {status.get('Seccomp', '?').strip()}, "
            f"CapEff {status.get('CapEff', '?').strip()}")
    try:
        state = json.loads(rec('state.json'))
    except ValueError:
        state = {}
    files = rec('sandbox.files')
    c.check('state-file', str(state.get('path', '')).startswith(MEDIA + '/')
            and re.search(r'^/var/lib/kiosk/state.json kiosk kiosk 600$', files, re.M) is not None,
            f"/var/lib/kiosk/state.json path={state.get('path')!r}; " + '; '.join(files.strip().splitlines()[:2]))

    errors = [m for _, u, m in journal if u.startswith('kiosk[') and 'kiosk: error:' in m]
    c.check('no-errors', not errors, f'{len(errors)} kiosk error lines' + (f': {errors[:3]}' if errors else ''))
    verify = rec('verify.txt').strip()
    c.check('unit-verify', verify.endswith('rc 0'), 'systemd-analyze verify kiosk.service: ' + verify.replace('\n', ' | ')[-300:])

    print(f'{c.passed} passed, {c.failed} failed')
    return 0 if c.failed == 0 and c.passed > 0 else 1


if __name__ == '__main__':
    sys.exit(main())
