#!/bin/bash
# The initramfs of the systemd VM test (systemd-test.sh): static busybox, guest-init-systemd.sh as /init, and
# the modules it loads before handing over to systemd (GPU, virtio, 9p, overlay, autofs4 for systemd) with their modules.dep
# dependencies. Same recipe as build-initramfs.sh, another /init and module list, its own output, so that the
# plain VM test's initramfs is left as it is.  Output: .cache/initramfs-systemd.cpio
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=$HERE/.cache
KVER=$(cat "$CACHE/kver")
MD=$CACHE/kernel/lib/modules/$KVER
ST=$CACHE/initramfs-systemd.d
MODS="bochs virtio-gpu virtio_pci 9p 9pnet_virtio overlay autofs4"
rm -rf "$ST"
mkdir -p "$ST"/{bin,proc,sys,dev,tmp,run,lower,rw,newroot,lib/modules/"$KVER"}
cp /bin/busybox "$ST/bin/busybox"
ln -s busybox "$ST/bin/sh"
for m in $MODS; do
  line=$(grep -E "/$m\.ko(\.[a-z]+)?:" "$MD/modules.dep") || { echo "build-initramfs-systemd: no module $m in $KVER" >&2; exit 1; }
  for f in ${line/:/}; do
    mkdir -p "$ST/lib/modules/$KVER/$(dirname "$f")"
    cp -n "$MD/$f" "$ST/lib/modules/$KVER/$f"
  done
done
cp "$MD"/modules.{order,builtin,builtin.modinfo} "$ST/lib/modules/$KVER/"
depmod -b "$ST" "$KVER"
install -m 755 "$HERE/guest-init-systemd.sh" "$ST/init"
( cd "$ST" && find . -print0 | cpio --null -o -H newc --quiet ) > "$CACHE/initramfs-systemd.cpio.tmp"
mv "$CACHE/initramfs-systemd.cpio.tmp" "$CACHE/initramfs-systemd.cpio"
echo "build-initramfs-systemd: $(du -h "$CACHE/initramfs-systemd.cpio" | cut -f1) for $KVER"
