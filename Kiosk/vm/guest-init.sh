#!/bin/sh
# PID 1 of the test VM. Mounts the host's / (read-only, 9p tag "hostroot") at /host and the harness's
# exchange folder (writable, 9p tag "kioskio") at /host/run/kiosk, loads the GPU driver named by
# kiosk.gpu=bochs|virtio|virtio2 on the kernel command line (and the modules of kiosk.modules=a,b, when given), runs /run/kiosk/job.sh chrooted into the host root,
# writes its exit status to /run/kiosk/job.rc and powers off. Lines starting "@@ <uptime>" are milestones
# the harness (vm.py) timestamps.
PATH=/bin; export PATH
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
mark() { echo "@@ $(cut -d' ' -f1 /proc/uptime) $*"; }
GPU=bochs
MODULES=""
for x in $(cat /proc/cmdline); do case $x in kiosk.gpu=*) GPU=${x#kiosk.gpu=} ;; kiosk.modules=*) MODULES=${x#kiosk.modules=} ;; esac; done
mark "init gpu=$GPU"
modprobe virtio_pci; modprobe 9pnet_virtio; modprobe 9p
H=/host
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 hostroot $H || { mark "FATAL 9p hostroot"; poweroff -f; }
mount -t proc proc $H/proc; mount -t sysfs sysfs $H/sys; mount -t devtmpfs devtmpfs $H/dev
mount -t tmpfs tmpfs $H/run; mkdir -p $H/run/kiosk $H/run/tmp; chmod 1777 $H/run/tmp
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 kioskio $H/run/kiosk || { mark "FATAL 9p kioskio"; poweroff -f; }
case $GPU in
  bochs) modprobe bochs ;;
  virtio|virtio2) modprobe virtio-gpu ;;   # virtio2: two heads
  *) mark "FATAL unknown kiosk.gpu=$GPU" ;;
esac
modprobe uinput; modprobe evdev   # synthetic touchscreen and keyboard for the input step
modprobe snd-aloop                # an ALSA card that the faults step unbinds under a playing clip
for m in $(echo "$MODULES" | tr , ' '); do modprobe "$m" || mark "FATAL modprobe $m"; done  # kiosk.modules=vivid,...
i=0; while [ ! -e /dev/dri/card0 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
mark "drm $(ls /dev/dri 2>&1 | tr '\n' ' ')driver=$(basename "$(readlink /sys/class/drm/card0/device/driver)")"
mark "job start"
chroot $H /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  HOME=/run/kiosk/home TMPDIR=/run/tmp XDG_RUNTIME_DIR=/run XDG_CACHE_HOME=/run/kiosk/cache \
  KIOSK_VM_IO=/run/kiosk KIOSK_VM_GPU=$GPU /bin/sh /run/kiosk/job.sh < /dev/null 2>&1
rc=$?
echo $rc > $H/run/kiosk/job.rc
mark "job exit rc=$rc"
sync
poweroff -f
