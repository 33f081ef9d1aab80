#!/usr/bin/env bash
# Installs the Debian 12 packages whose programs make up the workload set in data/workloads/
# (see data/workloads/README.md), plus valgrind, which `concorde trace` runs them under.
# Idempotent: packages already present are skipped, and apt is not touched when nothing is missing.
# Works as root or through sudo.
set -euo pipefail

PACKAGES=(
  # the tracer runs on valgrind; lackey (part of valgrind) measures run lengths
  valgrind
  # compressors
  gzip xz-utils bzip2 zstd
  # compiler: GCC 12's cc1 (package cpp-12) is run directly (the gcc driver forks)
  cpp-12
  # interpreters
  python3 perl-base tcl lua5.4 gawk bc
  # database engine
  sqlite3
  # chess engine
  stockfish
  # audio encoders
  flac lame
  # sort, md5sum... (always there, listed for completeness)
  coreutils
  # --- the wider suite of issue 17 (data/workloads/README.md, "Categories") ---
  # compilers: cc1plus, clang -cc1
  g++-12 clang-14
  # interpreters and JITs
  php-cli ruby luajit nodejs
  # more interpreters: Prolog (swipl); GNU R through littler's r, which embeds R in one process
  # (Rscript execs the R shell script, which Valgrind cannot follow; r-base-core comes with littler)
  swi-prolog-core littler
  # embedded key-value stores
  kyotocabinet-utils tokyocabinet-bin lmdb-utils
  # compressors
  brotli lzip lz4
  # media encoders
  x265 vpx-tools vorbis-tools opus-tools libjpeg-turbo-progs webp
  # image and rendering
  povray imagemagick graphviz librsvg2-bin
  # game-tree search (hoichess reads its positions from a command file; gnuchess only from stdin)
  gnugo fairy-stockfish hoichess
  # SAT and SMT solvers (cadical: a conflict limit gives a fixed run and exit code 0; minisat
  # always exits 10 or 20)
  cadical z3
  # scientific and floating point
  lammps glpk-utils ngspice
  # more floating-point-dominated programs: molecular dynamics, finite elements, dense linear
  # algebra (numpy on the reference BLAS/LAPACK: with OpenBLAS installed, the alternatives system
  # gives numpy OpenBLAS instead and its counts change), audio DSP, FDTD electromagnetics
  gromacs calculix-ccx python3-numpy libblas3 liblapack3 sox meep
  # bioinformatics
  hmmer bwa clustalo ncbi-blast+
  # XML and text; document conversion (pandoc, Haskell) and typesetting (troff of groff-base)
  xsltproc libxml2-utils jq grep sed pandoc groff-base
  # crypto and networking (tshark: Wireshark's dissectors, reading a file as root needs no setup)
  openssl openssh-client tcpdump tshark
)

exec bash "$(dirname "$0")/apt-install-missing.sh" install-workload-deps "${PACKAGES[@]}"
