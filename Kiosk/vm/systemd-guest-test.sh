#!/bin/bash
# The systemd VM test's guest half: run by kiosk-test.service inside the VM, with systemd as PID 1 and kiosk
# installed by install.sh (systemd-setup.sh). Drives kiosk.service with systemctl, journalctl, kill and /proc and
# records what they say under $R (the exchange folder's results/); systemd-check.py judges the records on the
# host. Stdout is the serial console: `KIOSK-VM screendump NAME` lines go to vm.py. Every wait is bounded.
# Under TCG one systemctl call takes about a second while kiosk renders: each poll makes one.
set -u
IO=/run/vmio; R=$IO/results; mkdir -p $R
. $IO/sd-test.env
M=/srv/kiosk/media
up() { cut -d' ' -f1 /proc/uptime; }
say() { echo "sd-test: [$(up)] $*"; }
shot() { echo "KIOSK-VM screendump $1"; local n=0; while [ ! -e $IO/ack-$1 ] && [ $n -lt 600 ]; do sleep 0.05; n=$((n+1)); done; }
# within SECONDS CMD...: runs CMD until it succeeds, for up to SECONDS; 1 on timeout
within() { local end=$(( $(date +%s) + $1 )); shift; until "$@"; do [ $(date +%s) -ge $end ] && return 1; sleep 0.2; done; }
# snap: the unit's state into shell variables, in one call
snap() {
  ActiveState= SubState= MainPID= NRestarts= StatusText= Result=
  while IFS='=' read -r k v; do printf -v "$k" '%s' "$v"; done \
    < <(systemctl show kiosk -p ActiveState,SubState,MainPID,NRestarts,StatusText,Result)
}
show() { systemctl show kiosk -p ActiveState,SubState,StatusText,NRestarts,MainPID,Result; }
J() { journalctl -u kiosk --no-pager -o short-monotonic "$@"; }
status_is() { snap; [ "$StatusText" = "showing $1" ]; }
journal_has() { J | grep -q -- "$1"; }
restarted() { snap; [ "${NRestarts:-0}" -gt "$n0" ] && [ "$ActiveState/$SubState" = active/running ] && [ "$MainPID" != "$pid" ]; }
# shot_item NAME [FILE]: a screendump while StatusText names FILE (any item without it), with StatusText before and
# after it; when the item changed in between (under TCG a screendump can outlast the rest of a slot), once more
# when FILE shows again (without FILE: as soon as the next item shows)
shot_item() {
  local before try
  for try in 1 2 3; do
    snap; before=$StatusText; sleep 0.5; rm -f $IO/ack-$1; shot $1; snap
    echo "$before|$StatusText" > $R/$1.status
    [ "$before" = "$StatusText" ] && return 0
    within 30 status_is "${2:-${StatusText#showing }}" || return 1
  done
}

say "job start (systemd $(systemctl --version | head -1 | cut -d' ' -f2))"
echo "$(up)" > $R/job-start.up
udevadm settle --timeout=30; echo "settle rc $?" > $R/udev.txt
stat -c '%n %U %G %a' /dev/dri/* /dev/tty0 >> $R/udev.txt 2>&1

# The console's text before kiosk (cursor hidden): after the stop it should be back.
printf '\033[?25l\033[2J\033[Hkiosk systemd VM test: the console before and after\n' > /dev/tty1
sleep 0.5; shot console-before

# 1. Type=notify: `systemctl start` returns once READY=1 came (after the first frame), not at the exec.
say "systemctl start kiosk"
t0=$(up); timeout 150 systemctl start kiosk; rc=$?; t1=$(up)
show > $R/start.show
systemctl show kiosk -p ExecMainStartTimestampMonotonic,ActiveEnterTimestampMonotonic >> $R/start.show
echo "$rc $t0 $t1" > $R/start.rc
say "start rc $rc, $(grep -E '^(ActiveState|SubState|StatusText)' $R/start.show | tr '\n' ' ')"

# 2. The screen shows the item StatusText names: a screendump in a's and in b's slot.
for item in a b; do
  if within 30 status_is "$M/$item.png"; then
    shot_item shown-$item "$M/$item.png"
  else
    echo "never|$StatusText" > $R/shown-$item.status
  fi
done

# 7. The sandbox, on the running player: user, no_new_privs, seccomp, the state file (an item change happened).
snap; pid=$MainPID
grep -E '^(Name|Uid|Gid|Groups|NoNewPrivs|Seccomp|CapEff|CapBnd):' /proc/$pid/status > $R/sandbox.status 2>&1
ps -o user=,group=,comm= -p $pid > $R/sandbox.ps 2>&1
stat -c '%n %U %G %a' /var/lib/kiosk /var/lib/kiosk/state.json /run/kiosk /run/kiosk/ipc.sock /var/cache/kiosk \
  > $R/sandbox.files 2>&1
cat /var/lib/kiosk/state.json > $R/state.json 2>&1

# 4. Priorities: the missing playlist entry is a warning; the info lines are not.
journalctl -u kiosk --no-pager -o cat -p warning > $R/journal-warning.txt
journalctl -u kiosk --no-pager -o cat -p info > $R/journal-info.txt
journalctl -u kiosk --no-pager -o json --output-fields=PRIORITY,MESSAGE,_PID,_COMM > $R/journal.json

# 5. Reload: SIGHUP reads the config again; the same process plays on.
timeout 30 systemctl reload kiosk; rc=$?
within 20 journal_has "SIGHUP: reloaded"; found=$?
snap; echo "$rc $found $pid $MainPID $ActiveState/$SubState" > $R/reload.txt

# 3. Watchdog: a stopped process sends no WATCHDOG=1; systemd aborts it after WatchdogSec and restarts it.
snap; pid=$MainPID; n0=$NRestarts
say "kill -STOP $pid (NRestarts $n0)"
t0=$(up); kill -STOP $pid
within 120 restarted; t2=$(up)
echo "$pid $n0 $t0 $t2" > $R/watchdog.txt
show > $R/watchdog.show
say "watchdog: $ActiveState/$SubState pid $MainPID NRestarts $NRestarts"
shot_item restarted

# 6. Stop: SIGTERM, the player exits within TimeoutStopSec and restores the console.
snap; pid=$MainPID
t0=$(up); timeout 30 systemctl stop kiosk; rc=$?; t1=$(up)
echo "$rc $t0 $t1 $pid" > $R/stop.txt
show > $R/stop.show
sleep 1; shot console-after
say "stopped; the records"
J > $R/kiosk.journal
J -o verbose > $R/kiosk.journal.verbose
# Why the console may stay blank: can the service's user and device policy reach the VT at all? And would a unit
# that hands the player tty1 as its standard input (TTYPath=) let it switch the VT's mode? (KDGETMODE, KDSETMODE)
kd='import fcntl,sys; f=open(sys.argv[1],"r+b",buffering=0) if sys.argv[1]!="-" else sys.stdin.buffer; m=bytearray(4); fcntl.ioctl(f,0x4B3B,m); fcntl.ioctl(f,0x4B3A,1); fcntl.ioctl(f,0x4B3A,0); print("KDSETMODE ok")'
{
  echo "# runuser -u kiosk: open /dev/tty0"; runuser -u kiosk -- python3 -c "$kd" /dev/tty0 2>&1 | tail -1
  echo "# root in a unit with DevicePolicy=closed (the unit's DeviceAllow=): open /dev/tty0"
  timeout 30 systemd-run --quiet --wait --pipe -p DevicePolicy=closed -p "DeviceAllow=char-drm rw" \
    python3 -c "$kd" /dev/tty0 2>&1 | tail -1
  echo "# User=kiosk, TTYPath=/dev/tty2, StandardInput=tty, DeviceAllow=/dev/tty2 rw: KDSETMODE on stdin"
  timeout 30 systemd-run --quiet --wait -p User=kiosk -p DevicePolicy=closed -p "DeviceAllow=/dev/tty2 rw" \
    -p NoNewPrivileges=yes -p TTYPath=/dev/tty2 -p StandardInput=tty -p StandardOutput=file:$R/tty-probe.stdin \
    -p StandardError=file:$R/tty-probe.stdin python3 -c "$kd" - ; echo "rc $?"; cat $R/tty-probe.stdin
} > $R/tty-probe.txt 2>&1
systemd-analyze verify kiosk.service > $R/verify.txt 2>&1; echo "rc $?" >> $R/verify.txt
systemd-analyze security kiosk.service --no-pager > $R/security.txt 2>&1
journalctl -b --no-pager -o short-monotonic > $R/journal-boot.txt
systemctl list-units --no-pager --no-legend --state=failed > $R/units-failed.txt 2>&1
say "done"
echo 0 > $IO/job.rc
sync
