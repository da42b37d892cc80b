#!/bin/bash
# kiosk under a real systemd: boots Debian's kernel under QEMU (TCG, bochs-drm or virtio-gpu) with systemd as
# PID 1 on the host's / (read-only over 9p, a tmpfs overlay on top), installs kiosk with Kiosk/install.sh in the
# guest and drives the hardened Kiosk/kiosk.service with systemctl and journalctl: Type=notify start, StatusText,
# the picture on screen, the watchdog restart, journal priorities, reload, stop, the sandbox. systemd-check.py
# prints one line per check (`PASS name: detail` / `FAIL name: detail`) and `N passed, M failed`.
# Usage: Kiosk/vm/systemd-test.sh   [GPU=bochs|virtio] [RES=640x480] [SCRATCH=.build] [VM_TIMEOUT=420]
#        [DROPIN=FILE]   a drop-in for kiosk.service to try (installed as kiosk.service.d/test.conf in the guest)
# Output: out/vm-systemd/ (serial.log, screendumps, summary.json, results/, checks.txt). Exit 0 when all pass.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
GPU=${GPU:-bochs}
RES=${RES:-640x480}
SCRATCH=${SCRATCH:-$ROOT/.build}
OUT=${OUT:-$ROOT/out/vm-systemd}
VM_TIMEOUT=${VM_TIMEOUT:-420}   # the VM takes about 190 s on a quiet host; a loaded one starves TCG
DURATION=10   # seconds per still: room for a screendump between two one-second systemctl polls
# systemd and udev in the host's root are what the guest boots: udev gives /dev/dri/card0 its group (video).
PACKAGES="qemu-system-x86 busybox-static kmod cpio python3 libgbm1 libegl-mesa0 libgl1-mesa-dri ffmpeg systemd udev passwd"
T0=$(date +%s.%N)
elapsed() { python3 -c "import sys,time; print(f'{time.time() - float(sys.argv[1]):.1f} s')" "$T0"; }

. "$HERE/need-tools.sh"
. "$ROOT/Kiosk/results.sh"
need_tools systemd-test "$PACKAGES" qemu-system-x86_64:qemu-system-x86 busybox:busybox-static depmod:kmod cpio:cpio \
  ffmpeg:ffmpeg /lib/systemd/systemd:systemd /lib/systemd/systemd-udevd:udev useradd:passwd

"$HERE/prepare-kernel.sh"
"$HERE/build-initramfs-systemd.sh"
echo "== kernel and initramfs: $(elapsed)"
(cd "$ROOT" && PATH=/opt/swift/usr/bin:$PATH swift build --product kiosk --scratch-path "$SCRATCH" 2>&1 | tail -1)
SCRATCH=$(cd "$SCRATCH" && pwd); KIOSK=$SCRATCH/debug/kiosk
[ -x "$KIOSK" ] || { echo "systemd-test: no kiosk in $SCRATCH/debug" >&2; exit 1; }
echo "== kiosk built: $(elapsed)"

# Two stills at the VM's resolution and what `kiosk snapshot` makes of them (the references).
FIX=$OUT/fixtures
rm -rf "$FIX"; mkdir -p "$FIX"
ff() { ffmpeg -v error -nostdin -y "$@"; }
ff -f lavfi -i "testsrc2=size=$RES,gblur=sigma=1.5" -frames:v 1 "$FIX/a.png"
ff -f lavfi -i "smptehdbars=size=$RES,gblur=sigma=1.5" -frames:v 1 "$FIX/b.png"
for i in a b; do
  LIBGL_ALWAYS_SOFTWARE=1 "$KIOSK" snapshot "$FIX/$i.png" --size "$RES" --output "$FIX/ref-$i.png"
  ff -i "$FIX/ref-$i.png" -f image2 -vcodec ppm "$FIX/$i.ppm"
done
echo "== fixtures: $(elapsed)"

IO=$HERE/.cache/io
mkdir -p "$IO"; rm -rf "$IO/results"
rm -f "$IO/kiosk-dropin.conf"; [ -z "${DROPIN:-}" ] || cp "$DROPIN" "$IO/kiosk-dropin.conf"
printf 'KIOSK_BIN=%q\nFIX=%q\nDURATION=%q\nDROPIN=%q\n' "$KIOSK" "$FIX" "$DURATION" "${DROPIN:-}" > "$IO/sd-test.env"
mkdir -p "$OUT"
python3 "$HERE/vm.py" --gpu "$GPU" --res "$RES" --job "$HERE/systemd-guest-test.sh" --out "$OUT/$GPU" \
  --timeout "$VM_TIMEOUT" --initrd "$HERE/.cache/initramfs-systemd.cpio" \
  --append "kiosk.setup=$HERE/systemd-setup.sh systemd.unit=kiosk-test.target systemd.show_status=1" \
  > "$OUT/$GPU.log" 2>&1 || true
rm -rf "$OUT/$GPU/results"; cp -r "$IO/results" "$OUT/$GPU/results" 2>/dev/null || mkdir -p "$OUT/$GPU/results"
echo "== VM: $(python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print('rc', s['rc'], s['events_s'])" "$OUT/$GPU/summary.json" 2>&1) total $(elapsed)"
rc=0
python3 "$HERE/systemd-check.py" --shots "$OUT/$GPU" --results "$OUT/$GPU/results" --fixtures "$FIX" \
  | tee "$OUT/$GPU/checks.txt" || rc=$?
# systemd-check.py runs 15 checks: fewer means a step stopped checking.
read -r passed failed < <(judge_checks "$OUT/$GPU/checks.txt" "$rc" 15 systemd-test)
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
