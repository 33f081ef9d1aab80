#!/usr/bin/env bash
# Builds the .deb and .tar.gz with CPack, installs the .deb with apt, runs the INSTALLED programs
# (headless export on the installed default database, a short trace, info, bounds with an installed
# preset), validates the desktop entry and metainfo, then removes the package, also on failure.
# Usage: package-test.sh BUILD_DIR SOURCE_DIR. Exit 77 (skipped) when not root.
set -euo pipefail
build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)
package=concorde-explorer

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: installing a .deb needs root (CI runs as root)"
  exit 77
fi

# apt must never stop to ask (debconf) under ctest.
export DEBIAN_FRONTEND=noninteractive
work=$(mktemp -d /tmp/concorde-package-test.XXXXXX)
installed=0
cleanup() {
  status=$?
  if [ "$installed" -eq 1 ]; then
    apt-get remove -y -q -o DPkg::Lock::Timeout=300 "$package" >"$work/remove.log" 2>&1 ||
      { cat "$work/remove.log"; status=1; }
    if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q ' installed'; then
      echo "FAIL: $package is still installed"; status=1
    fi
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() { echo "FAIL: $*"; exit 1; }

# Packages go to the scratch directory, not the build tree other tests are using.
cpack --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$work/out/${package}_"*.deb)
tgz=$(ls "$work/out/${package}-"*.tar.gz)
echo "package: $(basename "$deb") $(du -h "$deb" | cut -f1), $(basename "$tgz") $(du -h "$tgz" | cut -f1)"
dpkg-deb -f "$deb" Depends
tar -tzf "$tgz" | grep -q '/usr/bin/concorde-explorer$' || fail "the .tar.gz has no usr/bin/concorde-explorer"

# Mark before installing: a half-done install must still be removed.
installed=1
apt-get install -y -q -o DPkg::Lock::Timeout=300 "$deb" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "apt-get install"; }
dpkg -L "$package" >"$work/files"
for f in /usr/bin/concorde /usr/bin/concorde-explorer \
         /usr/lib/concorde/valgrind/ctrace-amd64-linux \
         /usr/share/concorde/presets/n1-like.json /usr/share/concorde/default.sqlite \
         /usr/share/applications/concorde-explorer.desktop \
         /usr/share/icons/hicolor/scalable/apps/concorde-explorer.svg \
         /usr/share/metainfo/io.github.concorde.Explorer.metainfo.xml; do
  grep -qx "$f" "$work/files" || fail "$f is not in the installed package"
done
cmp -s /usr/share/concorde/default.sqlite "$source/data/default.sqlite" ||
  fail "the installed default database differs from data/default.sqlite"

# The installed programs alone: no build-tree hints, a fresh home, away from the source tree.
run() {
  (cd / && env -u CONCORDE_PRESETS_DIR -u CONCORDE_VALGRIND_LIB -u CONCORDE_BIN_DIR \
       -u XDG_DATA_DIRS -u XDG_CONFIG_HOME -u XDG_DATA_HOME \
       HOME="$work/home" QT_QPA_PLATFORM=offscreen "$@")
}
mkdir -p "$work/home"

# No database argument: the explorer must open /usr/share/concorde/default.sqlite.
run /usr/bin/concorde-explorer --export overview -o "$work/x.png" || fail "installed headless export"
[ -f "$work/x.png" ] || fail "no PNG written"
[ "$(head -c 8 "$work/x.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "not a PNG"
size=$(stat -c %s "$work/x.png")
[ "$size" -gt 20000 ] || fail "PNG is only $size bytes"
echo "export: $size bytes"

run /usr/bin/concorde trace -o "$work/t.ctrace" --length 10000 -- /bin/true || fail "installed trace"
run /usr/bin/concorde info "$work/t.ctrace" >"$work/info.txt" || fail "installed info"
grep -q '^instructions: *10000$' "$work/info.txt" || { cat "$work/info.txt"; fail "info: not 10000 instructions"; }
# A preset by name: read from /usr/share/concorde/presets.
run /usr/bin/concorde bounds --preset little "$work/t.ctrace" >/dev/null || fail "installed preset"

desktop-file-validate /usr/share/applications/concorde-explorer.desktop || fail "desktop-file-validate"
appstreamcli validate --no-net /usr/share/metainfo/io.github.concorde.Explorer.metainfo.xml ||
  fail "appstreamcli validate"
echo "PASS"
