#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine and runs the whole test suite: unit, decoder, renderer and CLI tests
# (XCTest, shaders on llvmpipe), then the end-to-end test on a real kernel (Debian's kernel under QEMU with
# bochs-drm and virtio-gpu, a few minutes; then systemd, HDMI-CEC and the Debian package in a bare Debian 12 root
# and the VM), then every fuzz target for 30 s (Kiosk/fuzz.sh all 30; a target
# that crashes is a failure). KIOSK_SKIP_VM=1 leaves the VM test out, KIOSK_SKIP_FUZZ=1 the fuzzing (not on CI).
#
# Skips: any skipped XCTest fails the run, except the VM-only tests named in VM_ONLY (they skip on the host
# and run inside the VM, where check.py judges them by XCTest's counts: executed, 0 skipped). On a developer
# machine KIOSK_ALLOW_SKIPS=1 reports skips without failing; with CI set (.ci/run sets it) none of
# KIOSK_SKIP_VM, KIOSK_SKIP_FUZZ and KIOSK_ALLOW_SKIPS is honoured.
set -euo pipefail
VM_ONLY=(
  DRMVMTests.testConnectorsModesFlipsScreenPowerAndRestore
  DRMVMTests.testOpeningWithoutPermissionNamesTheVideoGroup
)
if [ -n "${CI:-}" ]; then
  for v in KIOSK_SKIP_VM KIOSK_SKIP_FUZZ KIOSK_ALLOW_SKIPS; do
    [ "${!v:-0}" = 0 ] || echo "test.sh: CI is set, ignoring $v=${!v}" >&2
  done
  KIOSK_SKIP_VM=0 KIOSK_SKIP_FUZZ=0 KIOSK_ALLOW_SKIPS=0
fi
cd "$(dirname "$0")/.."
. Kiosk/results.sh
bash Kiosk/setup.sh
export PATH="/opt/swift/usr/bin:$PATH" LIBGL_ALWAYS_SOFTWARE=1
# The IPC tests' Python client (python-mpv-jsonipc in a venv, from PyPI): on CI not having it fails the run;
# elsewhere the tests that need it skip, and the skip policy below judges that.
if ipc_python="$(bash Kiosk/ipc-venv.sh)"; then
  export KIOSK_IPC_PYTHON="$ipc_python"
elif [ -n "${CI:-}" ]; then
  echo "test.sh: Kiosk/ipc-venv.sh failed and CI is set" >&2
  exit 1
else
  echo "test.sh: Kiosk/ipc-venv.sh failed; the tests that need KIOSK_IPC_PYTHON will skip" >&2
fi
swift build --build-tests
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
swift test --skip-build --disable-swift-testing 2>&1 | tee "$log" || status=$?
# Counted as test cases, with the "All tests" summary required (Kiosk/results.sh says how).
read -r passed failed skipped < <(xctest_counts "$log" "$status")
[ "$failed" = 0 ] || status=1
# Every skipped test by name; a skip not in VM_ONLY is a failure unless KIOSK_ALLOW_SKIPS=1 (never on CI).
mapfile -t skips < <(grep -oE "^Test Case '[^']+' skipped" "$log" | sed -E "s/^Test Case '([^']+)' skipped/\1/" | sort -u)
unexpected=()
for t in "${skips[@]}"; do
  allowed=0
  for v in "${VM_ONLY[@]}"; do [ "$t" = "$v" ] && allowed=1; done
  [ "$allowed" = 1 ] || unexpected+=("$t")
done
if ((${#skips[@]} != skipped)); then
  echo "test.sh: XCTest counted $skipped skipped but named ${#skips[@]}" >&2; status=1; failed=$((failed + 1))
fi
if ((${#unexpected[@]})); then
  printf 'test.sh: skipped outside the VM-only list: %s\n' "${unexpected[@]}" >&2
  if [ "${KIOSK_ALLOW_SKIPS:-0}" != 1 ]; then status=1; failed=$((failed + ${#unexpected[@]})); fi
fi
# Runs a script that ends with an "N passed, M failed" line ("fuzz: N passed, …" for the fuzzer) and adds its
# counts (no such line: one failure).
counted() {
  local rc=0 line
  bash "$@" 2>&1 | tee "$log" || rc=$?
  line="$(grep -E '^(fuzz: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 || true)"
  if [ -n "$line" ]; then
    passed=$((passed + $(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '^[0-9]+')))
    failed=$((failed + $(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '^[0-9]+')))
  else
    failed=$((failed + 1))
  fi
  [ "$rc" = 0 ] || status=1
}
if [ "${KIOSK_SKIP_VM:-0}" != 1 ]; then
  counted Kiosk/vm/vm-test.sh
  # kiosk.service under a real systemd (PID 1 in the VM): READY, STATUS, the watchdog's restart, journal
  # priorities, reload, stop and the console, the sandbox, the state file. After vm-test.sh: both use the VM's
  # exchange folder.
  counted Kiosk/vm/systemd-test.sh
  # HDMI-CEC on vivid's CEC adapters, cec-follower as the TV, cec-compliance (its own VM; the same exchange folder)
  counted Kiosk/vm/cec-test.sh
  # the Debian package: built (release, static Swift), lintian, installed, upgraded and purged on a bare Debian 12
  # root made by debootstrap, and that root booted with systemd in the VM (kiosk.service draws and stops)
  counted Kiosk/package-test.sh
fi
if [ "${KIOSK_SKIP_FUZZ:-0}" != 1 ]; then
  counted Kiosk/fuzz.sh all 30
fi
echo "tests: $passed passed, $failed failed, $skipped skipped"
exit "$status"
