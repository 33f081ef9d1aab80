#!/usr/bin/env bash
# Installs dependencies, builds (release preset) and launches the explorer on the default
# database in data/ (or in its empty state if that database has not been built yet).
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset release
cmake --build --preset release -j "$(nproc)" --target concorde concorde-explorer
database=data/default.sqlite
if [ -f "$database" ]; then
  exec build/release/bin/concorde-explorer "$database" "$@"
fi
exec build/release/bin/concorde-explorer "$@"
