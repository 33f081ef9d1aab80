#!/usr/bin/env bash
# Shared by the install scripts: installs whichever of the given Debian packages are missing.
# Idempotent (apt is not touched when everything is installed); works as root or through sudo.
#
#   apt-install-missing.sh LABEL PACKAGE...
set -euo pipefail

label=$1
shift
missing=()
for package in "$@"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "$label: all $# packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "$label: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
fi

echo "$label: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
