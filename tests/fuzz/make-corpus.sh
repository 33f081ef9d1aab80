#!/usr/bin/env bash
# Writes the seed corpora of tests/fuzz/corpus/ from real files: small traces made by
# `concorde trace` and `concorde microbench`, a tiny feature database built from them
# (`concorde build-db`), blobs of data/default.sqlite, a small dataset and models trained on it,
# and the shipped presets. Every seed is a real file or a real blob, or one of them in the
# harness's second form (a trace's region table as text, a blob's payload decompressed: see each
# harness's header comment). The committed corpus was made with this script; rerunning it gives
# equivalent (not byte-identical: traces hold their command line and run) seeds.
#
#   tests/fuzz/make-corpus.sh [--concorde BIN]   (default: build/release/bin/concorde)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
concorde=$root/build/release/bin/concorde
if [ "${1:-}" = --concorde ]; then concorde=$2; fi
corpus=$here/corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# --- real inputs -------------------------------------------------------------------------------
"$concorde" trace -o warm.ctrace --skip 2000 --length 300 --warmup 100 \
  --functional-warmup 20000 --regions 2 --interval 5000 -- /bin/echo hi >/dev/null
"$concorde" trace -o cold.ctrace --skip 1000 --length 200 --warmup 50 \
  --functional-warmup 0 -- /bin/true >/dev/null
"$concorde" microbench chain-int-alu --iterations 2 --param warmup=1 -o kernel.ctrace >/dev/null
"$concorde" build-db --out tiny.sqlite --jobs 1 --window 64 warm.ctrace cold.ctrace >/dev/null
cp "$root/data/default.sqlite" model.sqlite
"$concorde" dataset --db model.sqlite --samples 40 --out dataset.sqlite --jobs 1 >/dev/null
for args in "ensemble --members 2" "single --members 1" "monotone --members 1 --monotone" \
  "composed --members 1 --composed 1,1 --group-order-penalty 0.1"; do
  set -- $args
  name=$1
  shift
  "$concorde" train --dataset dataset.sqlite --db model.sqlite --name "$name" --hidden 3 \
    --epochs 2 "$@" >/dev/null 2>&1
done
"$concorde" export-champsim -o cold.champsim cold.ctrace >/dev/null
"$concorde" export-champsim -o kernel.champsim.xz kernel.ctrace >/dev/null
"$concorde" export-champsim -o warm.champsim.gz warm.ctrace >/dev/null

rm -rf "$corpus"
mkdir -p "$corpus"
blob() { # blob DIR NAME DB SQL: the one blob the query selects, as a file
  mkdir -p "$corpus/$1"
  sqlite3 "$3" "SELECT writefile('$corpus/$1/$2', ($4))" >/dev/null
}

python3 - "$corpus" "$work" <<'PY'
import os, shutil, struct, subprocess, sys
corpus, work = sys.argv[1], sys.argv[2]

def put(harness, name, data):
    os.makedirs(os.path.join(corpus, harness), exist_ok=True)
    with open(os.path.join(corpus, harness, name), 'wb') as f:
        f.write(data)

def unzstd(frame):
    return subprocess.run(['zstd', '-dc'], input=frame, capture_output=True, check=True).stdout

# Traces as they are, and as "region table text \0 record count, block count, block bytes".
for name in ['warm', 'cold', 'kernel']:
    data = open(os.path.join(work, name + '.ctrace'), 'rb').read()
    put('fuzz_trace_reader', name + '.ctrace', data)
    offset, size, records, blocks = struct.unpack_from('<QQQQ', data, 16)
    table = unzstd(data[offset:offset + size - 4])
    put('fuzz_trace_reader', name + '.table', table + b'\0' + struct.pack('<QQ', records, blocks)
        + data[64:offset])
for name in ['cold.champsim', 'kernel.champsim.xz', 'warm.champsim.gz']:
    shutil.copy(os.path.join(work, name), os.path.join(corpus, 'fuzz_champsim_import', name)
                if os.path.isdir(os.path.join(corpus, 'fuzz_champsim_import'))
                else (os.makedirs(os.path.join(corpus, 'fuzz_champsim_import')) or
                      os.path.join(corpus, 'fuzz_champsim_import', name)))
PY

# Blobs of the tiny database and of data/default.sqlite.
for id in 1 2 3; do
  blob fuzz_record_blob "region$id.crb" tiny.sqlite \
    "SELECT data FROM region_records WHERE region_id = $id"
  blob fuzz_bbv "region$id.bbv" tiny.sqlite "SELECT bbv FROM regions WHERE id = $id"
done
for id in 1 2; do
  blob fuzz_warm_state "region$id.warm" tiny.sqlite \
    "SELECT warm_state FROM region_records WHERE region_id = $id"
done
blob fuzz_bbv default-largest.bbv "$root/data/default.sqlite" \
  "SELECT bbv FROM regions WHERE length(bbv) < 8000 ORDER BY length(bbv) DESC LIMIT 1"
for name in rob rob_64 lq icache_fills fetch_width mispredicts_pki branches_pki.direct-cond \
            rob.execution; do
  blob fuzz_series_group "$name.csg" tiny.sqlite \
    "SELECT data FROM series WHERE region_id = 1 AND name = '$name'"
done
blob fuzz_series_group window-ipc.csg "$root/data/default.sqlite" \
  "SELECT window_ipc FROM labels ORDER BY id LIMIT 1"
for offset in 0 1; do
  blob fuzz_feature_vector "sample$offset.cfv" dataset.sqlite \
    "SELECT features FROM samples ORDER BY id LIMIT 1 OFFSET $offset"
done
for name in ensemble single monotone composed; do
  blob fuzz_model "$name.mlp" model.sqlite "SELECT weights FROM models WHERE name = '$name'"
done
mkdir -p "$corpus/fuzz_preset"
cp "$root"/resources/presets/*.json "$corpus/fuzz_preset/"

python3 - "$corpus" "$work" <<'PY'
import os, sqlite3, struct, subprocess, sys
corpus, work = sys.argv[1], sys.argv[2]

def put(harness, name, data):
    with open(os.path.join(corpus, harness, name), 'wb') as f:
        f.write(data)

def unzstd(frame):
    return subprocess.run(['zstd', '-dc'], input=frame, capture_output=True, check=True).stdout

def varint(data, at):
    value = shift = 0
    while True:
        byte = data[at]; at += 1
        value |= (byte & 0x7f) << shift; shift += 7
        if byte < 0x80:
            return value, at

# Blobs whose payload is a zstd frame, also as "!" header payload (the harness compresses it).
for harness, header in [('fuzz_record_blob', 24), ('fuzz_series_group', 32)]:
    folder = os.path.join(corpus, harness)
    for name in sorted(os.listdir(folder))[:3]:
        data = open(os.path.join(folder, name), 'rb').read()
        put(harness, name + '.raw', b'!' + data[:header] + unzstd(data[header:]))
# Warm states (encoding 3: one zstd frame) also in encoding 2 (the same body, uncompressed).
folder = os.path.join(corpus, 'fuzz_warm_state')
for name in sorted(os.listdir(folder)):
    data = open(os.path.join(folder, name), 'rb').read()
    version, at = varint(data, 0)
    size, at = varint(data, at)
    body = unzstd(data[at:])
    # Its TAGE snapshot alone is ~100 kB: the small seed keeps the lines and loads of the real
    # state and drops both predictor snapshots (size 0: they start cold).
    at = 0
    _, at = varint(body, at)
    lines, at = varint(body, at)
    for _ in range(lines):
        _, at = varint(body, at)
    loads, at = varint(body, at)
    for _ in range(2 * loads):
        _, at = varint(body, at)
    put('fuzz_warm_state', name + '.v2', b'\x02' + body[:at] + b'\x00\x00')

# The dataset file's meta and rows in the harness's FuzzedDataProvider form: strings escaped
# (a backslash doubled) and ended by "\\n", then the numbers, which it reads from the end.
def field(value):
    return value.replace(b'\\', b'\\\\') + b'\\n'
db = sqlite3.connect(os.path.join(work, 'dataset.sqlite'))
meta = dict(db.execute('SELECT key, value FROM meta'))
for count in (1, 3):
    out = b''.join(field(meta[k].encode()) for k in ('version', 'seed', 'hold_out', 'layout'))
    numbers = b''
    for program, split, config, features, region, instructions, cpi, minimum in db.execute(
            'SELECT program, split, config_json, features, region_index, instructions, cpi, '
            'min_bound_cpi FROM samples ORDER BY id LIMIT ?', (count,)):
        out += field(program.encode()) + field(split.encode()) + field(config.encode())
        out += field(bytes(features))
        numbers = struct.pack('<qq', instructions, region) + numbers
    os.makedirs(os.path.join(corpus, 'fuzz_dataset_file'), exist_ok=True)
    put('fuzz_dataset_file', 'samples%d.fdp' % count, out + numbers)

# Session files as the explorer saves them (SessionFile::toJson) and the short forms it accepts.
os.makedirs(os.path.join(corpus, 'fuzz_session'), exist_ok=True)
presets = os.path.join(os.path.dirname(os.path.dirname(corpus)), '..', 'resources', 'presets')
import json
n1 = json.load(open(os.path.join(presets, 'n1-like.json')))['parameters']
little = json.load(open(os.path.join(presets, 'little.json')))['parameters']
session = {'format': 'concorde-explorer-session', 'version': 1,
           'database': '/usr/share/concorde/default.sqlite', 'program': 'gzip',
           'view': 'view_overview', 'sweep_parameter': 'rob', 'config': n1, 'baseline': little,
           'theme': {'scheme': 'dark', 'projector': False}}
put('fuzz_session', 'full.json', json.dumps(session, indent=2).encode() + b'\n')
put('fuzz_session', 'minimal.json',
    b'{"format": "concorde-explorer-session", "version": 1, "config": {"rob": 256}}\n')
PY
du -sh "$corpus"; find "$corpus" -type f | wc -l
