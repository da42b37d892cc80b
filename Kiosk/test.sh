#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine and runs the whole test suite (unit, decoder, renderer and CLI tests).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Kiosk/setup.sh
export PATH="/opt/swift/usr/bin:$PATH" LIBGL_ALWAYS_SOFTWARE=1
swift build --build-tests
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
swift test --skip-build --disable-swift-testing 2>&1 | tee "$log" || status=$?
# One closing line for people and CI: counts from XCTest's own summary.
summary="$(grep -E 'Executed [0-9]+ tests?, with' "$log" | tail -n 1 || true)"
count() { grep -oE "[0-9]+ $1" <<<"$summary" | head -n 1 | grep -oE '^[0-9]+' || echo 0; }
total="$(count 'tests?,')"
failed="$(count 'failures?')"
skipped="$(count 'tests? skipped')"
if [ -n "$summary" ]; then
  echo "tests: $((total - skipped - failed)) passed, $failed failed, $skipped skipped"
else
  echo "tests: 0 passed, 1 failed (no XCTest summary)"
  status=1
fi
exit "$status"
