#!/bin/bash
# The systemd VM test's installation step. guest-init-systemd.sh runs it chrooted into the guest's new root (the
# host's / under a tmpfs overlay) before it hands over to systemd, so it changes only the overlay. It installs
# kiosk as docs/appliance.md says, with Kiosk/install.sh as root and no DESTDIR (the path that creates the `kiosk` user
# and its groups), the test's config, media and playlist, and the units that make systemd boot just enough: the
# basic system (journald, udevd, udev's coldplug) and the test job. The job itself is /run/vmio/job.sh
# (systemd-guest-test.sh, copied there by vm.py).
# Reads /run/vmio/sd-test.env: KIOSK_BIN (the binary to install), FIX (the stills), DURATION, and DROPIN (a
# drop-in for kiosk.service to try, in /run/vmio/kiosk-dropin.conf, or empty).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
. /run/vmio/sd-test.env
mkdir -p /run/vmio/results
"$ROOT/Kiosk/install.sh" --binary "$KIOSK_BIN" 2>&1 | tee /run/vmio/results/install.log

if [ -n "${DROPIN:-}" ]; then
  mkdir -p /etc/systemd/system/kiosk.service.d
  install -m 0644 /run/vmio/kiosk-dropin.conf /etc/systemd/system/kiosk.service.d/test.conf
  echo "systemd-setup: drop-in for kiosk.service from $DROPIN"
fi
# A fresh appliance: no state or shader cache from whatever ran on the host (gone in the overlay only).
rm -rf /var/lib/kiosk /var/cache/kiosk
# The test's media: two stills and a playlist whose third entry is missing (a warning at each load).
M=/srv/kiosk/media
install -m 0644 "$FIX/a.png" "$FIX/b.png" "$M/"
printf '%s\n' "$M/a.png" "$M/b.png" "$M/gone.png" > "$M/show.m3u"
chmod 0644 "$M/show.m3u"
cat > /etc/kiosk/kiosk.conf <<CONF
# written by Kiosk/vm/systemd-setup.sh for the systemd VM test
path = $M/show.m3u
duration = $DURATION
transition = none
fit = contain
ken-burns = false
log-level = info
CONF

. "$HERE/test-units.sh"
test_units /etc kiosk-test "systemd VM test"
echo "systemd-setup: installed; kiosk user: $(id kiosk)"
