#!/usr/bin/env bash
# Installs every Debian 12 package needed to build, test and run Concorde Explorer.
# Idempotent: packages already present are skipped, and apt is not touched when nothing is missing.
# Works as root or through sudo.
set -euo pipefail

PACKAGES=(
  # toolchain
  build-essential cmake ninja-build pkg-config git
  # libraries (see CMakeLists.txt)
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libeigen3-dev libsqlite3-dev libtbb-dev
  libzstd-dev liblzma-dev zlib1g-dev nlohmann-json3-dev libcli11-dev
  # Qt's offscreen/xcb platform needs GL headers at build time on some setups
  libgl-dev
  # benchmarks (tests/bench)
  libbenchmark-dev
  # the tracer is a Valgrind tool; tests trace real programs
  valgrind
  # running and testing the GUI without a display, looking at screenshots, querying databases
  xvfb xauth imagemagick sqlite3 fonts-dejavu-core
  # validating the packaged desktop entry and AppStream metainfo (tests/package)
  desktop-file-utils appstream
  # real workloads traced by the tests and the default database (data/workloads)
  gzip xz-utils bzip2
)

exec bash "$(dirname "$0")/apt-install-missing.sh" install-deps "${PACKAGES[@]}"
