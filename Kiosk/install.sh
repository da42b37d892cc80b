#!/usr/bin/env bash
# Installs kiosk as an appliance service: builds the release binary, then installs
#   ${PREFIX:-/usr/local}/bin/kiosk                  the player (0755)
#   /etc/systemd/system/kiosk.service                the hardened unit (0644): an administrator's unit, next to a
#                                                    binary in /usr/local, not a distribution package's (/lib/systemd)
#   /etc/kiosk/kiosk.conf                            from Kiosk/kiosk.conf.example, only when there is none yet (0644)
#   /etc/kiosk/schedule.example                      an example schedule (0644)
#   /srv/kiosk, /srv/kiosk/media                     where the media goes (0755)
# and creates the `kiosk` system user in the video, render, input and audio groups (creating a missing group).
#
# usage: Kiosk/install.sh [--no-build] [--binary PATH]
#   --no-build      install an already built binary (default .build/release/kiosk) instead of building
#   --binary PATH   the binary to install (implies --no-build)
# DESTDIR=DIR installs into DIR as if it were / (for packaging and tests): the user and groups are then not
# created, only listed; systemd is not reloaded. PREFIX=DIR puts the binary in DIR/bin (ExecStart follows).
set -euo pipefail
cd "$(dirname "$0")/.."
build=1
binary=""
while (($#)); do
  case "$1" in
    --no-build) build=0 ;;
    --binary) [ $# -ge 2 ] || { echo "install.sh: --binary needs a PATH" >&2; exit 2; }
              binary="$2"; build=0; shift ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option '$1' (options: --no-build, --binary PATH)" >&2; exit 2 ;;
  esac
  shift
done
destdir="${DESTDIR:-}"
prefix="${PREFIX:-/usr/local}"
case "$prefix" in /*) ;; *) echo "install.sh: PREFIX must be an absolute path (got '$prefix')" >&2; exit 2 ;; esac
if [ -z "$destdir" ] && [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: installing into / needs root (or set DESTDIR to install into a folder)" >&2
  exit 1
fi
say() { echo "install.sh: $*" >&2; }

if ((build)); then
  export PATH="/opt/swift/usr/bin:$PATH"
  say "building the release binary"
  swift build -c release --product kiosk
  binary="$(swift build -c release --show-bin-path)/kiosk"
fi
binary="${binary:-.build/release/kiosk}"
[ -x "$binary" ] || { echo "install.sh: no executable kiosk at '$binary' (build it, or drop --no-build)" >&2; exit 1; }

root="$destdir"
install -d -m 0755 "$root$prefix/bin" "$root/etc/systemd/system" "$root/etc/kiosk" "$root/srv/kiosk" "$root/srv/kiosk/media"
install -m 0755 "$binary" "$root$prefix/bin/kiosk"
say "installed $prefix/bin/kiosk"
# The unit names /usr/local/bin/kiosk; another PREFIX moves ExecStart with it.
sed "s#^ExecStart=/usr/local/bin/kiosk #ExecStart=$prefix/bin/kiosk #" Kiosk/kiosk.service > "$root/etc/systemd/system/kiosk.service.tmp"
chmod 0644 "$root/etc/systemd/system/kiosk.service.tmp"
mv -f "$root/etc/systemd/system/kiosk.service.tmp" "$root/etc/systemd/system/kiosk.service"
say "installed /etc/systemd/system/kiosk.service"
if [ -e "$root/etc/kiosk/kiosk.conf" ]; then
  say "kept the existing /etc/kiosk/kiosk.conf (the example is Kiosk/kiosk.conf.example)"
else
  install -m 0644 Kiosk/kiosk.conf.example "$root/etc/kiosk/kiosk.conf"
  say "installed /etc/kiosk/kiosk.conf from the example"
fi
install -m 0644 Kiosk/schedule.example "$root/etc/kiosk/schedule.example"
say "installed /etc/kiosk/schedule.example"

groups=(video render input audio)
if [ -n "$destdir" ]; then
  say "DESTDIR is set: not creating users or groups; on the target run:"
  for g in "${groups[@]}"; do say "  getent group $g || groupadd --system $g"; done
  say "  useradd --system --user-group --home-dir /var/lib/kiosk --no-create-home --shell /usr/sbin/nologin --groups $(IFS=,; echo "${groups[*]}") kiosk"
  say "  systemctl daemon-reload && systemctl enable --now kiosk"
  exit 0
fi
for g in "${groups[@]}"; do
  getent group "$g" >/dev/null || { groupadd --system "$g"; say "created the group $g"; }
done
if getent passwd kiosk >/dev/null; then
  usermod --append --groups "$(IFS=,; echo "${groups[*]}")" kiosk
  say "the user kiosk exists: added it to ${groups[*]}"
else
  useradd --system --user-group --home-dir /var/lib/kiosk --no-create-home --shell /usr/sbin/nologin \
          --groups "$(IFS=,; echo "${groups[*]}")" kiosk
  say "created the system user kiosk in ${groups[*]}"
fi
if [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  say "done: put media in /srv/kiosk/media, then: systemctl enable --now kiosk"
else
  say "done: systemd is not running here; on the appliance: systemctl enable --now kiosk"
fi
