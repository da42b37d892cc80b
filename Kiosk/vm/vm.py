#!/usr/bin/env python3
"""Boots the test VM (Debian's kernel, the host's / over 9p), runs a job script in it and serves its
screenshot requests.

usage: vm.py --gpu bochs|virtio|virtio2 --res WxH --job SCRIPT --out DIR [--timeout S] [--initrd CPIO] [--append WORDS]
             [--root DIR]

The job runs chrooted into the host root with $KIOSK_VM_IO as a writable exchange folder. To ask for a
screenshot it prints a line `KIOSK-VM screendump NAME` and waits for the file $KIOSK_VM_IO/ack-NAME. The
driver takes the screendump through QEMU's HMP monitor, saves DIR/NAME.png (and NAME.ppm), and writes into ack-NAME one
line: `WIDTH HEIGHT R G B FRACTION`, the centre pixel and the fraction of pixels equal to it.
`KIOSK-VM screendump NAME HEAD` takes head HEAD (0, 1) of the GPU instead: `virtio2` is a virtio-gpu with two
heads (outputs Virtual-1 and Virtual-2; the second reads as disconnected until the guest forces it on).
`KIOSK-VM screendump-pair NAME` (virtio2) takes both heads at the same instant of guest time: the driver stops the
VM (HMP `stop`: the vCPUs and the guest's clocks halt), dumps head 0 and head 1, and lets it go on (`cont`), so
the two pictures show what both heads scanned out at one moment (a span's two halves, judged for frame lock).
It saves DIR/NAME-head0.png and DIR/NAME-head1.png (and .ppm; summary.json lists both under screendumps, heads 0
and 1, with the pair's NAME and the milliseconds the VM stood still) and writes into ack-NAME two lines, head 0's
and head 1's `WIDTH HEIGHT R G B FRACTION`, or one line `error TEXT` when a dump failed (the VM goes on).
To have the screen watched it prints `KIOSK-VM watch NAME` ... `KIOSK-VM unwatch NAME`: meanwhile the driver takes a
screendump every 0.2 s into DIR/NAME.watch.jsonl with the host-side time of each (screen_timeline.py), and
`KIOSK-VM mark NAME NOTE` records the host's time of a moment there (a fault the job just caused).
To ask for a new display size (virtio-gpu: a new preferred mode and a display-change event in the guest) it
prints `KIOSK-VM resize WxH`; the driver sends a VNC SetDesktopSize (QEMU's only way to change it without a
window) and writes $KIOSK_VM_IO/ack-resize-WxH.
Writes DIR/serial.log (each line with seconds since QEMU started) and DIR/summary.json.
Exit status: the job's, or 124 on timeout, 125 when the VM died without one.
"""
import argparse
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time
import zlib

from screen_timeline import ScreenWatch, read_ppm

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(HERE, '.cache')


def png_from_ppm(ppm_path, png_path):
    """Converts a binary PPM (P6, maxval 255) to an RGB PNG; returns (width, height, pixels)."""
    data = open(ppm_path, 'rb').read()
    magic, w, h, maxval, px = data.split(maxsplit=4)
    if magic != b'P6' or maxval != b'255':
        raise ValueError(f'{ppm_path}: not a P6/255 PPM')
    w, h = int(w), int(h)
    px = px[:w * h * 3]
    raw = b''.join(b'\0' + px[y * w * 3:(y + 1) * w * 3] for y in range(h))

    def chunk(kind, body):
        return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))
    with open(png_path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) +
                chunk(b'IDAT', zlib.compress(raw, 6)) + chunk(b'IEND', b''))
    return w, h, px


def centre_stats(w, h, px):
    """The centre pixel and the fraction of pixels equal to it."""
    i = ((h // 2) * w + w // 2) * 3
    c = px[i:i + 3]
    same = sum(1 for j in range(0, len(px), 3) if px[j:j + 3] == c)
    return w, h, c[0], c[1], c[2], same / (w * h)


class Monitor:
    """QEMU's human monitor over a Unix socket: one connection per command, one command at a time (the screen
    watches and the guest's screendump requests share it)."""

    def __init__(self, path):
        self.path = path
        self.serial = threading.Lock()

    def _until_prompt(self, s):
        buf = b''
        while not buf.endswith(b'(qemu) '):
            part = s.recv(4096)
            if not part:
                return buf
            buf += part
        return buf

    def command(self, line, wait_hangup=False):
        with self.serial:
            return self._command(line, wait_hangup)

    def commands(self, lines):
        """Sends `lines` in order on one connection, no other command in between (a screen watch waits);
        returns each one's output. `stop` ... `cont` this way keeps the VM stopped no longer than the commands
        take."""
        with self.serial:
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(30)
            s.connect(self.path)
            try:
                self._until_prompt(s)
                outs = []
                for line in lines:
                    s.sendall(line.encode() + b'\n')
                    outs.append(self._until_prompt(s))
                return outs
            finally:
                s.close()

    def _command(self, line, wait_hangup):
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(30)
        s.connect(self.path)
        self._until_prompt(s)
        s.sendall(line.encode() + b'\n')
        if wait_hangup:  # HMP `quit` is only acted on while the connection stays open
            try:
                while s.recv(4096):
                    pass
            except OSError:
                pass
            s.close()
            return b''
        out = self._until_prompt(s)
        s.close()
        return out


def vnc_set_desktop_size(path, w, h):
    """Connects to QEMU's VNC server on a Unix socket (RFB 3.8, no auth) and asks for a w x h desktop
    (ExtendedDesktopSize SetDesktopSize, message 251), which QEMU hands to the display as a UI size hint."""
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(10)
    s.connect(path)

    def recv(n):
        buf = b''
        while len(buf) < n:
            part = s.recv(n - len(buf))
            if not part:
                raise OSError('VNC server hung up')
            buf += part
        return buf
    recv(12)
    s.sendall(b'RFB 003.008\n')
    count = recv(1)[0]
    if 1 not in recv(count):
        raise OSError('VNC server wants authentication')
    s.sendall(b'\x01')
    if struct.unpack('>I', recv(4))[0] != 0:
        raise OSError('VNC security handshake failed')
    s.sendall(b'\x01')  # shared
    sw, sh = struct.unpack('>HH', recv(4))
    recv(16)
    recv(struct.unpack('>I', recv(4))[0])
    s.sendall(struct.pack('>BBHii', 2, 0, 2, -308, 0))  # SetEncodings: ExtendedDesktopSize, raw
    s.sendall(struct.pack('>BBHHBB', 251, 0, w, h, 1, 0) + struct.pack('>IHHHHI', 0, 0, 0, w, h, 0))
    time.sleep(1.0)
    s.close()
    return sw, sh


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--gpu', choices=['bochs', 'virtio', 'virtio2'], default='bochs')
    ap.add_argument('--res', default='800x600')
    ap.add_argument('--job', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--timeout', type=float, default=300)
    ap.add_argument('--mem', default='2048')
    ap.add_argument('--initrd', default=os.path.join(CACHE, 'initramfs.cpio'),
                    help='the initramfs (default: build-initramfs.sh\'s; systemd-test.sh passes its own)')
    ap.add_argument('--append', default='', help='more words for the kernel command line')
    ap.add_argument('--root', default='/', help='the folder the guest boots as its root (read-only over 9p; '
                    'default the host\'s /; Kiosk/package-test.sh gives its debootstrap root)')
    a = ap.parse_args()

    out = os.path.abspath(a.out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    io = os.path.join(CACHE, 'io')
    for stale in os.listdir(io) if os.path.isdir(io) else []:
        if stale.startswith('ack-') or stale.startswith('job.') or stale.endswith('.ppm'):
            os.unlink(os.path.join(io, stale))
    os.makedirs(os.path.join(io, 'cache'), exist_ok=True)
    os.makedirs(os.path.join(io, 'home'), exist_ok=True)
    shutil.copy(a.job, os.path.join(io, 'job.sh'))
    mon_path = os.path.join(out, 'monitor.sock')

    xres, yres = a.res.split('x')
    device = {'bochs': f'VGA,xres={xres},yres={yres},edid=on,vgamem_mb=64',
              'virtio': f'virtio-gpu-pci,xres={xres},yres={yres}',
              'virtio2': f'virtio-gpu-pci,id=gpu0,max_outputs=2,xres={xres},yres={yres}'}[a.gpu]
    # No AVX in the guest: QEMU 7.2's TCG emulation of AVX/AVX2 (new in that release) mis-executes some of the
    # code llvmpipe JITs for 256-bit vectors: zoomed pictures and sphere views came out with texel-grid patterns
    # that the same kiosk draws correctly on the host, and which moved with unrelated shader changes. Without AVX,
    # llvmpipe uses SSE4 (128 bits), which TCG emulates faithfully, and the first frame comes sooner.
    cmd = ['qemu-system-x86_64', '-accel', 'tcg,thread=multi', '-cpu', 'max,avx=off', '-smp', '2', '-m', a.mem,
           '-nodefaults', '-no-reboot', '-display', 'none', '-device', device, '-serial', 'stdio',
           '-vnc', f'unix:{os.path.join(out, "vnc.sock")}',
           '-monitor', f'unix:{mon_path},server,nowait',
           '-virtfs', f'local,path={os.path.abspath(a.root)},mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap',
           '-virtfs', f'local,path={io},mount_tag=kioskio,security_model=none,multidevs=remap',
           '-kernel', os.path.join(CACHE, 'vmlinux'), '-initrd', a.initrd,
           '-append', f'console=ttyS0 quiet loglevel=3 panic=-1 kiosk.gpu={a.gpu}' + (' ' + a.append if a.append else '')]
    print('vm.py: ' + ' '.join(cmd), flush=True)

    t0 = time.monotonic()
    events = {}
    shots = []
    requests = []
    lock = threading.Condition()
    monitor = Monitor(mon_path)
    watches = {}

    def dump(ppm):
        monitor.command(f'screendump {ppm}')
        return read_ppm(ppm)

    def ack(name, text):
        with open(os.path.join(io, f'ack-{name}.tmp'), 'w') as f:
            f.write(text)
        os.rename(os.path.join(io, f'ack-{name}.tmp'), os.path.join(io, f'ack-{name}'))

    def dump_pair(name):
        """`screendump-pair NAME`: both heads of gpu0 while the VM stands still; acks each head's stats."""
        if not name.replace('-', '').replace('_', '').isalnum():
            print(f'vm.py: refusing screendump-pair name {name!r}', flush=True)
            return
        if a.gpu != 'virtio2':
            ack(name, f'error screendump-pair needs --gpu virtio2, not {a.gpu}\n')
            return
        ppms = [os.path.join(io, f'{name}-head{h}.ppm') for h in (0, 1)]
        for p in ppms:
            if os.path.exists(p):
                os.unlink(p)
        begun = time.monotonic()
        try:
            monitor.commands(['stop'] + [f'screendump {p} gpu0 {h}' for h, p in enumerate(ppms)] + ['cont'])
        except OSError as e:
            try:  # never leave the guest stopped
                monitor.command('cont')
            except OSError:
                pass
            print(f'vm.py: screendump-pair {name}: {e}', flush=True)
        held_ms = round((time.monotonic() - begun) * 1000)
        lines = []
        try:
            for h, p in enumerate(ppms):
                stats = centre_stats(*png_from_ppm(p, os.path.join(out, f'{name}-head{h}.png')))
                shutil.move(p, os.path.join(out, f'{name}-head{h}.ppm'))
                shots.append({'name': f'{name}-head{h}', 'head': h, 'pair': name, 'held_ms': held_ms,
                              't': round(begun - t0, 2), 'size': f'{stats[0]}x{stats[1]}',
                              'centre': list(stats[2:5]), 'uniform': round(stats[5], 4)})
                lines.append('%d %d %d %d %d %.4f\n' % stats)
        except (OSError, ValueError) as e:
            lines = [f'error head {len(lines)}: {e}\n']
        print(f'vm.py: screendump-pair {name}: VM held {held_ms} ms; {" | ".join(l.strip() for l in lines)}', flush=True)
        ack(name, ''.join(lines))

    def watch_command(verb, words):
        """`watch NAME`, `unwatch NAME`, `mark NAME NOTE` from the guest (screen_timeline.py)."""
        name = words[0] if words else ''
        if not name.replace('-', '').replace('_', '').isalnum():
            print(f'vm.py: refusing watch name {name!r}', flush=True)
        elif verb == 'watch' and name not in watches:
            watches[name] = ScreenWatch(os.path.join(out, f'{name}.watch.jsonl'), dump, lambda: time.monotonic() - t0)
        elif verb == 'unwatch' and name in watches:
            watches.pop(name).stop()
        elif verb == 'mark' and name in watches and len(words) > 1:
            watches[name].mark(words[1])
        else:
            print(f'vm.py: {verb} {name!r}: no such watch or already watching', flush=True)
    log = open(os.path.join(out, 'serial.log'), 'w')
    qemu = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def reader():
        for raw in qemu.stdout:
            now = time.monotonic() - t0
            line = raw.decode(errors='replace').rstrip('\r\n')
            log.write(f'[{now:7.2f}] {line}\n')
            log.flush()
            print(f'[{now:7.2f}] {line}', flush=True)
            if line.startswith('@@ '):
                words = line.split()  # "@@ UPTIME init gpu=..." / "drm ..." / "job start" / "job exit rc=N"
                key = words[2] if words[2] != 'job' or len(words) < 4 else 'job_' + words[3]
                events.setdefault(key, round(now, 2))
            if 'KIOSK-VM screendump ' in line:
                with lock:
                    requests.append(line.split('KIOSK-VM screendump ', 1)[1].strip())
                    lock.notify()
            if 'KIOSK-VM screendump-pair ' in line:
                with lock:
                    requests.append(('pair', line.split('KIOSK-VM screendump-pair ', 1)[1].strip()))
                    lock.notify()
            for verb in ('watch', 'unwatch', 'mark'):
                if f'KIOSK-VM {verb} ' in line:
                    watch_command(verb, line.split(f'KIOSK-VM {verb} ', 1)[1].split())
            if 'KIOSK-VM resize ' in line:
                with lock:
                    requests.append('resize-' + line.split('KIOSK-VM resize ', 1)[1].strip())
                    lock.notify()
        with lock:
            lock.notify()
    threading.Thread(target=reader, daemon=True).start()

    deadline = t0 + a.timeout
    timed_out = False
    while True:
        with lock:
            while not requests and qemu.poll() is None and time.monotonic() < deadline:
                lock.wait(0.2)
            name = requests.pop(0) if requests else None
        if name is None:
            if qemu.poll() is not None:
                break
            timed_out = True
            break
        if isinstance(name, tuple):  # ('pair', NAME)
            dump_pair(name[1])
            continue
        name, _, head = name.partition(' ')  # `NAME HEAD`: a head of the two-headed GPU (device gpu0)
        if not name.replace('-', '').replace('_', '').isalnum() or head not in ('', '0', '1'):
            print(f'vm.py: refusing screendump name {name!r} head {head!r}', flush=True)
            continue
        if name.startswith('resize-'):
            size = name[len('resize-'):]
            try:
                w, h = (int(v) for v in size.split('x'))
                was = vnc_set_desktop_size(os.path.join(out, 'vnc.sock'), w, h)
                answer = f'ok {was[0]}x{was[1]} -> {size}\n'
            except (OSError, ValueError) as e:
                answer = f'error {e}\n'
            print(f'vm.py: resize {size}: {answer.strip()}', flush=True)
            with open(os.path.join(io, f'ack-{name}.tmp'), 'w') as f:
                f.write(answer)
            os.rename(os.path.join(io, f'ack-{name}.tmp'), os.path.join(io, f'ack-{name}'))
            continue
        ppm = os.path.join(io, f'{name}.ppm')
        monitor.command(f'screendump {ppm}' + (f' gpu0 {head}' if head and a.gpu == 'virtio2' else ''))
        stats = centre_stats(*png_from_ppm(ppm, os.path.join(out, f'{name}.png')))
        shutil.move(ppm, os.path.join(out, f'{name}.ppm'))  # kept for the pixel checks (check.py)
        shots.append({'name': name, 'head': int(head or 0), 't': round(time.monotonic() - t0, 2), 'size': f'{stats[0]}x{stats[1]}',
                      'centre': list(stats[2:5]), 'uniform': round(stats[5], 4)})
        with open(os.path.join(io, f'ack-{name}.tmp'), 'w') as f:
            f.write('%d %d %d %d %d %.4f\n' % stats)
        os.rename(os.path.join(io, f'ack-{name}.tmp'), os.path.join(io, f'ack-{name}'))
    if timed_out:
        print(f'vm.py: timeout after {a.timeout} s, quitting QEMU', flush=True)
        try:
            monitor.command('quit', wait_hangup=True)
        except OSError:
            qemu.kill()
    try:
        qemu.wait(timeout=30)
    except subprocess.TimeoutExpired:  # a guest starved by a loaded host may not even answer `quit`
        print('vm.py: QEMU still running 30 s after quit, killing it', flush=True)
        qemu.kill()
        qemu.wait()
    for w in list(watches.values()):
        w.stop()
    events['qemu_exit'] = round(time.monotonic() - t0, 2)
    rc_path = os.path.join(io, 'job.rc')
    job_rc = int(open(rc_path).read().strip()) if os.path.exists(rc_path) else None
    rc = 124 if timed_out else (job_rc if job_rc is not None else 125)
    summary = {'gpu': a.gpu, 'res': a.res, 'events_s': events, 'screendumps': shots, 'job_rc': job_rc, 'rc': rc}
    with open(os.path.join(out, 'summary.json'), 'w') as f:
        json.dump(summary, f, indent=1)
    print('vm.py: ' + json.dumps(summary), flush=True)
    return rc


if __name__ == '__main__':
    sys.exit(main())
