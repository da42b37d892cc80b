#!/usr/bin/env bash
# Builds the Debian package kiosk_VERSION_ARCH.deb from the commit HEAD names (a clean copy of it, so an uncommitted
# edit is never packaged):
#   /usr/bin/kiosk                      the release binary, Swift's standard library and Foundation linked in
#                                       (--static-swift-stdlib: the target needs no Swift), stripped
#   /lib/systemd/system/kiosk.service   Kiosk/kiosk.service with ExecStart=/usr/bin/kiosk (enabled, not started)
#   /etc/kiosk/kiosk.conf               Kiosk/kiosk.conf.example with every setting commented out (a conffile):
#                                       as shipped, the service plays the built-in demo
#   /usr/share/kiosk/demo/              the demo (Kiosk/demo: demo.m3u, its media, CREDITS) and examples/ (the
#   /usr/share/kiosk/examples/          SMIL layouts of Kiosk/examples, one of which the demo plays)
#   /usr/share/man/man1/kiosk.1.gz      the manual page, written by 'kiosk --manual' from the tables --help prints
#   /usr/share/doc/kiosk/               copyright, changelog.Debian.gz, examples/ (kiosk.conf, schedule)
# The maintainer scripts (Kiosk/package/) make the kiosk system user in video, render, input and audio, and a purge
# removes the config, the state (/var/lib/kiosk), the cache and the user. Depends is what dpkg-shlibdeps finds the
# binary links, plus the Mesa drivers libEGL and libgbm load at run time (no ELF names them).
#
# usage: Kiosk/package.sh [--revision N] [--out DIR] [--no-build] [--no-lintian]
#   --revision N   the Debian revision: VERSION is KioskVersion.number-N (default 1); a higher N is an upgrade
#   --out DIR      where the .deb goes (default out/)
#   --no-build     package the binary the last run built (.build/package) without building
#   --no-lintian   skip lintian
# Prints the .deb's path last. Needs: Swift (/opt/swift), dpkg-dev (dpkg-shlibdeps), lintian (Kiosk/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
revision=1
out=out
build=1
lint=1
while (($#)); do
  case "$1" in
    --revision) [ $# -ge 2 ] && [[ "$2" =~ ^[0-9]+$ ]] || { echo "package.sh: --revision needs a number" >&2; exit 2; }
                revision="$2"; shift ;;
    --out) [ $# -ge 2 ] || { echo "package.sh: --out needs a DIR" >&2; exit 2; }
           out="$2"; shift ;;
    --no-build) build=0 ;;
    --no-lintian) lint=0 ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "package.sh: unknown option '$1' (options: --revision N, --out DIR, --no-build, --no-lintian)" >&2; exit 2 ;;
  esac
  shift
done
say() { echo "package.sh: $*" >&2; }
for tool in dpkg-deb dpkg-shlibdeps git; do
  command -v "$tool" >/dev/null || { echo "package.sh: $tool is missing (run Kiosk/setup.sh)" >&2; exit 1; }
done
mkdir -p "$out"; out=$(cd "$out" && pwd)
main=$PWD
commit=$(git rev-parse HEAD)

# A clean tree: the files of the commit HEAD names, nothing else (no uncommitted edit, no build output). It is
# kept in .build/package-src and only the files that changed since the last run are rewritten, so the build
# folder's records of the others still hold and a rebuild compiles only what changed.
src=$main/.build/package-src
fresh=$(mktemp -d)
git archive --format=tar "$commit" | tar -x -C "$fresh"
mkdir -p "$src"
(cd "$fresh" && find . -type f) | while IFS= read -r f; do
  cmp -s "$fresh/$f" "$src/$f" || { mkdir -p "$(dirname "$src/$f")"; cp "$fresh/$f" "$src/$f"; }
done
(cd "$src" && find . -type f) | while IFS= read -r f; do [ -e "$fresh/$f" ] || rm -f "$src/$f"; done
rm -rf "$fresh"
cd "$src"
say "building commit $(git -C "$main" rev-parse --short HEAD)$(git -C "$main" diff --quiet HEAD -- Sources Package.swift Kiosk || echo ' (the working tree has uncommitted changes: not in the package)')"

upstream=$(sed -n 's/^ *public static let number = "\([0-9.]*\)".*/\1/p' Sources/KioskCore/Support/KioskVersion.swift)
[ -n "$upstream" ] || { echo "package.sh: no version in Sources/KioskCore/Support/KioskVersion.swift" >&2; exit 1; }
version="$upstream-$revision"
arch=$(dpkg --print-architecture)
# Dates inside the package are the last commit's, so two builds of one commit give the same files.
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git -C "$main" log -1 --format=%ct "$commit")}"

# Its own build folder: the static flags do not rebuild, or race with, the .build/release others use.
scratch=$main/.build/package
# Debian's hardening: relocations read-only from the start (-z relro -z now). Not _FORTIFY_SOURCE: with it glibc's
# headers define functions inline, and Swift's importer then finds two definitions of one (realpath in CCrypt).
flags=(-c release --static-swift-stdlib --scratch-path "$scratch" -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now)
export PATH="/opt/swift/usr/bin:$PATH"
if ((build)); then
  say "building the release binary with --static-swift-stdlib"
  swift build "${flags[@]}" --product kiosk >&2
fi
binary="$(swift build "${flags[@]}" --show-bin-path)/kiosk"
[ -x "$binary" ] || { echo "package.sh: no binary at $binary (run without --no-build)" >&2; exit 1; }
# What it links: no Swift runtime, Foundation or ICU may remain (the target has no Swift).
if ldd "$binary" | grep -E 'libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime|libicu.*swift' >&2; then
  echo "package.sh: $binary still links the Swift libraries above" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/kiosk"
install -d "$root/DEBIAN" "$root/usr/bin" "$root/lib/systemd/system" "$root/etc/kiosk" "$root/usr/share/kiosk/demo" \
  "$root/usr/share/man/man1" "$root/usr/share/doc/kiosk/examples"
install -m 0755 "$binary" "$root/usr/bin/kiosk"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/kiosk"
sed -e 's#^ExecStart=/usr/local/bin/kiosk #ExecStart=/usr/bin/kiosk #' -e 's#^Description=.*#&\nDocumentation=man:kiosk(1)#' \
  Kiosk/kiosk.service > "$root/lib/systemd/system/kiosk.service"
grep -q '^ExecStart=/usr/bin/kiosk ' "$root/lib/systemd/system/kiosk.service" \
  || { echo "package.sh: Kiosk/kiosk.service has no ExecStart=/usr/local/bin/kiosk to point at /usr/bin" >&2; exit 1; }
{
  echo "# As shipped every setting is commented out, so kiosk.service plays the built-in demo"
  echo "# (/usr/share/kiosk/demo); uncomment and edit. 'kiosk check-config /etc/kiosk/kiosk.conf' checks it."
  sed -E 's/^([a-z])/# \1/' Kiosk/kiosk.conf.example
} > "$root/etc/kiosk/kiosk.conf"
install -m 0644 Kiosk/kiosk.conf.example "$root/usr/share/doc/kiosk/examples/kiosk.conf"
install -m 0644 Kiosk/schedule.example "$root/usr/share/doc/kiosk/examples/schedule"
# The demo and the examples its last item (a SMIL layout) plays, side by side as in the tree; not the scripts
# that made them.
while read -r name; do
  install -D -m 0644 "Kiosk/$name" "$root/usr/share/kiosk/$name"
done < <(git -C "$main" ls-tree -r --name-only "$commit" Kiosk/demo Kiosk/examples | sed 's#^Kiosk/##' | grep -v '\.sh$')
"$root/usr/bin/kiosk" --manual > "$work/kiosk.1"
gzip -9n < "$work/kiosk.1" > "$root/usr/share/man/man1/kiosk.1.gz"
cat Kiosk/package/copyright Kiosk/demo/CREDITS > "$root/usr/share/doc/kiosk/copyright"
{
  echo "kiosk ($version) unstable; urgency=medium"
  echo
  echo "  * Built by Kiosk/package.sh from commit ${commit:0:12}."
  echo
  echo " -- kiosk maintainers <kiosk@example.org>  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n > "$root/usr/share/doc/kiosk/changelog.Debian.gz"
find "$root" -type d -exec chmod 0755 {} +
find "$root/etc" "$root/lib" "$root/usr/share" -type f -exec chmod 0644 {} +
install -m 0755 Kiosk/package/postinst Kiosk/package/prerm Kiosk/package/postrm "$root/DEBIAN/"
echo /etc/kiosk/kiosk.conf > "$root/DEBIAN/conffiles"
(cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\n' | LC_ALL=C sort | xargs md5sum) > "$root/DEBIAN/md5sums"

# dpkg-shlibdeps reads a source package's debian/control: a minimal one beside the tree.
install -d "$work/debian"
printf 'Source: kiosk\n\nPackage: kiosk\nArchitecture: any\n' > "$work/debian/control"
shlibs=$(cd "$work" && dpkg-shlibdeps -O -e kiosk/usr/bin/kiosk 2>"$work/shlibdeps.err") \
  || { cat "$work/shlibdeps.err" >&2; echo "package.sh: dpkg-shlibdeps failed" >&2; exit 1; }
depends=${shlibs#shlibs:Depends=}
# Loaded at run time, so no ELF names them: Mesa's EGL and GBM drivers (llvmpipe when there is no GPU).
depends="$depends, libegl-mesa0, libgl1-mesa-dri"
size=$(du -k -s --apparent-size "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<EOF
Package: kiosk
Version: $version
Architecture: $arch
Maintainer: kiosk maintainers <kiosk@example.org>
Installed-Size: $size
Depends: $depends
Recommends: fonts-dejavu-core
Section: video
Priority: optional
Description: offline full-screen slideshow and signage player
 kiosk plays pictures, video, sound and SMIL layouts full screen on the
 DRM/KMS display (no X or Wayland), from folders, playlists and schedules,
 and is controlled over mpv's JSON IPC, MQTT, a web page and HDMI-CEC.
 .
 This package runs it as a systemd service (kiosk.service, the kiosk
 user) with /etc/kiosk/kiosk.conf; as shipped it plays a built-in demo.
EOF
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
deb="$out/kiosk_${version}_${arch}.deb"
dpkg-deb --build --root-owner-group -Zxz "$root" "$deb" >&2
say "built $deb ($(du -k "$deb" | cut -f1) KiB; installed $size KiB)"
say "Depends: $depends"
if ((lint)); then
  if command -v lintian >/dev/null; then
    # lintian's exit status fails on errors only; every tag it prints is listed (see docs/package.md).
    lintian --info --display-info --no-tag-display-limit "$deb" >&2 || { echo "package.sh: lintian found errors" >&2; exit 1; }
  else
    say "lintian is not installed: not checked (run Kiosk/setup.sh)"
  fi
fi
echo "$deb"
