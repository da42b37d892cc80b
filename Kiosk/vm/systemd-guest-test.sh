#!/bin/bash
# The systemd VM test's guest half: run by kiosk-test.service inside the VM, with systemd as PID 1 and kiosk
# installed by install.sh (systemd-setup.sh). Drives kiosk.service with systemctl, journalctl, kill and /proc and
# records what they say under $R (the exchange folder's results/); systemd-check.py judges the records on the
# host. Stdout is the serial console: `KIOSK-VM screendump NAME` lines go to vm.py. Every wait is bounded.
set -u
IO=/run/vmio; R=$IO/results; mkdir -p $R
. $IO/sd-test.env
up() { cut -d' ' -f1 /proc/uptime; }
say() { echo "sd-test: [$(up)] $*"; }
shot() { echo "KIOSK-VM screendump $1"; local n=0; while [ ! -e $IO/ack-$1 ] && [ $n -lt 600 ]; do sleep 0.05; n=$((n+1)); done; }
# within SECONDS CMD...: runs CMD every 0.2 s until it succeeds, for up to SECONDS; 1 on timeout
within() { local end=$(( $(date +%s) + $1 )); shift; until "$@"; do [ $(date +%s) -ge $end ] && return 1; sleep 0.2; done; }
prop() { systemctl show kiosk -p "$1" --value; }
show() { systemctl show kiosk -p ActiveState,SubState,StatusText,NRestarts,MainPID,Result,ExecMainCode,ExecMainStatus; }
J() { journalctl -u kiosk --no-pager -o short-monotonic "$@"; }
status_is() { [ "$(prop StatusText)" = "showing $1" ]; }
running() { [ "$(prop ActiveState)/$(prop SubState)" = active/running ]; }
journal_has() { J | grep -q -- "$1"; }

say "job start (systemd $(systemctl --version | head -1 | cut -d' ' -f2))"
echo "$(up)" > $R/job-start.up
systemctl show -p KernelTimestampMonotonic,InitRDTimestampMonotonic,UserspaceTimestampMonotonic > $R/manager.times
udevadm settle --timeout=30; echo "settle rc $?" > $R/udev.txt
stat -c '%n %U %G %a' /dev/dri/* >> $R/udev.txt 2>&1
id kiosk > $R/id-kiosk.txt 2>&1
cp /etc/systemd/system/kiosk.service $R/kiosk.service.installed
systemd-analyze verify kiosk.service > $R/verify.txt 2>&1; echo "rc $?" >> $R/verify.txt
systemd-analyze security kiosk.service --no-pager > $R/security.txt 2>&1
systemctl list-units --no-pager --no-legend --state=active,activating,failed > $R/units-before.txt 2>&1

# The console's text before kiosk (cursor hidden): after the stop it should be back.
printf '\033[?25l\033[2J\033[Hkiosk systemd VM test: the console before and after\n' > /dev/tty1
sleep 0.5; shot console-before

# 1. Type=notify: `systemctl start` returns once READY=1 came (after the first frame), not at the exec.
say "systemctl start kiosk"
t0=$(up); timeout 150 systemctl start kiosk; rc=$?; t1=$(up)
show > $R/start.show
systemctl show kiosk -p ExecMainStartTimestampMonotonic,ActiveEnterTimestampMonotonic >> $R/start.show
echo "$rc $t0 $t1" > $R/start.rc
say "start rc $rc after $(echo "$t1 - $t0" | bc) s: $(prop ActiveState)/$(prop SubState) $(prop StatusText)"
within 10 journal_has "first frame presented"
J > $R/start.journal

# 2. The screen shows the item StatusText names: screendumps 1 s into a's and b's slots.
for item in a b; do
  if within 30 status_is "/srv/kiosk/media/$item.png"; then
    sleep 1; before=$(prop StatusText); shot shown-$item; after=$(prop StatusText)
    echo "$before|$after" > $R/shown-$item.status
  else
    echo "never|$(prop StatusText)" > $R/shown-$item.status
  fi
done

# 7. The sandbox, on the running player: user, no_new_privs, seccomp, the state file (an item change happened).
pid=$(prop MainPID)
grep -E '^(Name|Uid|Gid|Groups|NoNewPrivs|Seccomp|CapEff|CapBnd):' /proc/$pid/status > $R/sandbox.status 2>&1
ps -o user=,group=,comm= -p $pid > $R/sandbox.ps 2>&1
within 15 test -s /var/lib/kiosk/state.json
stat -c '%n %U %G %a' /var/lib/kiosk /var/lib/kiosk/state.json /run/kiosk /run/kiosk/ipc.sock /var/cache/kiosk \
  > $R/sandbox.files 2>&1
cat /var/lib/kiosk/state.json > $R/state.json 2>&1
cat /proc/$pid/cgroup > $R/sandbox.cgroup 2>&1

# 4. Priorities: the missing playlist entry is a warning; the info lines are not.
journalctl -u kiosk --no-pager -o cat -p warning > $R/journal-warning.txt
journalctl -u kiosk --no-pager -o cat -p info > $R/journal-info.txt
journalctl -u kiosk --no-pager -o json --output-fields=PRIORITY,MESSAGE,_PID > $R/journal.json

# 5. Reload: SIGHUP reads the config again; the same process plays on.
pid=$(prop MainPID)
t0=$(up); timeout 30 systemctl reload kiosk; rc=$?
within 20 journal_has "SIGHUP: reloaded"; found=$?
sleep 1
echo "$rc $found $pid $(prop MainPID) $(prop ActiveState)/$(prop SubState) $t0" > $R/reload.txt
J | grep -E "SIGHUP|Reload" > $R/reload.journal

# 3. Watchdog: a stopped process sends no WATCHDOG=1; systemd aborts it after WatchdogSec and restarts it.
pid=$(prop MainPID); n0=$(prop NRestarts)
say "kill -STOP $pid (NRestarts $n0)"
t0=$(up); kill -STOP $pid
within 40 journal_has "Watchdog timeout"; t1=$(up)
within 40 test "$(prop NRestarts)" -gt "$n0"
within 120 eval 'running && [ "$(prop MainPID)" != "$pid" ] && [ "$(prop MainPID)" != 0 ]'; t2=$(up)
echo "$pid $n0 $t0 $t1 $t2" > $R/watchdog.txt
show > $R/watchdog.show
J > $R/watchdog.journal
say "watchdog: $(prop ActiveState)/$(prop SubState) pid $(prop MainPID) NRestarts $(prop NRestarts)"
if within 30 status_is "/srv/kiosk/media/a.png"; then sleep 1; shot restarted-a; fi

# 6. Stop: SIGTERM, the player exits within TimeoutStopSec and restores the console.
pid=$(prop MainPID)
t0=$(up); timeout 30 systemctl stop kiosk; rc=$?; t1=$(up)
echo "$rc $t0 $t1 $pid" > $R/stop.txt
show > $R/stop.show
sleep 1; shot console-after
J > $R/kiosk.journal
journalctl -b --no-pager -o short-monotonic > $R/journal-boot.txt
systemctl list-units --no-pager --no-legend --state=failed > $R/units-failed.txt 2>&1
say "done"
echo 0 > $IO/job.rc
sync
