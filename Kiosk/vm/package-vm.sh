#!/bin/bash
# The package VM test: boots Debian's kernel under QEMU (TCG, bochs-drm) with systemd as PID 1 on ROOT, the bare
# bookworm root Kiosk/package-test.sh made and installed kiosk's .deb into (read-only over 9p, a tmpfs overlay on
# top, as systemd-test.sh boots the host's /). Installs systemd and udev into ROOT first (apt, in a chroot), and
# the units that boot just the basic system and the job (package-vm-guest.sh), which starts kiosk.service with
# the shipped config (the demo), asks for a screendump and stops it. Prints `PASS name: …`/`FAIL name: …` lines
# (4 checks) for package-test.sh to count.
# Usage: Kiosk/vm/package-vm.sh ROOT OUT   [VM_TIMEOUT=360]
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
R=$1 OUT=$2
VM_TIMEOUT=${VM_TIMEOUT:-360}
pass() { echo "PASS $1: $2"; }
fail() { echo "FAIL $1: $2"; }
in_root() { chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
mkdir -p "$OUT"

if ! { "$HERE/prepare-kernel.sh" && "$HERE/build-initramfs-systemd.sh"; } > "$OUT/kernel.log" 2>&1; then
  for c in vm-boot vm-start vm-draws vm-stop; do fail "$c" "no kernel or initramfs (see $OUT/kernel.log)"; done; exit 1
fi
if ! in_root apt-get install -y -q --no-install-recommends systemd udev > "$OUT/systemd-apt.log" 2>&1; then
  for c in vm-boot vm-start vm-draws vm-stop; do fail "$c" "apt-get install systemd udev failed (see $OUT/systemd-apt.log)"; done; exit 1
fi
. "$HERE/test-units.sh"
test_units "$R/etc" kiosk-package-test "package VM test"

IO=$HERE/.cache/io
mkdir -p "$IO"; rm -rf "$IO/results" "$IO/job.rc"
python3 "$HERE/vm.py" --gpu bochs --res 640x480 --root "$R" --job "$HERE/package-vm-guest.sh" --out "$OUT/vm" \
  --timeout "$VM_TIMEOUT" --initrd "$HERE/.cache/initramfs-systemd.cpio" \
  --append "systemd.unit=kiosk-package-test.target systemd.show_status=1" > "$OUT/vm.log" 2>&1
vmrc=$?
rm -rf "$OUT/results"; cp -r "$IO/results" "$OUT/results" 2>/dev/null || mkdir -p "$OUT/results"
res=$OUT/results
val() { sed -n "s/^$2=//p" "$res/$1" 2>/dev/null; }
if [ "$vmrc" = 0 ] && [ -s "$res/start.rc" ]; then
  pass vm-boot "the root booted with systemd as PID 1 and ran the job ($(grep -o 'systemd [0-9]*' "$OUT/vm.log" | head -n 1))"
else
  fail vm-boot "vm.py exit $vmrc (see $OUT/vm.log)"
fi
if [ "$(cat "$res/start.rc" 2>/dev/null)" = 0 ] && [ "$(cat "$res/showing.rc" 2>/dev/null)" = 0 ] \
   && [ "$(val playing.txt ActiveState)" = active ] && [ "$(val playing.txt User)" = kiosk ]; then
  pass vm-start "systemctl start kiosk: active as kiosk, StatusText '$(val playing.txt StatusText)'"
else
  fail vm-start "start rc $(cat "$res/start.rc" 2>/dev/null), $(tr '\n' ' ' < "$res/playing.txt" 2>/dev/null)"
fi
uniform=$(python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(next((d['uniform'] for d in s['screendumps'] if d['name'] == 'playing'), ''))" \
  "$OUT/vm/summary.json" 2>/dev/null)
# The screen against what `kiosk snapshot` in the root makes of the same photo at the VM's size.
in_root kiosk snapshot /usr/share/kiosk/demo/01-dandelions.jpg --size 640x480 --output /tmp/vm-reference.png > "$OUT/reference.log" 2>&1
cp "$R/tmp/vm-reference.png" "$OUT/reference.png" 2>/dev/null
psnr=$(ffmpeg -nostdin -i "$OUT/vm/playing.png" -i "$OUT/reference.png" \
  -lavfi '[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]psnr' -f null - 2>&1 | sed -n 's/.*average:\([0-9.inf]*\).*/\1/p' | tail -n 1)
if [ -n "$uniform" ] && [ -n "$psnr" ] \
   && python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < 0.5 and (sys.argv[2] == 'inf' or float(sys.argv[2]) >= 30) else 1)" "$uniform" "$psnr"; then
  pass vm-draws "the screen (bochs-drm, $(grep card0 "$res/dri.txt" 2>/dev/null | cut -d' ' -f1,3)) shows the photo: PSNR $psnr dB against kiosk snapshot (>= 30)"
else
  fail vm-draws "the screendump is flat, missing or not the photo (fraction of the centre's colour: ${uniform:-none}, PSNR ${psnr:-none} dB)"
fi
if [ "$(cat "$res/stop.rc" 2>/dev/null)" = 0 ] && [ "$(val stopped.txt ActiveState)" = inactive ] \
   && [ "$(val stopped.txt Result)" = success ]; then
  pass vm-stop "systemctl stop kiosk: inactive, Result=success, $(val stopped.txt ExecMainCode)/$(val stopped.txt ExecMainStatus)"
else
  fail vm-stop "stop rc $(cat "$res/stop.rc" 2>/dev/null), $(tr '\n' ' ' < "$res/stopped.txt" 2>/dev/null)"
fi
