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

U=/etc/systemd/system
cat > $U/kiosk-test.target <<'UNIT'
[Unit]
Description=kiosk systemd VM test: the basic system and the test job, nothing else
Requires=basic.target
Wants=kiosk-test.service
After=basic.target
AllowIsolate=yes
UNIT
cat > $U/kiosk-test.service <<'UNIT'
[Unit]
Description=kiosk systemd VM test job (/run/vmio/job.sh)
After=basic.target systemd-udev-trigger.service systemd-journald.service

# The VM ends with the job, whichever way it ends (vm.py then reads /run/vmio/job.rc; the job syncs, and the
# exchange folder is mounted uncached, so an immediate power-off loses nothing).
SuccessAction=poweroff-immediate
FailureAction=poweroff-immediate

[Service]
Type=oneshot
ExecStart=/bin/bash /run/vmio/job.sh
StandardInput=null
StandardOutput=tty
StandardError=tty
TTYPath=/dev/ttyS0
TimeoutStartSec=600
UNIT
# Not needed here, and slow or failing in a VM without network or autofs: masked in the overlay only.
for u in systemd-timesyncd.service systemd-pstore.service apt-daily.timer apt-daily-upgrade.timer \
         dpkg-db-backup.timer e2scrub_all.timer fstrim.timer proc-sys-fs-binfmt_misc.automount \
         systemd-binfmt.service systemd-journal-flush.service; do
  ln -sf /dev/null "$U/$u"
done
mkdir -p /etc/systemd/journald.conf.d
printf '[Journal]\nStorage=volatile\nForwardToConsole=no\nRateLimitBurst=0\n' > /etc/systemd/journald.conf.d/vm-test.conf
echo "systemd-setup: installed; kiosk user: $(id kiosk)"
