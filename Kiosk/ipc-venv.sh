#!/usr/bin/env bash
# Makes (once) the Python venv the IPC tests use, .build/ipc-venv with python-mpv-jsonipc from PyPI at a pinned
# version, and prints the venv's python. When that version is there already it only prints the path.
# Needs python3 with its venv module (Debian: python3-venv, see Kiosk/setup.sh) and, the first time, PyPI.
set -euo pipefail
version=1.5.0  # python-mpv-jsonipc: the version Tests/KioskTests/Fixtures/ipc/*.py were written against
cd "$(dirname "$0")/.."
mkdir -p .build
venv="$PWD/.build/ipc-venv"
python="$venv/bin/python"
stamp="$venv/python-mpv-jsonipc-$version.ok"
if [ ! -f "$stamp" ]; then
  exec 9>"$PWD/.build/ipc-venv.lock"
  flock -w 300 9  # two runs at once: the second waits for the first's venv
  if [ ! -f "$stamp" ]; then
    echo "ipc-venv: making $venv with python-mpv-jsonipc $version" >&2
    rm -rf "$venv"
    python3 -m venv "$venv" >&2
    "$python" -m pip install --disable-pip-version-check --no-input -q "python-mpv-jsonipc==$version" >&2
    "$python" -c 'import python_mpv_jsonipc' >&2
    touch "$stamp"
  fi
fi
echo "$python"
