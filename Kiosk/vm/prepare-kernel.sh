#!/bin/bash
# Debian's own kernel for the VM test, unpacked (never installed) into Kiosk/vm/.cache/.
# Result: .cache/kernel/ (dpkg -x tree, depmod'ed), .cache/vmlinux (ELF, PVH-bootable), .cache/kver.
# Idempotent: does nothing when .cache/vmlinux already matches the package linux-image-amd64 depends on.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=$HERE/.cache
mkdir -p "$CACHE"
pkg() { apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}'; }
PKG=$(pkg)
# A fresh machine may have no package lists yet: fetch them once (root only).
if [ -z "$PKG" ] && [ "$(id -u)" = 0 ]; then apt-get update -q >/dev/null && PKG=$(pkg); fi
[ -n "$PKG" ] || { echo "prepare-kernel: apt-cache knows no linux-image-amd64 dependency (apt-get update?)" >&2; exit 1; }
KVER=${PKG#linux-image-}
if [ -f "$CACHE/vmlinux" ] && [ "$(cat "$CACHE/kver" 2>/dev/null)" = "$KVER" ]; then
  echo "prepare-kernel: $KVER already in $CACHE"; exit 0
fi
cd "$CACHE"
rm -f "$PKG"_*.deb
apt-get download "$PKG"
rm -rf kernel
dpkg -x "$PKG"_*.deb kernel
depmod -b "$CACHE/kernel" "$KVER"
python3 "$HERE/extract_vmlinux.py" "kernel/boot/vmlinuz-$KVER" vmlinux.tmp
mv vmlinux.tmp vmlinux
echo "$KVER" > kver
echo "prepare-kernel: $KVER ready in $CACHE"
