#!/bin/bash
# The package VM test's guest half: run by kiosk-package-test.service in the VM booted from Kiosk/package-test.sh's
# debootstrap root (systemd as PID 1, kiosk installed from the .deb with apt, the shipped config: the demo).
# Starts kiosk.service, waits for its StatusText, asks for a screendump (`KIOSK-VM screendump NAME`, vm.py) and
# stops it, recording what systemctl and journalctl say under $R (the exchange folder's results/), which
# package-vm.sh judges on the host. Every wait is bounded.
set -u
IO=/run/vmio; R=$IO/results; mkdir -p $R
up() { cut -d' ' -f1 /proc/uptime; }
say() { echo "pkg-vm: [$(up)] $*"; }
shot() { echo "KIOSK-VM screendump $1"; local n=0; while [ ! -e $IO/ack-$1 ] && [ $n -lt 600 ]; do sleep 0.05; n=$((n+1)); done; }
# within SECONDS CMD...: runs CMD until it succeeds, for up to SECONDS; 1 on timeout
within() { local end=$(( $(date +%s) + $1 )); shift; until "$@"; do [ $(date +%s) -ge $end ] && return 1; sleep 0.5; done; }
showing() { systemctl show kiosk -p StatusText --value | grep -q '^showing '; }

say "job start (systemd $(systemctl --version | head -1 | cut -d' ' -f2))"
udevadm settle --timeout=30
stat -c '%n %U %G %a' /dev/dri/* > $R/dri.txt 2>&1
systemctl is-enabled kiosk > $R/enabled.txt 2>&1
# The shipped config plays the demo tour, whose 1920-pixel photos, random transitions and 360 view llvmpipe under
# TCG renders so slowly that a frame can outlast the unit's 10 s watchdog: here (in the overlay only) one demo
# photo, no transition, as systemd-test.sh's config does.
cp /etc/kiosk/kiosk.conf $R/kiosk.conf.shipped
cat >> /etc/kiosk/kiosk.conf <<'CONF'
# added by Kiosk/vm/package-vm-guest.sh (the VM's overlay only)
path = /usr/share/kiosk/demo/01-dandelions.jpg
transition = none
ken-burns = false
log-level = info
CONF
say "systemctl start kiosk"
timeout 120 systemctl start kiosk; echo $? > $R/start.rc
within 120 showing; echo $? > $R/showing.rc
sleep 3; shot playing
systemctl show kiosk -p ActiveState,SubState,StatusText,MainPID,User > $R/playing.txt
say "systemctl stop kiosk"
timeout 60 systemctl stop kiosk; echo $? > $R/stop.rc
systemctl show kiosk -p ActiveState,Result,ExecMainCode,ExecMainStatus > $R/stopped.txt
journalctl -u kiosk --no-pager -o short-monotonic > $R/journal.txt 2>&1
say "job end"
echo 0 > $IO/job.rc
sync
