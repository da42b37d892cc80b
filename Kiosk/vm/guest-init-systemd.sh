#!/bin/sh
# PID 1 of the systemd VM test's initramfs (systemd-test.sh). Builds a writable root for systemd out of the
# host's / (read-only over 9p, tag "hostroot") under an overlay whose upper layer is a tmpfs, so that /etc, /var,
# /usr/local and /srv take the installation and everything systemd writes, while the host's files stay untouched.
# The exchange folder (9p tag "kioskio") goes to /run/vmio. Then, chrooted into the new root, it runs the setup
# script named by kiosk.setup=PATH (a path in the host root: installs kiosk, the test units), and hands over:
# switch_root to /lib/systemd/systemd, which boots the unit named by systemd.unit= on the kernel command line.
# Lines starting "@@ <uptime>" are milestones the harness (vm.py) timestamps.
PATH=/bin; export PATH
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
P=/proc
mark() { echo "@@ $(cut -d' ' -f1 $P/uptime) $*"; }
fatal() { mark "FATAL $*"; sleep 1; poweroff -f; }
GPU=bochs; SETUP=
for x in $(cat /proc/cmdline); do
  case $x in kiosk.gpu=*) GPU=${x#kiosk.gpu=} ;; kiosk.setup=*) SETUP=${x#kiosk.setup=} ;; esac
done
mark "init gpu=$GPU systemd"
modprobe virtio_pci; modprobe 9pnet_virtio; modprobe 9p; modprobe overlay; modprobe autofs4
case $GPU in
  bochs) modprobe bochs ;;
  virtio) modprobe virtio-gpu ;;
  *) fatal "unknown kiosk.gpu=$GPU" ;;
esac
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 hostroot /lower || fatal "9p hostroot"
mount -t tmpfs -o mode=755 tmpfs /rw && mkdir /rw/upper /rw/work
mount -t overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work overlay /newroot || fatal "overlay root"
N=/newroot
# systemd mounts /run only where nothing is mounted yet: this tmpfs stays, with the exchange folder in it.
mount -t tmpfs -o mode=755,nosuid,nodev tmpfs $N/run
mkdir -p $N/run/vmio
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 kioskio $N/run/vmio || fatal "9p kioskio"
# Fresh /tmp and /var/tmp, as on a booted system: systemd-tmpfiles-setup empties /tmp at boot, which over the
# overlay would mean a whiteout for each of the host's files there (minutes under TCG).
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs $N/tmp; mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs $N/var/tmp
# A checkout under /tmp (CI's clean clone) would be hidden by the fresh /tmp: its folder (the setup script's
# repository) is bound back in from the host's root, read-only.
ROOT=${SETUP%/Kiosk/vm/*}
case $ROOT in
  /tmp/*|/var/tmp/*) mkdir -p $N$ROOT && mount --bind /lower$ROOT $N$ROOT || fatal "bind $ROOT" ;;
esac
# The host's root may be a container's: systemd takes a /.dockerenv for "running in docker" and then ignores the
# kernel command line (systemd.unit=) and skips the units that need a real machine. Gone in the overlay only.
rm -f $N/.dockerenv $N/run/.containerenv
i=0; while [ ! -e /dev/dri/card0 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
mark "drm $(ls /dev/dri 2>&1 | tr '\n' ' ')driver=$(basename "$(readlink /sys/class/drm/card0/device/driver)")"
# /dev, /proc and /sys go along (systemd keeps mounted API file systems); busybox's switch_root then empties
# the initramfs and makes the new root /.
mount --move /dev $N/dev; mount --move /proc $N/proc; mount --move /sys $N/sys
P=$N/proc
if [ -n "$SETUP" ]; then
  mark "setup start"
  chroot $N /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    /bin/bash "$SETUP" < $N/dev/null 2>&1 || fatal "setup $SETUP failed"
  mark "setup done"
fi
[ -x $N/lib/systemd/systemd ] || fatal "no /lib/systemd/systemd in the host root"
mark "switch_root systemd"
exec switch_root $N /lib/systemd/systemd
fatal "switch_root failed"
