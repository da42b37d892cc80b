#!/bin/bash
# kiosk's end-to-end test on a real kernel: Debian's kernel under QEMU (TCG), bochs-drm and virtio-gpu,
# running the DRM/KMS XCTests (KioskTests.DRMVMTests) from the host's build, with screendumps.
# Usage: Kiosk/vm/vm-test.sh [GPUS="bochs virtio"] [RES=800x600] [SCRATCH=.build] [FILTER=KioskTests.DRMVMTests]
# Output: out/vm/<gpu>/ (serial.log with timestamps, screendump PNGs, summary.json). Exit 0 when all pass.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
GPUS=${GPUS:-"bochs virtio"}
RES=${RES:-800x600}
SCRATCH=${SCRATCH:-$ROOT/.build}
FILTER=${FILTER:-KioskTests.DRMVMTests}
OUT=${OUT:-$ROOT/out/vm}
PACKAGES="qemu-system-x86 busybox-static kmod cpio python3 libgbm1 libegl-mesa0 libgl1-mesa-dri"
T0=$(date +%s.%N)
elapsed() { python3 -c "import sys,time; print(f'{time.time() - float(sys.argv[1]):.1f} s')" "$T0"; }

missing=""
for tool in qemu-system-x86_64:qemu-system-x86 busybox:busybox-static depmod:kmod cpio:cpio; do
  command -v "${tool%%:*}" >/dev/null || missing="$missing ${tool#*:}"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $PACKAGES
  else
    echo "vm-test: missing$missing; as root: apt-get install $PACKAGES" >&2; exit 1
  fi
fi

"$HERE/prepare-kernel.sh"
"$HERE/build-initramfs.sh"
echo "== kernel and initramfs: $(elapsed)"
(cd "$ROOT" && swift build --build-tests --scratch-path "$SCRATCH" 2>&1 | tail -1)
XCTEST=$(find "$SCRATCH/debug/" -maxdepth 1 -name '*PackageTests.xctest' | head -1)
[ -x "$XCTEST" ] || { echo "vm-test: no test bundle in $SCRATCH/debug" >&2; exit 1; }
echo "== tests built: $(elapsed)"

JOB=$(mktemp)
trap 'rm -f "$JOB"' EXIT
cat > "$JOB" <<JOB
export KIOSK_DRM_TEST=1 KIOSK_VM_RES=$RES LIBGL_ALWAYS_SOFTWARE=1
# Text on the console (cursor hidden), so that restoring it after the test shows in the screendumps.
[ -e /dev/tty1 ] && printf '\033[?25l\033[2J\033[Hkiosk VM test: the console before and after\n' > /dev/tty1
cd "$ROOT"
"$XCTEST" "$FILTER" || exit \$?
if [ "$FILTER" = KioskTests.DRMVMTests ]; then
  exec setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/run/tmp \
    "$XCTEST" KioskTests.DRMVMTests/testOpeningWithoutPermissionNamesTheVideoGroup
fi
JOB
rc=0
for gpu in $GPUS; do
  python3 "$HERE/vm.py" --gpu "$gpu" --res "$RES" --job "$JOB" --out "$OUT/$gpu" --timeout 300 \
    > "$OUT-$gpu.log" 2>&1 || rc=1
  grep -E "@@|Test Case|error|screendump |flip interval" "$OUT-$gpu.log" | sed "s/^/$gpu /" || true
  echo "== $gpu: $(python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print('rc', s['rc'], s['events_s'])" "$OUT/$gpu/summary.json") total $(elapsed)"
done
exit $rc
