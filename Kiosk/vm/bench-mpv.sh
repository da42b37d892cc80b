#!/bin/bash
# Side by side in the same VM (Debian's kernel under QEMU TCG, virtio-gpu by default, 640x480, Mesa llvmpipe
# behind GBM): kiosk's presented frames per second against mpv's (--vo=gpu --gpu-context=drm --gpu-sw) on real
# DRM/KMS. A benchmark, not a test: it prints the figures and the ratio.
#   kiosk: `kiosk play --ken-burns` on one 640x480 still (a redraw every frame: decode once, one textured pass per
#          frame, page flip), frames presented after the first / seconds (kiosk's own count, start-up excluded).
#   mpv:   a generated 640x480 60 fps H.264 clip with --untimed (presents as fast as it can), frames shown between
#          two runs of --frames=30 and --frames=150, divided by the difference of their wall times (start-up
#          excluded the same way). mpv decodes video on top; kiosk can't play video yet.
# Usage: Kiosk/vm/bench-mpv.sh [GPU=virtio] [SCRATCH=.build] [SECONDS_KIOSK=20]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
GPU=${GPU:-virtio}
RES=640x480
SCRATCH=${SCRATCH:-$ROOT/.build}
OUT=${OUT:-$ROOT/out/bench-mpv}
LENGTH=${SECONDS_KIOSK:-20}
if ! command -v mpv >/dev/null; then
  if [ "$(id -u)" = 0 ]; then DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends mpv
  else echo "bench-mpv: needs mpv (apt-get install mpv)" >&2; exit 1; fi
fi
"$HERE/prepare-kernel.sh"
"$HERE/build-initramfs.sh"
(cd "$ROOT" && swift build --scratch-path "$SCRATCH" --product kiosk 2>&1 | tail -1)
KIOSK=$(cd "$SCRATCH" && pwd)/debug/kiosk
rm -rf "$OUT"; mkdir -p "$OUT/fixtures"
F=$OUT/fixtures
ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=$RES,gblur=sigma=1.5" -frames:v 1 "$F/still.png"
ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=$RES:rate=60" -t 10 -c:v libx264 -preset ultrafast \
  -pix_fmt yuv420p "$F/clip.mp4" 2>/dev/null \
  || ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=$RES:rate=60" -t 10 -c:v mpeg4 -q:v 3 "$F/clip.mp4"
IO=$HERE/.cache/io
JOB=$(mktemp)
trap 'rm -f "$JOB"' EXIT
cat > "$JOB" <<JOB
export LIBGL_ALWAYS_SOFTWARE=1
R=\$KIOSK_VM_IO/results; mkdir -p \$R
now() { date +%s.%N; }
"$KIOSK" play --output drm --ken-burns --duration 600 --transition none --length $LENGTH --log-level info \
  "$F/still.png" > \$R/kiosk.log 2>&1
for n in 30 150; do
  t0=\$(now)
  mpv --vo=gpu --gpu-context=drm --gpu-sw --drm-device=/dev/dri/card0 --no-audio --untimed --frames=\$n \
    --really-quiet --no-config "$F/clip.mp4" > \$R/mpv-\$n.log 2>&1
  echo "\$? \$t0 \$(now)" > \$R/mpv-\$n.time
done
JOB
rm -rf "$IO/results"
python3 "$HERE/vm.py" --gpu "$GPU" --res "$RES" --job "$JOB" --out "$OUT/$GPU" --timeout 300 > "$OUT/$GPU.log" 2>&1 || true
cp -r "$IO/results" "$OUT/results"
python3 - "$OUT/results" "$GPU" <<'PY'
import re, sys, os
r, gpu = sys.argv[1], sys.argv[2]
log = open(os.path.join(r, 'kiosk.log')).read()
m = re.search(r'played \d+ items, (\d+) frames, ([0-9.]+) frames/s', log)
kiosk = float(m.group(2)) if m else None
t = {}
for n in (30, 150):
    rc, a, b = open(os.path.join(r, f'mpv-{n}.time')).read().split()
    t[n] = (int(rc), float(b) - float(a))
mpv = 120 / (t[150][1] - t[30][1]) if t[150][1] > t[30][1] else None
print(f"bench-mpv ({gpu}, 640x480, llvmpipe under QEMU TCG):")
print(f"  kiosk --ken-burns still: {m.group(1) if m else '?'} frames, {kiosk if kiosk else '?'} presented frames/s after the first")
print(f"  mpv --untimed clip: 30 frames in {t[30][1]:.2f} s (rc {t[30][0]}), 150 in {t[150][1]:.2f} s (rc {t[150][0]}): "
      f"{mpv:.2f} frames/s" if mpv else f"  mpv: no figure {t}")
if kiosk and mpv:
    print(f"  ratio kiosk/mpv: {kiosk / mpv:.2f}")
PY
