#!/bin/bash
# The VM's initramfs: static busybox, an /init, and the kernel modules the guest loads with their dependencies
# (from modules.dep). Everything else (Mesa, the Swift runtime, the test binary) comes from the host's / shared
# read-only over virtio-9p.
# Usage: build-initramfs.sh [NAME INIT "MODULES"]
#   default: the plain VM test's (vm-test.sh): guest-init.sh and the GPU, 9p, input and sound modules, into
#   .cache/initramfs.cpio; build-initramfs-systemd.sh gives its own /init, modules and name.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=$HERE/.cache
NAME=${1:-initramfs}
INIT=${2:-$HERE/guest-init.sh}
MODS=${3:-"bochs virtio-gpu virtio_pci 9p 9pnet_virtio uinput evdev snd-aloop snd-dummy"}
KVER=$(cat "$CACHE/kver")
MD=$CACHE/kernel/lib/modules/$KVER
ST=$CACHE/$NAME.d
rm -rf "$ST"
mkdir -p "$ST"/{bin,proc,sys,dev,tmp,run,host,lower,rw,newroot,lib/modules/"$KVER"}
cp /bin/busybox "$ST/bin/busybox"
ln -s busybox "$ST/bin/sh"
for m in $MODS; do
  line=$(grep -E "/$m\.ko(\.[a-z]+)?:" "$MD/modules.dep") || { echo "build-initramfs: no module $m in $KVER" >&2; exit 1; }
  for f in ${line/:/}; do
    mkdir -p "$ST/lib/modules/$KVER/$(dirname "$f")"
    cp -n "$MD/$f" "$ST/lib/modules/$KVER/$f"
  done
done
cp "$MD"/modules.{order,builtin,builtin.modinfo} "$ST/lib/modules/$KVER/"
depmod -b "$ST" "$KVER"
install -m 755 "$INIT" "$ST/init"
( cd "$ST" && find . -print0 | cpio --null -o -H newc --quiet ) > "$CACHE/$NAME.cpio.tmp"
mv "$CACHE/$NAME.cpio.tmp" "$CACHE/$NAME.cpio"
echo "build-initramfs: $(du -h "$CACHE/$NAME.cpio" | cut -f1) ($NAME) for $KVER"
