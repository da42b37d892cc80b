#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds kiosk and shows the built-in demo. Without a display (no
# /dev/dri card with a connected screen) it records the demo once to kiosk-demo.mp4 and says where it is.
set -euo pipefail
here="$(pwd)"
cd "$(dirname "$0")/.."
bash Kiosk/setup.sh
export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product kiosk
bin="$(swift build -c release --show-bin-path)"
# What the tour shows besides its files: each item's caption, Ken Burns on the stills, a different transition at
# each change (with seed 7 the first five are crossfade, fade, wipe, zoom, slide) and a clock.
demo=(--captions --ken-burns --transition random --seed 7 --clock %H:%M)
connected=""
for s in /sys/class/drm/card*-*/status; do
  [ -r "$s" ] && [ "$(cat "$s")" = connected ] && connected=yes
done
if [ -n "$connected" ] && "$bin/kiosk" play --help | grep -q -- '--output.*drm'; then
  exec "$bin/kiosk" play "${demo[@]}" --log-level info
fi
out="$here/kiosk-demo.mp4"
LIBGL_ALWAYS_SOFTWARE=1 "$bin/kiosk" record "${demo[@]}" --no-loop --output "$out" --size 1280x720 --fps 30 --log-level info
echo "No display here: the demo was recorded to $out"
