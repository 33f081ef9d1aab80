#!/usr/bin/env bash
# Installs dependencies, builds (release preset) and runs every test with CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset release
cmake --build --preset release -j "$(nproc)"
ctest --preset release "$@"
