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
# With no path kiosk plays the built-in tour with its own settings (captions, Ken Burns, a different transition
# at each change, a clock: DemoPlaylist.flags).
connected=""
for s in /sys/class/drm/card*-*/status; do
  [ -r "$s" ] && [ "$(cat "$s")" = connected ] && connected=yes
done
if [ -n "$connected" ] && "$bin/kiosk" play --help | grep -q -- '--output.*drm'; then
  exec "$bin/kiosk" play --log-level info
fi
out="$here/kiosk-demo.mp4"
LIBGL_ALWAYS_SOFTWARE=1 "$bin/kiosk" record --no-loop --output "$out" --size 1280x720 --fps 30 --log-level info
echo "No display here: the demo was recorded to $out"
