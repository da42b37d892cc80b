# Sourced by the VM scripts: need_tools WHO "PACKAGES" TOOL:PACKAGE ... installs PACKAGES (as root) when any TOOL
# (a command on PATH, or an absolute path) is missing; otherwise it says what to install and exits 1.
need_tools() {
  local who=$1 packages=$2 missing="" tool t
  shift 2
  for tool in "$@"; do
    t=${tool%%:*}
    if [ "${t#/}" != "$t" ]; then [ -x "$t" ] || missing="$missing ${tool#*:}"; else command -v "$t" >/dev/null || missing="$missing ${tool#*:}"; fi
  done
  [ -n "$missing" ] || return 0
  if [ "$(id -u)" = 0 ]; then
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $packages
  else
    echo "$who: missing$missing; as root: apt-get install $packages" >&2; exit 1
  fi
}
