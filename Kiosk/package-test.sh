#!/usr/bin/env bash
# The Debian package on a bare Debian 12: builds kiosk_VERSION-1 and -2 with Kiosk/package.sh, makes a minimal
# bookworm root with debootstrap (no Swift in it), and in a chroot there: apt-get installs the .deb (its Depends
# resolved from Debian's archive), runs kiosk --version, check-config on the shipped config, a snapshot of a demo
# photo (compared with ffmpeg's scaler on this host) and a short headless play that saves state as the kiosk user;
# upgrades to -2 (the edited config and the state kept); purges (everything removed). One line per check
# (`PASS name: detail` / `FAIL name: detail`), then `N passed, M failed`; exit 0 when all pass.
# With systemd and udev added, the root then boots in a VM (Kiosk/vm/package-vm.sh: QEMU, systemd as PID 1) where
# kiosk.service starts, draws on the DRM device (bochs-drm) and stops cleanly; PACKAGE_VM=0 leaves that out.
# Usage: Kiosk/package-test.sh   [MIRROR=http://deb.debian.org/debian] [OUT=out/package] [KEEP_ROOT=1] [PACKAGE_VM=0]
# The debootstrap download is kept as Kiosk/vm/.cache/bookworm-minbase.tgz (about 44 MB); each run unpacks a fresh
# root from it. Needs root (chroot), debootstrap, ffmpeg, and Debian's archive reachable.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
OUT=${OUT:-$ROOT/out/package}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SECURITY=${SECURITY:-${MIRROR%/debian}/debian-security}
CACHE=$HERE/vm/.cache
TARBALL=$CACHE/bookworm-minbase.tgz
T0=$(date +%s)
passed=0 failed=0
pass() { echo "PASS $1: $2"; passed=$((passed + 1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }
# check NAME DETAIL CMD...: PASS when CMD succeeds.
check() { local name=$1 detail=$2; shift 2; if "$@"; then pass "$name" "$detail"; else fail "$name" "$detail"; fi; }
# How many checks a whole run makes (4 of them in the VM): fewer means a step stopped checking.
EXPECTED=17; [ "${PACKAGE_VM:-1}" = 1 ] && EXPECTED=21
finish() {
  [ "$failed" != 0 ] || [ $((passed + failed)) = "$EXPECTED" ] \
    || fail checks "$((passed + failed)) checks ran, $EXPECTED expected (a step stopped checking, or the list changed)"
  echo "== total $(( $(date +%s) - T0 )) s"; echo "$passed passed, $failed failed"; [ "$failed" = 0 ]; exit $?
}
step() { echo "== $1 ($(( $(date +%s) - T0 )) s)"; }

[ "$(id -u)" = 0 ] || { fail setup "needs root (debootstrap and chroot)"; finish; }
for tool in debootstrap ffmpeg dpkg-deb man; do
  command -v "$tool" >/dev/null || { fail setup "$tool is missing (run Kiosk/setup.sh)"; finish; }
done
rm -rf "$OUT"; mkdir -p "$OUT"

step "packages"
if "$ROOT/Kiosk/package.sh" --out "$OUT" > "$OUT/deb1.path" 2> "$OUT/package.log"; then
  deb1=$(tail -n 1 "$OUT/deb1.path")
  pass build "$(basename "$deb1"), $(du -k "$deb1" | cut -f1) KiB; lintian: no errors"
else
  fail build "Kiosk/package.sh failed: $(tail -n 3 "$OUT/package.log" | tr '\n' ' ')"
  finish
fi
deb2=$("$ROOT/Kiosk/package.sh" --no-build --no-lintian --revision 2 --out "$OUT" 2>> "$OUT/package.log" | tail -n 1)
[ -f "$deb2" ] || { fail build "the -2 package was not built"; finish; }
grep -E '^(W|E|I|P|X): ' "$OUT/package.log" > "$OUT/lintian.txt" || true
version=$(dpkg-deb -f "$deb1" Version); upstream=${version%-*}

step "a bare bookworm root"
if [ ! -s "$TARBALL" ]; then
  mkdir -p "$CACHE"
  debootstrap --variant=minbase --make-tarball="$TARBALL.tmp" bookworm "$OUT/tarball-work" "$MIRROR" > "$OUT/debootstrap.log" 2>&1 \
    && mv "$TARBALL.tmp" "$TARBALL" || { fail root "debootstrap --make-tarball failed (see $OUT/debootstrap.log)"; finish; }
fi
R=$(mktemp -d /var/tmp/kiosk-root.XXXXXX)
chmod 0755 "$R"  # it is the root's /: mktemp's 0700 would keep every user but root out of it
cleanup() {
  umount "$R/proc" 2>/dev/null || true
  if [ "${KEEP_ROOT:-0}" = 1 ]; then echo "== the root is kept at $R"; else rm -rf --one-file-system "$R"; fi
}
trap cleanup EXIT
if ! debootstrap --variant=minbase --unpack-tarball="$TARBALL" bookworm "$R" "$MIRROR" >> "$OUT/debootstrap.log" 2>&1; then
  fail root "debootstrap failed (see $OUT/debootstrap.log)"; finish
fi
mount -t proc proc "$R/proc"
cp /etc/resolv.conf "$R/etc/resolv.conf" 2>/dev/null || true
printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s bookworm-security main\n' "$MIRROR" "$MIRROR" "$SECURITY" \
  > "$R/etc/apt/sources.list"
in_root() { chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
check root-has-no-swift "no swift, no libswift*, no Foundation in the fresh root" \
  test -z "$(in_root sh -c 'command -v swift; find / -xdev \( -name "libswift*" -o -name "libFoundation*" \) -print -quit')"
before=$(in_root dpkg-query -W -f '${Package}\n' | wc -l)

step "install"
cp "$deb1" "$deb2" "$R/tmp/"
if in_root apt-get update -q > "$OUT/apt.log" 2>&1 \
   && in_root apt-get install -y -q "/tmp/$(basename "$deb1")" >> "$OUT/apt.log" 2>&1; then
  after=$(in_root dpkg-query -W -f '${Package}\n' | wc -l)
  pass install "apt-get install ./$(basename "$deb1"): $((after - before)) packages from Debian with it"
else
  fail install "apt-get install failed: $(tail -n 3 "$OUT/apt.log" | tr '\n' ' ')"; finish
fi
check version "kiosk --version says kiosk $upstream" test "$(in_root kiosk --version 2>&1)" = "kiosk $upstream"
check still-no-swift "after the install, still no swift and no libswift*" \
  test -z "$(in_root sh -c 'command -v swift; find / -xdev -name "libswift*" -print -quit')"
in_root kiosk check-config /etc/kiosk/kiosk.conf > "$OUT/check-config.txt" 2>&1
check check-config "kiosk check-config /etc/kiosk/kiosk.conf: $(head -n 2 "$OUT/check-config.txt" | tr '\n' ' ')" \
  grep -q '^/etc/kiosk/kiosk.conf: ok$' "$OUT/check-config.txt"
groups=$(in_root id -nG kiosk 2>/dev/null)
in_groups() { local g; for g in video input audio; do [[ " $groups " == *" $g "* ]] || return 1; done; }
check user "the kiosk user, in: ${groups:-no groups}" in_groups
check files "the unit (enabled), the conffile, the manual, the demo" test -f "$R/lib/systemd/system/kiosk.service" \
  -a -L "$R/etc/systemd/system/multi-user.target.wants/kiosk.service" -a -f "$R/usr/share/man/man1/kiosk.1.gz" \
  -a -f "$R/usr/share/kiosk/demo/demo.m3u" -a "$(in_root dpkg-query -W -f '${Conffiles}' kiosk | awk '{print $1}')" = /etc/kiosk/kiosk.conf

# The shipped manual page, as man(1) reads it (this host's man-db: the bare root has none).
MANWIDTH=80 man --warnings -E UTF-8 -l "$R/usr/share/man/man1/kiosk.1.gz" > "$OUT/kiosk.1.txt" 2> "$OUT/kiosk.1.warnings"
check manual "man -l /usr/share/man/man1/kiosk.1.gz: $(wc -l < "$OUT/kiosk.1.txt") lines, $(wc -l < "$OUT/kiosk.1.warnings") warnings" \
  test -s "$OUT/kiosk.1.txt" -a ! -s "$OUT/kiosk.1.warnings"

# A demo photo scaled by kiosk's GL pipeline (llvmpipe from the Mesa the package pulled in) against ffmpeg's.
photo=usr/share/kiosk/demo/01-dandelions.jpg
if in_root kiosk snapshot "/$photo" --size 480x320 --fit fill --output /tmp/snap.png > "$OUT/snapshot.log" 2>&1; then
  ffmpeg -v error -nostdin -y -i "$R/$photo" -vf scale=480:320:flags=bicubic "$OUT/reference.png"
  cp "$R/tmp/snap.png" "$OUT/snapshot.png"
  psnr=$(ffmpeg -nostdin -i "$OUT/snapshot.png" -i "$OUT/reference.png" \
    -lavfi '[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]psnr' -f null - 2>&1 | sed -n 's/.*average:\([0-9.inf]*\).*/\1/p' | tail -n 1)
  check snapshot "kiosk snapshot of $(basename "$photo") against ffmpeg's bicubic scale: PSNR ${psnr:-none} dB (>= 30)" \
    python3 -c "import sys; v=sys.argv[1]; sys.exit(0 if v and (v == 'inf' or float(v) >= 30) else 1)" "${psnr:-}"
else
  fail snapshot "kiosk snapshot failed: $(tail -n 2 "$OUT/snapshot.log" | tr '\n' ' ')"
fi

# A short headless play of the demo as the kiosk user, with the state where kiosk.service keeps it.
install -d -o "$(in_root id -u kiosk)" -g "$(in_root id -g kiosk)" -m 0750 "$R/var/lib/kiosk"
in_root setpriv --reuid=kiosk --regid=kiosk --init-groups kiosk play --output headless --length 3 --state-dir /var/lib/kiosk \
  --log-level info > "$OUT/play.log" 2>&1
state=$(cd "$R/var/lib/kiosk" && ls -A | tr '\n' ' ')
check play "kiosk play (the demo, headless, 3 s, as kiosk) saved its state: ${state:-nothing}" test -n "$state"
played=$(grep -o 'played [0-9]* items' "$OUT/play.log" | head -n 1)
check demo-whole "the demo played (${played:-no 'played' line}) and its playlist found every item ($(grep -c skipped "$OUT/play.log") skipped)" \
  test -n "$played" -a "$(grep -c skipped "$OUT/play.log")" = 0

if [ "${PACKAGE_VM:-1}" = 1 ]; then
  step "the root booted in a VM with systemd"
  ran=0
  while IFS= read -r line; do
    case $line in PASS\ *) echo "$line"; passed=$((passed + 1)); ran=$((ran + 1)) ;;
                  FAIL\ *) echo "$line"; failed=$((failed + 1)); ran=$((ran + 1)) ;; esac
  done < <("$HERE/vm/package-vm.sh" "$R" "$OUT/vm" 2>&1)
  [ "$ran" = 4 ] || fail vm "$ran of package-vm.sh's 4 checks ran (see $OUT/vm)"
fi

step "upgrade"
echo "duration = 9" >> "$R/etc/kiosk/kiosk.conf"
conf=$(sha256sum < "$R/etc/kiosk/kiosk.conf")
statesum=$(cd "$R/var/lib/kiosk" && find . -type f -exec sha256sum {} + | sort)
if in_root apt-get install -y -q "/tmp/$(basename "$deb2")" >> "$OUT/apt.log" 2>&1; then
  check upgrade "apt-get install ./$(basename "$deb2") upgraded to $(in_root dpkg-query -W -f '${Version}' kiosk)" \
    test "$(in_root dpkg-query -W -f '${Version}' kiosk)" = "$(dpkg-deb -f "$deb2" Version)"
else
  fail upgrade "apt-get install of the -2 package failed: $(tail -n 3 "$OUT/apt.log" | tr '\n' ' ')"
fi
check upgrade-config "the edited /etc/kiosk/kiosk.conf kept (no .dpkg-new)" \
  test "$(sha256sum < "$R/etc/kiosk/kiosk.conf")" = "$conf" -a ! -e "$R/etc/kiosk/kiosk.conf.dpkg-new"
check upgrade-state "the state in /var/lib/kiosk kept" \
  test "$(cd "$R/var/lib/kiosk" && find . -type f -exec sha256sum {} + | sort)" = "$statesum" -a -n "$statesum"
has_user() { in_root getent passwd kiosk >/dev/null; }
check upgrade-user "the kiosk user kept" has_user

step "purge"
if in_root apt-get purge -y -q kiosk >> "$OUT/apt.log" 2>&1; then
  left=""
  for p in /usr/bin/kiosk /etc/kiosk /var/lib/kiosk /var/cache/kiosk /usr/share/kiosk /usr/share/doc/kiosk \
           /usr/share/man/man1/kiosk.1.gz /lib/systemd/system/kiosk.service \
           /etc/systemd/system/multi-user.target.wants/kiosk.service; do
    [ -e "$R$p" ] || [ -L "$R$p" ] && left="$left $p"
  done
  in_root getent passwd kiosk >/dev/null && left="$left user:kiosk"
  in_root getent group kiosk >/dev/null && left="$left group:kiosk"
  in_root dpkg-query -W -f '${Status}' kiosk 2>/dev/null | grep -q installed && left="$left dpkg:kiosk"
  check purge "apt-get purge kiosk: nothing left${left:+ but$left}" test -z "$left"
else
  fail purge "apt-get purge failed: $(tail -n 3 "$OUT/apt.log" | tr '\n' ' ')"
fi
finish
