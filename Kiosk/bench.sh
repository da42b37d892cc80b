#!/usr/bin/env bash
# The benchmark: builds in release mode and prints this machine's figures against ffmpeg in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Kiosk/setup.sh
# the video peer: mpv (setup.sh installs it) on the same llvmpipe under a virtual X server
if ! command -v Xvfb >/dev/null 2>&1; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get install -y -q --no-install-recommends xvfb xauth time >/dev/null
fi
export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product kiosk >/dev/null
swift build -c release --product kiosk-bench >/dev/null
bin="$(swift build -c release --show-bin-path)"
"$bin/kiosk-bench" "$bin/kiosk"
