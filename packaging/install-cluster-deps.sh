#!/usr/bin/env bash
# Installs the Debian 12 packages the cluster test (tests/cluster/slurm-test.sh) needs: a Slurm
# controller and compute daemon and munge, which Slurm authenticates with. The daemons are not
# enabled or started by this script; the test starts its own with a generated configuration.
# Idempotent: packages already present are skipped, and apt is not touched when nothing is missing.
# Works as root or through sudo.
set -euo pipefail

PACKAGES=(
  # slurmctld, slurmd, sbatch, squeue, sacct... (pulls slurm-client and slurmd/slurmctld)
  slurm-wlm
  # the authentication daemon and its key tools
  munge
  # the test compares tables with sqlite3
  sqlite3
)

exec bash "$(dirname "$0")/apt-install-missing.sh" install-cluster-deps "${PACKAGES[@]}"
