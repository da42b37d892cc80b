#!/bin/bash
# kiosk's HDMI-CEC on a real kernel: Debian's kernel under QEMU (bochs-drm) with the vivid module, two instances of
# it, each its own CEC bus: an HDMI input (the TV's adapter, physical address 0.0.0.0) and two HDMI outputs (1.0.0.0
# and 2.0.0.0): /dev/cec0, cec1, cec2 on the first bus, /dev/cec3, cec4, cec5 on the second. First several screens
# (issue 40): one headless `kiosk play` of screens a, b and c, a's adapter cec1 (TV A on cec0), b's cec4 (its
# section's; TV B on cec3), c's cec1 too (refused in one line: a's already). b's `screen off` over its own socket
# (PATH.b) sends TV B to standby and not TV A (each asked by a probe on its bus: cec2, cec5), b's `screen on` wakes
# TV B, a key from TV B's remote moves b alone, and each screen's cec-power is its own TV's. Then one screen, as
# before: cec-follower (v4l-utils) plays the TV on cec0, `cec-ctl --monitor` records the bus there, and kiosk
# plays on the DRM display with `--cec auto` (it picks cec1: cec0 is a display's own address). The job
# checks One Touch Play at start, the TV's remote (cec-ctl --user-control-pressed) moving the slideshow (screendumps
# against `kiosk snapshot`), the TV's own standby pausing it and its return resuming it, a schedule's off window
# sending Standby on the simulated clock (--start-time) and the next window waking the TV, cec-compliance against
# kiosk, and the adapter going away (vivid unbound) while kiosk plays on. cec-check.py judges the results.
# Usage: Kiosk/vm/cec-test.sh   [RES=640x480] [SCRATCH=.build]
# Output: out/vm/cec/ (serial.log, screendumps, results/, checks.txt), out/vm/cec-fixtures/. Ends with
# `N passed, M failed`.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
RES=${RES:-640x480}
SCRATCH=${SCRATCH:-$ROOT/.build}
OUT=${OUT:-$ROOT/out/vm}/cec
PACKAGES="qemu-system-x86 busybox-static kmod cpio python3 libgbm1 libegl-mesa0 libgl1-mesa-dri ffmpeg v4l-utils mosquitto"
. "$HERE/need-tools.sh"
. "$ROOT/Kiosk/results.sh"
CEC_CHECKS=21
need_tools cec-test "$PACKAGES" qemu-system-x86_64:qemu-system-x86 busybox:busybox-static depmod:kmod cpio:cpio \
  ffmpeg:ffmpeg cec-follower:v4l-utils
"$HERE/prepare-kernel.sh"
"$HERE/build-initramfs.sh" initramfs-cec "$HERE/guest-init.sh" \
  "bochs virtio-gpu virtio_pci 9p 9pnet_virtio uinput evdev snd-aloop snd-dummy vivid"
(cd "$ROOT" && swift build --scratch-path "$SCRATCH" 2>&1 | tail -1)
KIOSK=$(cd "$SCRATCH/debug" && pwd)/kiosk
[ -x "$KIOSK" ] || { echo "cec-test: no kiosk in $SCRATCH/debug" >&2; exit 1; }

FIX=$OUT-fixtures  # beside OUT: vm.py empties OUT when the VM starts
rm -rf "$FIX"; mkdir -p "$FIX"
ff() { ffmpeg -v error -nostdin -y "$@"; }
ff -f lavfi -i "testsrc2=size=$RES,gblur=sigma=1.5" -frames:v 1 "$FIX/a.png"
ff -f lavfi -i "smptehdbars=size=$RES,gblur=sigma=1.5" -frames:v 1 "$FIX/b.png"
export LIBGL_ALWAYS_SOFTWARE=1
for i in a b; do
  "$KIOSK" snapshot "$FIX/$i.png" --size "$RES" --output "$FIX/ref-$i.png"
  ff -i "$FIX/ref-$i.png" -f image2 -vcodec ppm "$FIX/$i.ppm"
done
# several screens, headless (CEC needs no display when the adapter is named): a and c take cec1 (c after a: refused),
# b its section's cec4; b plays two pictures and shows the first for 600 s unless a key moves it
cat > "$FIX/screens.conf" <<CONF
cec = /dev/cec1
cec-name = kiosk-a
size = 320x240
duration = 600
transition = none
osd-level = 0
screen = a:HDMI-A-1:$FIX/a.png
screen = b:HDMI-A-2:
screen = c:HDMI-A-3:$FIX/a.png
[screen b]
cec = /dev/cec4
cec-name = kiosk-b
path = $FIX/a.png
path = $FIX/b.png
CONF
# the player's wall clock starts at 21:54:30; the screen is off 22:00-22:01 (330 s and 390 s after the start:
# after cec-compliance, which takes about 210 s: some of its checks wait 60 s for what must not happen)
printf '*  22:00-22:01  off\n' > "$FIX/night.schedule"

IO=$HERE/.cache/io
JOB=$(mktemp)
trap 'rm -f "$JOB"' EXIT
cat > "$JOB" <<JOB
export LIBGL_ALWAYS_SOFTWARE=1
R=\$KIOSK_VM_IO/results; mkdir -p \$R
F=$FIX
shot() { echo "KIOSK-VM screendump \$1"; n=0; while [ ! -e "\$KIOSK_VM_IO/ack-\$1" ] && [ \$n -lt 1200 ]; do sleep 0.05; n=\$((n+1)); done; }
# the waits give up early once kiosk has exited (\$pid), so that a kiosk that failed costs seconds, not the VM's timeout
gone() { [ -n "\${pid:-}" ] && ! kill -0 \$pid 2>/dev/null; }
waitlog() { n=0; while ! grep -q "\$2" "\$1" 2>/dev/null; do gone && return 1; sleep 0.05; n=\$((n+1)); [ \$n -gt \$((\$3 * 20)) ] && return 1; done; return 0; }
waitcount() { end=\$((\$(date +%s) + \$4)); while [ "\$(grep -c "\$2" "\$1" 2>/dev/null)" -lt "\$3" ]; do
  gone && return 1; [ \$(date +%s) -ge \$end ] && return 1; sleep 0.2; done; return 0; }
# mark STEP: the uptime, the step, and how many lines the bus log and kiosk's log held then (the checks judge each
# step by what came after its mark, not by a line anywhere in the log)
lines() { n=\$(grep -c '' "\$1" 2>/dev/null); echo \${n:-0}; }  # (grep -c says 0 and fails on an empty file)
mark() { echo "\$(cut -d' ' -f1 /proc/uptime) \$* \$(lines \$R/cec-monitor.log) \$(lines \$R/cec.log)" >> \$R/cec.steps; }
# after STEP PATTERN SECONDS: until kiosk's log has PATTERN after STEP's mark
after() { from=\$(grep " \$1 " \$R/cec.steps | tail -n 1 | cut -d' ' -f4); end=\$((\$(date +%s) + \$3))
  while ! tail -n +\$((from + 1)) \$R/cec.log | grep -q "\$2"; do gone && return 1; [ \$(date +%s) -ge \$end ] && return 1; sleep 0.2; done; }
# --- several screens (issue 40), each its own TV on its own bus: TV A on cec0, TV B on cec3
for d in 0 1 2 3 4 5; do echo "== /dev/cec\$d" >> \$R/screens-adapters.txt; cec-ctl -d\$d >> \$R/screens-adapters.txt 2>&1; done
cec-ctl -d0 --tv --osd-name TV-A > \$R/screens-tv.log 2>&1
cec-ctl -d3 --tv --osd-name TV-B >> \$R/screens-tv.log 2>&1
cec-follower -d0 -s > \$R/screens-follower-a.log 2>&1 &
fa=\$!
cec-follower -d3 -s > \$R/screens-follower-b.log 2>&1 &
fb=\$!
stdbuf -oL cec-ctl -d0 --monitor-all > \$R/screens-monitor-a.log 2>&1 &
ma=\$!
stdbuf -oL cec-ctl -d3 --monitor-all > \$R/screens-monitor-b.log 2>&1 &
mb=\$!
# smark STEP: as mark, for this run: the uptime, the step, the lines of bus A's and bus B's logs and kiosk's
smark() { echo "\$(cut -d' ' -f1 /proc/uptime) \$* \$(lines \$R/screens-monitor-a.log) \$(lines \$R/screens-monitor-b.log) \$(lines \$R/screens.log)" >> \$R/screens.steps; }
# safter STEP PATTERN SECONDS: until kiosk's log has PATTERN after STEP's mark
safter() { from=\$(grep " \$1 " \$R/screens.steps | tail -n 1 | cut -d' ' -f5); end=\$((\$(date +%s) + \$3))
  while ! tail -n +\$((from + 1)) \$R/screens.log | grep -q "\$2"; do gone && return 1; [ \$(date +%s) -ge \$end ] && return 1; sleep 0.2; done; }
sctl() { "$KIOSK" ctl --socket /run/tmp/screens.sock "\$@"; }
# probe N FILE: the TV on the bus of /dev/cecN (cec2: TV A's bus, cec5: TV B's), asked for its power, into FILE
probe() { cec-ctl -s -d\$1 --to 0 --give-device-power-status > \$2 2>&1; }
smark start
"$KIOSK" play --config \$F/screens.conf --no-state --output headless --log-level debug \
  --input-ipc-server /run/tmp/screens.sock > \$R/screens.log 2>&1 &
pid=\$!
waitlog \$R/screens.log "screen b: cec: the TV is on" 120 && waitlog \$R/screens.log "screen a: cec: the TV is on" 30
# the probes claim their addresses after kiosk claimed its own (4, the first playback device's, as below)
cec-ctl -s -d2 --playback --osd-name probe-a > \$R/screens-probe.log 2>&1
cec-ctl -s -d5 --playback --osd-name probe-b >> \$R/screens-probe.log 2>&1
LB=\$(grep -o "screen b: cec: /dev/cec4 (vivid): playback device at logical address [0-9]*" \$R/screens.log | head -1 | grep -o "[0-9]*\$"); LB=\${LB:-4}
# TV B's remote: right, to kiosk-b: b shows b.png; a and c show what they showed
smark keys
cec-ctl -s -d3 --to \$LB --user-control-pressed ui-cmd=right >> \$R/screens-keys.log 2>&1
cec-ctl -s -d3 --to \$LB --user-control-released >> \$R/screens-keys.log 2>&1
safter keys "screen b: showing \$F/b.png" 20; sleep 2
# b's screen off over b's own socket: TV B goes to standby, TV A stays on
smark b-off
sctl --screen b set kiosk-screen false > \$R/screens-ctl.log 2>&1
safter b-off "screen b: cec: screen off" 20 && safter b-off "screen b: cec: the TV is \\(standby\\|to-standby\\)" 30
sleep 1
probe 2 \$R/screens-probe-a-off.txt; probe 5 \$R/screens-probe-b-off.txt
sctl get cec-power > \$R/screens-power-a-off.txt 2>&1; sctl --screen b get cec-power > \$R/screens-power-b-off.txt 2>&1
# and on again: TV B wakes
smark b-on
sctl --screen b set kiosk-screen true >> \$R/screens-ctl.log 2>&1
safter b-on "screen b: cec: the TV is on" 30
i=0; while [ \$i -lt 25 ]; do sctl --screen b get cec-power > \$R/screens-power-b-on.txt 2>&1
  grep -qx on \$R/screens-power-b-on.txt && break; sleep 0.2; i=\$((i + 1)); done
probe 5 \$R/screens-probe-b-on.txt
smark end
kill -TERM \$pid; wait \$pid; echo "\$?" > \$R/screens.exit
pid=
kill \$fa \$fb \$ma \$mb; wait \$fa \$fb \$ma \$mb 2>/dev/null
# the adapters as they were before: nothing claimed on the outputs (the run below claims cec1 afresh)
for d in 1 2 4 5; do cec-ctl -d\$d --clear >> \$R/screens-probe.log 2>&1; done
# --- one screen, --cec auto on the DRM display
cec-ctl -d0 > \$R/cec-adapters.txt 2>&1; cec-ctl -d1 >> \$R/cec-adapters.txt 2>&1
# the TV: cec0 claims logical address 0; cec-follower answers as a TV does (power status, standby, wake-up)
cec-ctl -d0 --tv --osd-name TV > \$R/cec-tv.log 2>&1
cec-follower -d0 -s > \$R/cec-follower.log 2>&1 &
fpid=\$!
stdbuf -oL cec-ctl -d0 --monitor-all > \$R/cec-monitor.log 2>&1 &
mpid=\$!
# the fleet view (issue 41): a broker in the guest on 127.0.0.1, to which kiosk reports its health; kiosk fleet
# reads it as an operator would, once the TV has gone to standby by itself
ip link set lo up 2>> \$R/fleet.err
printf 'listener 18830 127.0.0.1\nallow_anonymous true\npersistence false\n' > /run/tmp/mosquitto.conf
/usr/sbin/mosquitto -c /run/tmp/mosquitto.conf > \$R/mosquitto.log 2>&1 &
qpid=\$!
mark start
"$KIOSK" play --no-state --output drm --drm-device /dev/dri/card0 --duration 600 --transition none --osd-level 0 \
  --mqtt 127.0.0.1:18830 --mqtt-id cec-screen \
  --log-level debug --cec auto --cec-name kiosk-vm --schedule \$F/night.schedule --start-time 2026-12-24T21:54:30 \
  --timezone UTC --health-interval 0.5 --input-ipc-server /run/tmp/cec.sock --play-log /run/tmp/cec.sqlite --play-log-batch 0 \
  \$F/a.png \$F/b.png > \$R/cec.log 2>&1 &
pid=\$!
waitlog \$R/cec.log "first frame presented" 90 && waitlog \$R/cec.log "cec: the TV is on" 30 && sleep 1 && shot cec-a
LA=\$(grep -o "playback device at logical address [0-9]*" \$R/cec.log | head -1 | grep -o "[0-9]*\$"); LA=\${LA:-4}
# a second source on cec2 (a set-top box, claimed after kiosk), which the TV's own standby and wake-up are driven from
cec-ctl -s -d2 --playback --osd-name box > \$R/cec-box.log 2>&1
mark keys
# the TV's remote: right, then left (pressed and released, as a TV sends them)
key() { cec-ctl -s -d0 --to \$LA --user-control-pressed ui-cmd=\$1 >> \$R/cec-keys.log 2>&1; cec-ctl -s -d0 --to \$LA --user-control-released >> \$R/cec-keys.log 2>&1; }
key right; waitlog \$R/cec.log "showing \$F/b.png" 20 && sleep 1.5 && shot cec-b
key left; waitcount \$R/cec.log "showing \$F/a.png" 2 20 && sleep 1.5 && shot cec-a-again
# the TV goes to standby by itself (the box sends it there) and says so to all: kiosk pauses. Slides are 8 s
# meanwhile, so that a player that did not pause changes the screen: b begins its slot, the TV goes off, and two
# screendumps 10 s apart (the second past b's slot) must both show b. Paused is not off: the player still has the
# screen on, so the health alert tv-standby is raised (rounds of 0.5 s, --health-interval), once, and cleared once
# when the TV is back (issue 41); the schedule's off window below turns the screen off first, so no alert there.
ctl() { "$KIOSK" ctl --socket /run/tmp/cec.sock "\$@" >> \$R/cec-ctl.log 2>&1; }
# (the new duration can end a's slot at once, so b is asked for by its index, once the duration is set)
ctl set image-display-duration 8; n=\$(grep -c "showing \$F/b.png" \$R/cec.log); ctl goto 1
waitcount \$R/cec.log "showing \$F/b.png" \$((n + 1)) 20
mark tv-standby
tstandby=\$(date +%s.%N)
cec-ctl -s -d2 --to 0 --standby >> \$R/cec-box.log 2>&1
cec-ctl -s -d0 --to 15 --standby >> \$R/cec-tv.log 2>&1
after tv-standby "paused (tv)" 20 && sleep 1 && shot cec-standby-1 && sleep 10 && shot cec-standby-2
# kiosk fleet --json once a second until tv-standby is among cec-screen's alerts, for up to 60 s after the standby;
# fleet.steps: when, and when the TV was sent to standby
end=\$((\$(date +%s) + 60)); while :; do
  "$KIOSK" fleet --mqtt 127.0.0.1:18830 --wait 2 --json > \$R/fleet-standby.json 2>> \$R/fleet.err
  grep -q '"tv-standby"' \$R/fleet-standby.json && break; [ \$(date +%s) -ge \$end ] && break; sleep 1; done
echo "standby \$(date +%s.%N) \$tstandby" >> \$R/fleet.steps
# the TV comes back (its own remote) and asks who the source is: kiosk resumes, answers, and the slideshow goes on
# to a; then a again with 600 s slides, for the steps below
mark tv-back
cec-ctl -s -d2 --to 0 --image-view-on >> \$R/cec-box.log 2>&1
cec-ctl -s -d0 --to 15 --request-active-source >> \$R/cec-tv.log 2>&1
after tv-back "info: playing" 20 && after tv-back "showing \$F/a.png" 20 && sleep 1.5 && shot cec-resumed
after tv-back "health: cleared tv-standby" 25  # cleared once the TV has stayed out of standby 5 s
ctl set image-display-duration 600; ctl goto 0; waitcount \$R/cec.log "showing \$F/a.png" 4 20
# cec-compliance from the TV's adapter against kiosk (on, and the source), without the follower answering for the
# TV; then the follower plays the TV again
mark compliance
kill \$fpid; wait \$fpid 2>/dev/null
timeout 280 stdbuf -oL cec-compliance -d0 -r \$LA -N > \$R/cec-compliance.log 2>&1; echo "rc \$?" >> \$R/cec-compliance.log
cec-follower -d0 -s >> \$R/cec-follower.log 2>&1 &
fpid=\$!
# the schedule's off window (22:00, 330 s after the start on the simulated clock) and the next (22:01): each wait is
# for a new line, and the TV's power for a line after the screen's change (since: what was logged after the last
# line with \$1, counted by \$2)
n() { grep -c "\$1" \$R/cec.log; }
since() { tac \$R/cec.log | sed "/\$1/q" | grep -c "\$2"; }
waitsince() { end=\$((\$(date +%s) + \$3)); while [ "\$(since "\$1" "\$2")" -lt 1 ]; do
  gone && return 1; [ \$(date +%s) -ge \$end ] && return 1; sleep 0.2; done; return 0; }
offs=\$(n "cec: screen off"); ons=\$(n "cec: screen on")
mark wait-off
waitcount \$R/cec.log "cec: screen off" \$((offs + 1)) 330 && waitsince "cec: screen off" "cec: the TV is \\(standby\\|to-standby\\)" 30
sleep 1; shot cec-off
"$KIOSK" ctl --socket /run/tmp/cec.sock get cec-power > \$R/cec-power-off.txt 2>&1
"$KIOSK" ctl --socket /run/tmp/cec.sock status > \$R/cec-status-off.txt 2>&1
mark wait-on
waitcount \$R/cec.log "cec: screen on" \$((ons + 1)) 90 && waitsince "cec: screen on" "cec: the TV is on" 30
# the status follows the player's next turn: asked until it says on (5 s at most)
i=0; while [ \$i -lt 25 ]; do "$KIOSK" ctl --socket /run/tmp/cec.sock get cec-power > \$R/cec-power-on.txt 2>&1
  grep -qx on \$R/cec-power-on.txt && break; sleep 0.2; i=\$((i + 1)); done
sleep 2; shot cec-on-again
# the adapter goes away (vivid unbound, as a USB CEC dongle pulled out): one line, and kiosk plays on
mark unbind
kill \$mpid; wait \$mpid 2>/dev/null
echo vivid.0 > /sys/bus/platform/drivers/vivid/unbind 2>> \$R/cec-unbind.log; echo "unbind rc \$?" >> \$R/cec-unbind.log
waitlog \$R/cec.log "went away" 20
n=\$(grep -c "showing \$F/b.png" \$R/cec.log)
"$KIOSK" ctl --socket /run/tmp/cec.sock next > \$R/cec-next-after.txt 2>&1
waitcount \$R/cec.log "showing \$F/b.png" \$((n + 1)) 30 && sleep 1.5 && shot cec-after-unbind
kill -0 \$pid 2>/dev/null && alive=1 || alive=0
kill -TERM \$pid; wait \$pid; echo "\$? \$alive" > \$R/cec.exit
kill \$qpid 2>/dev/null; wait \$qpid 2>/dev/null
cp /run/tmp/cec.sqlite* \$R/  # (a play log on the guest's tmpfs: the 9p results folder has no shared mappings for its WAL)
mark end
JOB

mkdir -p "$OUT"
rm -rf "$IO/results"
python3 "$HERE/vm.py" --gpu bochs --res "$RES" --job "$JOB" --out "$OUT" --timeout 780 \
  --initrd "$HERE/.cache/initramfs-cec.cpio" \
  --append "kiosk.modules=vivid vivid.n_devs=2 vivid.num_outputs=2,2 vivid.output_types=3,3" \
  > "$OUT/vm.log" 2>&1 || true
rm -rf "$OUT/results"; cp -r "$IO/results" "$OUT/results" 2>/dev/null || mkdir -p "$OUT/results"
rc=0
python3 "$HERE/cec-check.py" --shots "$OUT" --results "$OUT/results" --fixtures "$FIX" | tee "$OUT/checks.txt" || rc=$?
# cec-check.py runs CEC_CHECKS checks: fewer means a step stopped checking.
read -r passed failed < <(judge_checks "$OUT/checks.txt" "$rc" "$CEC_CHECKS" cec-test)
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
