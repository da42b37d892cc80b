#!/usr/bin/env bash
# Installs the Debian 12 packages kiosk builds, runs and tests with (sudo when not root), and checks Swift.
set -euo pipefail
packages=(
  pkg-config
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev
  libdrm-dev libgbm-dev libegl-dev libgles-dev libegl-mesa0 libgl1-mesa-dri
  libasound2-dev libinput-dev libudev-dev libwebp-dev libgif-dev libsystemd-dev
  ffmpeg glslang-tools python3
  dbus-daemon python3-dbus python3-gi
  # the IPC tests: mpv is the reference server; the venv holds python-mpv-jsonipc (Kiosk/ipc-venv.sh)
  mpv python3-venv python3-pip
  lomiri-wallpapers-16.04
  # systemd-analyze checks Kiosk/kiosk.service (verify, security --offline=yes, syscall-filter; no running systemd
  # is needed); strace shows a run stays inside the unit's system call filter (SystemdTests)
  systemd strace
  # text on screen: FreeType, HarfBuzz and fontconfig with DejaVu as the default font; hb-view (HarfBuzz's own
  # renderer) and tesseract (OCR) are the references the text tests compare with; exiftool writes the EXIF, IPTC
  # and XMP captions the caption tests read back
  libfreetype-dev libharfbuzz-dev libfontconfig-dev fonts-dejavu-core
  libharfbuzz-bin tesseract-ocr tesseract-ocr-eng libimage-exiftool-perl
  # JPEG stills through libjpeg-turbo (DCT scaling, streamed rows; djpeg is the decode benchmark's reference);
  # libpng reads a PNG asked for smaller a row at a time (thumbnails of huge PNGs)
  libjpeg62-turbo-dev libjpeg-turbo-progs libpng-dev
  # fleets over MQTT: libmosquitto is the client (KioskFleet); the broker and its command-line clients are what the
  # MQTT tests (MQTTFleet*Tests) run against, and openssl makes the certificates of their TLS broker
  libmosquitto-dev mosquitto mosquitto-clients openssl
  # layouts: SMIL files (and XMP packets) are read with libxml2's parser
  libxml2-dev
  # HDMI-CEC: the kernel's headers (linux/cec.h) build it; cec-ctl, cec-follower and cec-compliance test it in the VM
  linux-libc-dev v4l-utils
  # proof of play: SQLite is the log; sqlite3 reads it back in the tests, xmllint checks the Xibo XML against its schema
  libsqlite3-dev sqlite3 libxml2-utils
  # the web page: libmicrohttpd serves it (GnuTLS for HTTPS), libxcrypt's crypt(3) hashes its password; a headless
  # chromium driven by selenium tests it in a real browser, curl and Python's own HTTP client test its guards
  libmicrohttpd-dev libcrypt-dev curl chromium chromium-driver python3-selenium
  # the manual page and the package: man-db renders kiosk(1) (ManualPageTests); Kiosk/package.sh builds the .deb
  # with dpkg-dev's dpkg-shlibdeps and checks it with lintian; Kiosk/package-test.sh installs it into a bare Debian 12
  # root made by debootstrap
  man-db dpkg-dev lintian debootstrap
  # content from a server: libcurl fetches it, libsodium checks minisign signatures and SHA-256 sums; nginx serves
  # the content in the tests (its ETag and Last-Modified are the reference) and minisign signs the test bundles
  libcurl4-openssl-dev libsodium-dev nginx-light minisign
  # screen health: edid-decode is the reference the EDID parser's identity (manufacturer, product, serial, name) is
  # checked against (EDIDTests); Jinja2 renders the Home Assistant health entities' templates as Home Assistant
  # would (HealthDiscoveryTests)
  edid-decode python3-jinja2
  # web content (issue 42): WPE WebKit renders pages offscreen in the kiosk-web-helper program, wpebackend-fdo hands the frames
  # over in shared memory (libwayland-server reads them); the chromium above is the reference the page test compares with
  libwpewebkit-1.1-dev libwpebackend-fdo-1.0-dev libwpe-1.0-dev libwayland-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "kiosk setup: installing ${missing[*]}" >&2
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    echo "kiosk setup: Swift is at /opt/swift/usr/bin; add it to PATH" >&2
  else
    echo "kiosk setup: Swift 6 is not installed: get the toolchain for Debian 12 from swift.org and put it on PATH" >&2
    exit 1
  fi
fi
