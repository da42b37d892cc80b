#!/usr/bin/env bash
# The benchmark: builds in release mode and prints this machine's figures against ffmpeg in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Kiosk/setup.sh
export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product kiosk >/dev/null
swift build -c release --product kiosk-bench >/dev/null
bin="$(swift build -c release --show-bin-path)"
"$bin/kiosk-bench" "$bin/kiosk"
