#!/bin/bash
# The initramfs of the systemd VM test (systemd-test.sh): build-initramfs.sh's recipe with guest-init-systemd.sh
# as /init and the modules it loads before handing over to systemd (GPU, virtio, 9p, overlay, autofs4 for
# systemd), into its own file so that the plain VM test's initramfs is left as it is.
# Output: .cache/initramfs-systemd.cpio
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
exec "$HERE/build-initramfs.sh" initramfs-systemd "$HERE/guest-init-systemd.sh" \
  "bochs virtio-gpu virtio_pci 9p 9pnet_virtio overlay autofs4"
