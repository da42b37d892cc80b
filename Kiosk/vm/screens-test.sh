#!/bin/bash
# Several screens on the DRM displays of one card (issue 40), on a real kernel: Debian's kernel under QEMU with a
# virtio-gpu of two heads (vm.py --gpu virtio2: outputs Virtual-1 and Virtual-2). The second head reads as
# disconnected until the job forces it on (/sys/class/drm/card0-Virtual-2/status); such a connector has no EDID,
# so the modes are pinned: --drm-mode 640x480, and 800x600 for screen b by its [screen b] section. One `kiosk play
# --screen a:Virtual-1:a.png --screen b:Virtual-2:c.png` drives both heads from one loop; each head's screendump is
# compared with `kiosk snapshot` of its own picture and of the other's, at its mode's size. Then head 2 is forced
# off (kiosk says so in one line and plays on on head 1) and on again (kiosk sets its mode again).
# Then, in the same VM, a span: `kiosk play --screen w:Virtual-1+Virtual-2:span.mp4`, one 1280x480 canvas across
# both heads at 640x480 each (whatever RES). span.mp4 (screens-check.py --make-span-clip: testsrc2, 5 fps, 8 s)
# carries its frame number as a binary code in each half; the job takes SPAN_PAIRS screendump pairs (vm.py's
# `screendump-pair`: both heads while the VM stands still), and the check reads the code of each head (the same
# frame on both: frame lock; at least 3 frames: it plays) and compares head 0 | head 1 with ffmpeg's own decode
# of that frame (seamless); then the same span with `--drm-commit legacy` (one line says its CRTCs flip each on
# its own; each head still its half of the frame it shows). A mirror (`--screen m:Virtual-1,Virtual-2:a.png`): both heads, dumped at one instant,
# show a's snapshot. Touch by udev: a uinput touchscreen whose udev entry has WL_OUTPUT=Virtual-2 goes to screen b
# (its swipe steps b's folder, a stays), the keyboard to screen a (a space pauses a, not b).
# screens-check.py judges the results. About two minutes of guest time.
# Usage: Kiosk/vm/screens-test.sh   [RES=640x480] [SCRATCH=.build] [KIOSK_BIN=path/to/kiosk: no build, use it]
#        [SKIP_BUILD=1: no build, use $SCRATCH/debug/kiosk]
# Output: out/vm/screens.log (the VM run), out/vm/screens/ (serial.log, screendumps, results/, checks.txt),
# out/vm/screens-fixtures/. Ends with `N passed, M failed`.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
RES=${RES:-640x480}
SCRATCH=${SCRATCH:-$ROOT/.build}
OUT=${OUT:-$ROOT/out/vm}/screens
PACKAGES="qemu-system-x86 busybox-static kmod cpio python3 libgbm1 libegl-mesa0 libgl1-mesa-dri ffmpeg"
. "$HERE/need-tools.sh"
. "$ROOT/Kiosk/results.sh"
SCREENS_CHECKS=24  # 10 of the two screens, 6 of the span, 2 of its legacy commits, 2 of the mirror, 4 of touch by WL_OUTPUT
SPAN_PAIRS=6
need_tools screens-test "$PACKAGES" qemu-system-x86_64:qemu-system-x86 busybox:busybox-static depmod:kmod cpio:cpio ffmpeg:ffmpeg
"$HERE/prepare-kernel.sh"
"$HERE/build-initramfs.sh"
if [ -n "${KIOSK_BIN:-}" ]; then
  KIOSK=$(cd "$(dirname "$KIOSK_BIN")" && pwd)/$(basename "$KIOSK_BIN")
else
  [ "${SKIP_BUILD:-0}" = 1 ] || (cd "$ROOT" && swift build --scratch-path "$SCRATCH" 2>&1 | tail -1)
  KIOSK=$(cd "$SCRATCH/debug" && pwd)/kiosk
fi
[ -x "$KIOSK" ] || { echo "screens-test: no kiosk at $KIOSK" >&2; exit 1; }

FIX=$OUT-fixtures  # beside OUT: vm.py empties OUT when the VM starts
rm -rf "$FIX"; mkdir -p "$FIX"
ff() { ffmpeg -v error -nostdin -y "$@"; }
ff -f lavfi -i "testsrc2=size=$RES,gblur=sigma=1.5" -frames:v 1 "$FIX/a.png"
ff -f lavfi -i "mandelbrot=size=$RES" -frames:v 1 "$FIX/c.png"
export LIBGL_ALWAYS_SOFTWARE=1
for i in a c; do
  "$KIOSK" snapshot "$FIX/$i.png" --size "$RES" --output "$FIX/ref-$i.png"
  ff -i "$FIX/ref-$i.png" -f image2 -vcodec ppm "$FIX/$i.ppm"
  "$KIOSK" snapshot "$FIX/$i.png" --size 800x600 --output "$FIX/ref-$i-800x600.png"
  ff -i "$FIX/ref-$i-800x600.png" -f image2 -vcodec ppm "$FIX/$i-800x600.ppm"
done
# screen b's own mode: its section's drm-mode over the command line's
printf '[screen b]\ndrm-mode = 800x600\n' > "$FIX/screens.conf"
# the span's clip: 1280x480, its frame number coded in each half (screens-check.py decodes it again to judge)
python3 "$HERE/screens-check.py" --make-span-clip "$FIX/span.mp4"
# screen b's folder for the touch step: c.png, then a copy of a.png
mkdir -p "$FIX/bdir"; cp "$FIX/c.png" "$FIX/bdir/1-c.png"; cp "$FIX/a.png" "$FIX/bdir/2-a.png"

IO=$HERE/.cache/io
JOB=$(mktemp)
trap 'rm -f "$JOB"' EXIT
cat > "$JOB" <<JOB
export LIBGL_ALWAYS_SOFTWARE=1
R=\$KIOSK_VM_IO/results; mkdir -p \$R
F=$FIX
S=/sys/class/drm/card0-Virtual-2/status
# shot NAME HEAD: a screendump of head HEAD (0: Virtual-1, 1: Virtual-2)
shot() { echo "KIOSK-VM screendump \$1 \$2"; n=0; while [ ! -e "\$KIOSK_VM_IO/ack-\$1" ] && [ \$n -lt 1200 ]; do sleep 0.05; n=\$((n+1)); done; }
# the waits give up early once kiosk has exited (\$pid), so that a kiosk that failed costs seconds, not the VM's timeout
gone() { [ -n "\${pid:-}" ] && ! kill -0 \$pid 2>/dev/null; }
waitlog() { n=0; while ! grep -q "\$2" "\$1" 2>/dev/null; do gone && return 1; sleep 0.05; n=\$((n+1)); [ \$n -gt \$((\$3 * 20)) ] && return 1; done; return 0; }
cat \$S > \$R/status-before 2>&1
echo on > \$S; echo "rc \$?" >> \$R/status-forced; cat \$S >> \$R/status-forced 2>&1
"$KIOSK" outputs > \$R/outputs.txt 2>&1
"$KIOSK" play --config \$F/screens.conf --no-state --output drm --drm-mode $RES --transition none --log-level info \
  --screen a:Virtual-1:\$F/a.png --screen b:Virtual-2:\$F/c.png > \$R/play.log 2>&1 &
pid=\$!
# the first frame of each screen compiles its shaders on llvmpipe under TCG: seconds each
waitlog \$R/play.log "screen a: showing" 90 && waitlog \$R/play.log "screen b: showing" 90 && sleep 4
shot both-head0 0; shot both-head1 1
echo off > \$S
waitlog \$R/play.log "display on Virtual-2 disconnected" 20 && sleep 2 && shot off-head0 0
echo on > \$S
waitlog \$R/play.log "display on Virtual-2 is back" 20 && sleep 4 && shot back-head1 1 && shot back-head0 0
kill -0 \$pid 2>/dev/null && alive=1 || alive=0
kill -TERM \$pid; wait \$pid; echo "\$? \$alive" > \$R/play.exit

# The span: one canvas across both heads (head 2 on again, whatever the step above left)
# pair NAME: both heads at one instant of guest time (vm.py stops the VM for the two dumps)
pair() { echo "KIOSK-VM screendump-pair \$1"; n=0; while [ ! -e "\$KIOSK_VM_IO/ack-\$1" ] && [ \$n -lt 1200 ]; do sleep 0.05; n=\$((n+1)); done; }
echo on > \$S; cat \$S > \$R/span-status 2>&1
"$KIOSK" play --no-state --output drm --drm-mode 640x480 --transition none --log-level info --loop \
  --screen w:Virtual-1+Virtual-2:\$F/span.mp4 > \$R/span.log 2>&1 &
pid=\$!
# "showing" comes when the item starts, seconds before its first frame (shader compiles under TCG): wait for both
if waitlog \$R/span.log "showing" 90 && waitlog \$R/span.log "first frame presented" 90; then
  sleep 3
  k=1; while [ \$k -le $SPAN_PAIRS ]; do pair span-\$k; sleep 0.4; k=\$((k+1)); done
fi
kill -0 \$pid 2>/dev/null && alive=1 || alive=0
kill -TERM \$pid; wait \$pid; echo "\$? \$alive" > \$R/span.exit
grep span \$R/span.log > \$R/span-lines.txt

# The same span with legacy commits (--drm-commit legacy): one CRTC flipped after the other, said in one line
"$KIOSK" play --no-state --output drm --drm-mode 640x480 --drm-commit legacy --transition none --log-level info --loop \
  --screen w:Virtual-1+Virtual-2:\$F/span.mp4 > \$R/legacy.log 2>&1 &
pid=\$!
if waitlog \$R/legacy.log "first frame presented" 90; then sleep 2; pair legacy-1; sleep 0.4; pair legacy-2; fi
kill -0 \$pid 2>/dev/null && alive=1 || alive=0
kill -TERM \$pid; wait \$pid; echo "\$? \$alive" > \$R/legacy.exit

# A mirror: one picture on both heads, both dumped at one instant
"$KIOSK" play --no-state --output drm --drm-mode $RES --transition none --log-level info \
  --screen m:Virtual-1,Virtual-2:\$F/a.png > \$R/mirror.log 2>&1 &
pid=\$!
if waitlog \$R/mirror.log "first frame presented" 90; then sleep 2; pair mirror; fi
kill -0 \$pid 2>/dev/null && alive=1 || alive=0
kill -TERM \$pid; wait \$pid; echo "\$? \$alive" > \$R/mirror.exit

# Touch by udev's WL_OUTPUT: a uinput touchscreen whose udev entry says Virtual-2 is screen b's, so its swipe steps
# screen b (c.png, then a copy of a.png) and not a; the keyboard, naming no output, stays with screen a (a space
# pauses a)
N=\$R/input.nodes; FIFO=/run/tmp/uinput.fifo; mkdir -p /run/tmp
UINPUT_TOUCH_OUTPUT=Virtual-2 python3 "$HERE/uinput.py" ${RES%x*} ${RES#*x} \$N \$FIFO > \$R/uinput.log 2>&1 &
n=0; while [ ! -e \$N ] && [ \$n -lt 200 ]; do sleep 0.05; n=\$((n+1)); done
read TOUCH KEYS < \$N
sent=0
send() { echo "\$1" > \$FIFO; sent=\$((sent+1)); waitlog \$N.done "done \$sent " 20; }
"$KIOSK" play --no-state --output drm --drm-mode $RES --transition none --duration 600 --osd-level 0 --log-level info \
  --input-device \$TOUCH --input-device \$KEYS --screen a:Virtual-1:\$F/a.png --screen b:Virtual-2:\$F/bdir > \$R/touch.log 2>&1 &
pid=\$!
if waitlog \$R/touch.log "screen b: showing" 90 && waitlog \$R/touch.log "first frame presented" 90; then
  sleep 2
  send "drag 560 240 80 240 0.15 0"; waitlog \$R/touch.log "screen b: showing .*2-a.png" 20
  send "key 57"; waitlog \$R/touch.log "paused (user)" 10; sleep 1
fi
kill -0 \$pid 2>/dev/null && alive=1 || alive=0
kill -TERM \$pid; wait \$pid; echo "\$? \$alive" > \$R/touch.exit
echo quit > \$FIFO
JOB

mkdir -p "$OUT"
rm -rf "$IO/results"
python3 "$HERE/vm.py" --gpu virtio2 --res "$RES" --job "$JOB" --out "$OUT" --timeout 420 > "$OUT.log" 2>&1 || true
rm -rf "$OUT/results"; cp -r "$IO/results" "$OUT/results" 2>/dev/null || mkdir -p "$OUT/results"
rc=0
python3 "$HERE/screens-check.py" --shots "$OUT" --results "$OUT/results" --fixtures "$FIX" --span-pairs "$SPAN_PAIRS" | tee "$OUT/checks.txt" || rc=$?
# screens-check.py runs SCREENS_CHECKS checks: fewer means a step stopped checking.
read -r passed failed < <(judge_checks "$OUT/checks.txt" "$rc" "$SCREENS_CHECKS" screens-test)
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
