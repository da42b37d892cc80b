#!/usr/bin/env bash
# The real-time soak: `kiosk play` headless for KIOSK_SOAK_SECONDS (default 3600) over a mixed playlist (stills, GIF,
# WebP, APNG, a 1080p clip with sound, a sound file) changing every 0.3 s, printing its RSS every
# KIOSK_SOAK_EVERY seconds (default 60; mean, min and max of one sample a second) and, at the end, the growth of
# the last window's mean over the first's (the warm-up) and the peak.
# Usage: Kiosk/soak.sh [KIOSK_BINARY]   (default: a release build of this checkout)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${KIOSK_SOAK_SECONDS:-3600}"
every="${KIOSK_SOAK_EVERY:-60}"
if [ $# -ge 1 ]; then
    kiosk="$1"
else
    export PATH="/opt/swift/usr/bin:$PATH"
    swift build -c release --product kiosk >/dev/null
    kiosk="$(swift build -c release --show-bin-path)/kiosk"
fi
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
src=(-f lavfi -i testsrc2=size=640x360:rate=10)
ff() { ffmpeg -y -v error -nostdin "$@"; }
ff "${src[@]}" -frames:v 1 "$dir/a.png"
ff -f lavfi -i testsrc2=size=4000x3000 -frames:v 1 "$dir/b.jpg"
ff "${src[@]}" -frames:v 20 -loop 0 "$dir/c.gif"
ff "${src[@]}" -frames:v 20 -c:v libwebp_anim -loop 0 "$dir/d.webp"
ff -f lavfi -i testsrc2=size=1920x1080:rate=25 -frames:v 50 -plays 0 -f apng "$dir/e.apng"
ff -f lavfi -i testsrc2=size=1920x1080:rate=30 -f lavfi -i sine=frequency=440:sample_rate=48000 -t 3 \
   -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac -shortest "$dir/f.mp4"
ff -f lavfi -i sine=frequency=660:sample_rate=48000 -t 2 "$dir/g.wav"

LIBGL_ALWAYS_SOFTWARE="${LIBGL_ALWAYS_SOFTWARE:-1}" "$kiosk" play --output headless --size 1920x1080 \
    --duration 0.3 --transition-time 0.1 --length "$seconds" --log-level error --state-dir "$dir/state" \
    "$dir"/a.png "$dir"/b.jpg "$dir"/c.gif "$dir"/d.webp "$dir"/e.apng "$dir"/f.mp4 "$dir"/g.wav &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
start=$(date +%s)
# RSS is read every second; each line is one window of $every seconds: its mean, min and max, and the peak so far.
# Growth compares the mean of the last window with the mean of the first window after the warm-up (the first).
printf '%8s %10s %10s %10s %10s\n' seconds mean_mib min_mib max_mib peak_mib
samples=""
first=""
last=""
n=0
while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    status="/proc/$pid/status"
    [ -r "$status" ] || break
    rss=$(awk '/^VmRSS/ {printf "%.1f", $2/1024}' "$status")
    hwm=$(awk '/^VmHWM/ {printf "%.1f", $2/1024}' "$status")
    [ -n "$rss" ] || break
    samples="$samples $rss"
    n=$((n + 1))
    if [ "$n" -ge "$every" ]; then
        line=$(echo $samples | awk '{ s = 0; lo = $1; hi = $1; for (i = 1; i <= NF; i++) { s += $i; if ($i < lo) lo = $i; if ($i > hi) hi = $i }
                                     printf "%.1f %.1f %.1f", s / NF, lo, hi }')
        read -r mean lo hi <<<"$line"
        printf '%8d %10s %10s %10s %10s\n' $(( $(date +%s) - start )) "$mean" "$lo" "$hi" "$hwm"
        [ -n "$first" ] || first="$mean"
        last="$mean"
        samples=""
        n=0
    fi
done
wait "$pid" || { echo "soak: kiosk exited with status $?"; exit 1; }
if [ -n "$first" ] && [ -n "$last" ]; then
    awk -v a="$first" -v b="$last" -v e="$every" -v p="${hwm:-?}" 'BEGIN { printf "soak: mean RSS %.1f MiB over the first %s s, %.1f MiB over the last (%+.2f %%); peak %s MiB\n", a, e, b, (b - a) * 100 / a, p }'
fi
