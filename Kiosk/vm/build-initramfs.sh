#!/bin/bash
# The VM's initramfs: static busybox, guest-init.sh as /init, and the kernel modules the test needs with
# their dependencies (from modules.dep). Everything else (Mesa, the Swift runtime, the test binary) comes
# from the host's / shared read-only over virtio-9p.  Output: .cache/initramfs.cpio
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=$HERE/.cache
KVER=$(cat "$CACHE/kver")
MD=$CACHE/kernel/lib/modules/$KVER
ST=$CACHE/initramfs.d
MODS="bochs virtio-gpu virtio_pci 9p 9pnet_virtio uinput evdev snd-aloop snd-dummy"
rm -rf "$ST"
mkdir -p "$ST"/{bin,proc,sys,dev,tmp,run,host,lib/modules/"$KVER"}
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
install -m 755 "$HERE/guest-init.sh" "$ST/init"
( cd "$ST" && find . -print0 | cpio --null -o -H newc --quiet ) > "$CACHE/initramfs.cpio.tmp"
mv "$CACHE/initramfs.cpio.tmp" "$CACHE/initramfs.cpio"
echo "build-initramfs: $(du -h "$CACHE/initramfs.cpio" | cut -f1) for $KVER"
