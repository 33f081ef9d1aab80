#!/usr/bin/env bash
# Builds ChampSim from a source folder with Debian's packages in place of vcpkg, one binary per
# configuration of a ChampSim configuration file (a JSON list of configurations).
#
#   tools/validation/build-champsim.sh SRC BUILD CONFIGS.json
#
# SRC    a ChampSim checkout (the public repository; checked against commit 2ff2501). Never modified:
#        its tracked files are copied into BUILD/src (git archive when SRC is a git work tree).
# BUILD  the build folder, outside git; the binaries end in BUILD/bin, named by each
#        configuration's "executable_name". The modules of tools/validation/champsim-modules
#        are copied into its btb/ or prefetcher/ folder with the core/ sources they list in
#        core-sources.txt (the checkout itself stays untouched).
# CONFIGS.json  configurations, as written by tools/validation/xcheck.py.
#
# How the vcpkg parts of ChampSim's Makefile are replaced, without editing ChampSim's sources:
# - absolute.options (a Makefile target with no prerequisites, normally "-I inc -isystem
#   <vcpkg>/include") is written here with only "-I inc": fmt, CLI11 and nlohmann-json are found in
#   /usr/include (libfmt-dev, libcli11-dev, nlohmann-json3-dev).
# - The Makefile always links -lCLI11, but Debian's CLI11 is header-only: an empty libCLI11.a in
#   BUILD/stub satisfies it (LDFLAGS=-L BUILD/stub on the make command line; the Makefile appends
#   its vcpkg -L flags, which point nowhere and are harmless).
# - -llzma -lz -lbz2 -lfmt come from liblzma-dev, zlib1g-dev, libbz2-dev and libfmt-dev.
#
# Environment: JOBS (default 2) parallel compile jobs; the build runs under nice -n 10. ccache is used
# when installed. Exit status: 0 built, 1 build failure, 2 bad arguments.
set -euo pipefail

die() { echo "build-champsim: $1" >&2; exit "${2:-1}"; }

[[ $# -eq 3 ]] || die "usage: build-champsim.sh SRC BUILD CONFIGS.json" 2
src=$1
build=$2
configs=$3
jobs=${JOBS:-2}

[[ -d $src ]] || die "ChampSim source folder '$src' does not exist" 2
[[ -f $src/config.sh && -f $src/Makefile && -d $src/src ]] ||
    die "'$src' does not look like a ChampSim checkout (no config.sh, Makefile or src/)" 2
[[ -f $configs ]] || die "configuration file '$configs' does not exist" 2
for tool in python3 make g++ ar; do
    command -v "$tool" > /dev/null || die "$tool is not installed" 2
done
for header in /usr/include/fmt/core.h /usr/include/CLI/CLI.hpp /usr/include/nlohmann/json.hpp \
    /usr/include/lzma.h /usr/include/zlib.h /usr/include/bzlib.h; do
    [[ -f $header ]] || die "$header missing: apt-get install libfmt-dev libcli11-dev nlohmann-json3-dev liblzma-dev zlib1g-dev libbz2-dev" 2
done

mkdir -p "$build"
build=$(cd "$build" && pwd)
configs=$(cd "$(dirname "$configs")" && pwd)/$(basename "$configs")
tree=$build/src

# 1. A private copy of the sources (ChampSim configures and builds in its own tree).
commit=unknown
if git -C "$src" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    commit=$(git -C "$src" rev-parse HEAD)
fi
if [[ ! -f $tree/.copied-from || $(cat "$tree/.copied-from") != "$commit" || $commit == unknown ]]; then
    rm -rf "$tree.tmp"
    mkdir -p "$tree.tmp"
    if [[ $commit != unknown ]]; then
        git -C "$src" archive HEAD | tar -x -C "$tree.tmp"
        if [[ -n $(git -C "$src" status --porcelain --untracked-files=no) ]]; then
            echo "build-champsim: warning: $src has uncommitted changes; building commit $commit without them" >&2
        fi
    else
        cp -a "$src/." "$tree.tmp/"
    fi
    echo "$commit" > "$tree.tmp/.copied-from"
    rm -rf "$tree"
    mv "$tree.tmp" "$tree"
fi
echo "build-champsim: ChampSim commit $commit in $tree"

# Our own ChampSim modules (tools/validation/champsim-modules) go into the private copy's btb/ or
# prefetcher/ folder, by the module interface their header derives from, where a configuration
# can name them. A module that uses concorde's own code lists those sources of core/ in its
# core-sources.txt: each is copied in beside it as core_<name>.cc (ChampSim compiles every .cc of
# a module folder), so the module runs the very code `concorde simulate` runs.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
for module in "$here"/champsim-modules/*/; do
    name=$(basename "$module")
    kind=btb
    grep -q "champsim::modules::prefetcher" "$module/$name.h" && kind=prefetcher
    staged=$build/modules/$name
    rm -rf "$staged"
    mkdir -p "$build/modules"
    cp -r "$module" "$staged"
    if [[ -f $module/core-sources.txt ]]; then
        while read -r source; do
            [[ -z $source || $source == \#* ]] && continue
            [[ -f $repo/core/$source ]] || die "$module/core-sources.txt: core/$source does not exist"
            cp "$repo/core/$source" "$staged/core_$(basename "$source" .cpp).cc"
        done < "$module/core-sources.txt"
    fi
    if ! diff -rq "$staged" "$tree/$kind/$name" > /dev/null 2>&1; then
        rm -rf "$tree/$kind/$name"
        cp -r "$staged" "$tree/$kind/$name"
    fi
done

# 2. Configure: one binary per entry of the configuration list.
mkdir -p "$build/stub"
[[ -f $build/stub/libCLI11.a ]] || ar rc "$build/stub/libCLI11.a"
(cd "$tree" && python3 config.sh --bindir "$build/bin" "$configs") ||
    die "ChampSim's config.sh failed on $configs"
# concorde's headers for the modules that use its code (core/ has no dependency beyond the C++
# standard library), and C++20 for every module (ChampSim's global.options says C++17; options
# files later on the command line win, and module.options comes after global.options).
echo "-I$tree/inc -I$repo/core" > "$tree/absolute.options"
grep -qx -- "--std=c++20" "$tree/module.options" || echo "--std=c++20" >> "$tree/module.options"

# 3. Build. ChampSim's Makefile starts python3 once per module directory and more; a python3 that
# is a wrapper (pyenv shims) makes that take minutes, so the real interpreter is put first on PATH.
python=$(python3 -c 'import sys; print(sys.executable)')
ln -sf "$python" "$build/stub/python3"
export PATH="$build/stub:$PATH"
cxx=g++
command -v ccache > /dev/null && cxx="ccache g++"
start=$(date +%s)
if ! (cd "$tree" && nice -n 10 make -j"$jobs" CXX="$cxx" LDFLAGS="-L$build/stub" > "$build/make.log" 2>&1); then
    tail -n 30 "$build/make.log" >&2
    die "make failed (full log: $build/make.log)"
fi
echo "build-champsim: built in $(( $(date +%s) - start )) s into $build/bin"
echo "$commit" > "$build/bin/.champsim-commit"
