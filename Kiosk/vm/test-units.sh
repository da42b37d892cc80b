# Sourced by systemd-setup.sh (in the guest, into its overlay) and package-vm.sh (on the host, into the package's
# bare root): the units that make systemd boot just enough for a VM test, the basic system (journald, udevd,
# udev's coldplug) and the job /run/vmio/job.sh, with what is slow or failing in a VM without network or autofs
# masked, and the journal kept in memory.
# test_units ETC NAME WHAT: writes NAME.target and NAME.service under ETC/systemd/system (ETC: a root's /etc),
# described as "kiosk WHAT".
test_units() {
  local etc=$1 name=$2 what=$3
  local u=$etc/systemd/system
  mkdir -p "$u" "$etc/systemd/journald.conf.d"
  cat > "$u/$name.target" <<UNIT
[Unit]
Description=kiosk $what: the basic system and the test job, nothing else
Requires=basic.target
Wants=$name.service
After=basic.target
AllowIsolate=yes
UNIT
  # The VM ends with the job, whichever way it ends (vm.py then reads /run/vmio/job.rc; the job syncs, and the
  # exchange folder is mounted uncached, so an immediate power-off loses nothing).
  cat > "$u/$name.service" <<UNIT
[Unit]
Description=kiosk $what job (/run/vmio/job.sh)
After=basic.target systemd-udev-trigger.service systemd-journald.service
SuccessAction=poweroff-immediate
FailureAction=poweroff-immediate

[Service]
Type=oneshot
ExecStart=/bin/bash /run/vmio/job.sh
StandardInput=null
StandardOutput=tty
StandardError=tty
TTYPath=/dev/ttyS0
TimeoutStartSec=600
UNIT
  local masked
  for masked in systemd-timesyncd.service systemd-pstore.service apt-daily.timer apt-daily-upgrade.timer \
      dpkg-db-backup.timer e2scrub_all.timer fstrim.timer proc-sys-fs-binfmt_misc.automount \
      systemd-binfmt.service systemd-journal-flush.service; do
    ln -sf /dev/null "$u/$masked"
  done
  printf '[Journal]\nStorage=volatile\nForwardToConsole=no\nRateLimitBurst=0\n' > "$etc/systemd/journald.conf.d/vm-test.conf"
}
