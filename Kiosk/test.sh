#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine and runs the whole test suite (unit, decoder, renderer and CLI tests).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Kiosk/setup.sh
export PATH="/opt/swift/usr/bin:$PATH" LIBGL_ALWAYS_SOFTWARE=1
swift build --build-tests
swift test --skip-build
