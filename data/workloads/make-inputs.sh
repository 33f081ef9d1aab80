#!/usr/bin/env bash
# make-inputs.sh DIR — generates every input of the workload set (data/workloads/README.md) into
# DIR, deterministically: all data come from one fixed seed through a pseudo-random generator
# written out here (xorshift64*), so the files are byte-identical on every machine. Nothing is
# downloaded. Needs only perl (in every Debian) plus gzip and xz for the two pre-compressed inputs.
#
# The interpreter programs (python, perl, tcl, lua, awk) are small fixed source files in
# data/workloads/programs/ and are copied into DIR next to their inputs.
#
# Re-running is cheap when DIR is complete: a stamp file records the generator version.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
DIR=$1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GENERATOR_VERSION=1
SEED=20240611

mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
STAMP="$DIR/.inputs-v$GENERATOR_VERSION"
if [ -f "$STAMP" ] && cmp -s "$STAMP" <(cat "$HERE"/programs/* "$0"); then
  exit 0
fi

for tool in perl gzip xz; do
  command -v "$tool" >/dev/null || { echo "make-inputs: '$tool' is needed" >&2; exit 1; }
done

perl - "$DIR" "$SEED" <<'PERL'
use strict;
use warnings;
no warnings "portable";
use integer;   # all generator arithmetic is 64-bit integer arithmetic (wrapping)

my ($dir, $seed) = @ARGV;

# xorshift64* — deterministic, independent of perl's own rand().
my $state = $seed | 1;
sub next64 {
    $state ^= ($state >> 12) & 0x000FFFFFFFFFFFFF;   # logical shifts on a signed integer
    $state ^= $state << 25;
    $state ^= ($state >> 27) & 0x0000001FFFFFFFFF;
    return $state * 2685821657736338717;
}
# uniform integer in [0, n)
sub rnd { my $n = shift; my $x = (next64() >> 11) & 0x001FFFFFFFFFFFFF; return $x % $n; }
sub pick { my $array = shift; return $array->[rnd(scalar @$array)]; }

sub write_file {
    my ($name, $content) = @_;
    open(my $fh, '>:raw', "$dir/$name") or die "$dir/$name: $!";
    print $fh $content;
    close($fh) or die "$dir/$name: $!";
}

# ---- vocabulary: 6000 pseudo-words from syllables, sampled with a Zipf-like distribution ----
my @onsets = qw(b c d f g h j k l m n p r s t v w z br cr dr fr gr pr tr st sp sl ch sh th qu);
my @vowels = qw(a e i o u a e i o ea ai ou io);
my @codas  = ('', '', '', qw(n r s t l m nd st ng ck rt));
my (@words, %seen);
while (@words < 6000) {
    my $syllables = 1 + rnd(3) + (rnd(4) == 0 ? 1 : 0);
    my $w = '';
    $w .= pick(\@onsets) . pick(\@vowels) . pick(\@codas) for 1 .. $syllables;
    next if $seen{$w}++;
    push @words, $w;
}
my @common = qw(the of and to in is that it was for on are as with his they at be this from);
unshift @words, @common;
# cumulative weights 1/(rank+2) scaled to integers
my (@cum, $total);
$total = 0;
for my $r (0 .. $#words) { $total += 1000000 / ($r + 2); push @cum, $total; }
sub zipf_word {
    my $x = rnd($total);
    my ($lo, $hi) = (0, $#cum);
    while ($lo < $hi) { my $mid = ($lo + $hi) >> 1; if ($cum[$mid] > $x) { $hi = $mid } else { $lo = $mid + 1 } }
    return $words[$lo];
}

# ---- text.txt: ~3 MB of pseudo-English paragraphs ----
sub make_text {
    my $bytes = shift;
    my $text = '';
    while (length($text) < $bytes) {
        my $sentences = 2 + rnd(6);
        my @para;
        for (1 .. $sentences) {
            my $n = 4 + rnd(18);
            my @s = map { zipf_word() } 1 .. $n;
            $s[rnd($n)] = rnd(100000) if rnd(8) == 0;
            $s[0] = ucfirst $s[0];
            for my $i (1 .. $n - 2) { $s[$i] .= ',' if rnd(9) == 0 }
            push @para, join(' ', @s) . ('.', '.', '.', '?', '!', ';')[rnd(6)];
        }
        # wrap at ~72 columns
        my ($line, $out) = ('', '');
        for my $w (split / /, join(' ', @para)) {
            if (length($line) + length($w) + 1 > 72) { $out .= "$line\n"; $line = $w }
            else { $line = $line eq '' ? $w : "$line $w" }
        }
        $text .= "$out$line\n\n";
    }
    return $text;
}
my $text = make_text(3_000_000);
write_file('text.txt', $text);

# ---- sales.csv: a table for awk (and part of mixed.bin) ----
my @regions = qw(north south east west central);
my @products = map { $words[100 + $_] } 0 .. 199;
my $csv = "id,date,region,customer,product,quantity,unit_price,discount\n";
for my $id (1 .. 120000) {
    my $date = sprintf('2023-%02d-%02d', 1 + rnd(12), 1 + rnd(28));
    $csv .= join(',', $id, $date, pick(\@regions), 'c' . (1 + rnd(5000)),
                 pick(\@products), 1 + rnd(20), sprintf('%d.%02d', 1 + rnd(500), rnd(100)),
                 rnd(4) == 0 ? '0.' . (5 + rnd(20)) : '0') . "\n";
}
write_file('sales.csv', $csv);

# ---- mixed.bin: text, table, structured binary records and noise (for the compressors) ----
my $mixed = substr($text, 0, 1_200_000) . substr($csv, 0, 1_000_000);
my $v = 1000;
my $records = '';
for (1 .. 50000) {                       # 16-byte records with slowly varying fields
    $v += rnd(7) - 3;
    $records .= pack('V V v v V', $v, rnd(4) == 0 ? rnd(1 << 30) : $v * 3, rnd(16), 7, 0xC0DE0000 + rnd(256));
}
$mixed .= $records;
$mixed .= pack('C*', map { rnd(256) } 1 .. 200_000);   # incompressible part
write_file('mixed.bin', $mixed);

# ---- keys.txt: lines to sort ----
my $keys = '';
for (1 .. 300000) {
    $keys .= sprintf("%s %s %06d %s\n", zipf_word(), pick(\@words), rnd(1000000), zipf_word());
}
write_file('keys.txt', $keys);

# ---- prog.c: a generated C translation unit for cc1 ----
my $c = "/* generated by make-inputs.sh */\n"
      . "typedef unsigned long size_t;\nint printf(const char *, ...);\nvoid *memcpy(void *, const void *, size_t);\n"
      . "struct rec { int key; double weight; long counts[8]; struct rec *next; };\n"
      . "static int table[256];\nstatic double vec[1024];\n\n";
my $nfun = 150;
my @callable;                            # functions of the form int f(int)
for my $f (0 .. $nfun - 1) {
    my $kind = rnd(6);
    push @callable, $f if $kind == 0 || $kind == 2 || $kind == 5;
    my ($k1, $k2, $k3) = (1 + rnd(97), 1 + rnd(31), 2 + rnd(13));
    if ($kind == 0) {
        $c .= "int f$f(int n) {\n  int s = $k1;\n  for (int i = 0; i < n; ++i) {\n"
            . "    s = s * $k2 + table[(i + s) & 255];\n    if (s % $k3 == 0) s ^= i << 3; else s += i;\n  }\n  return s;\n}\n\n";
    } elsif ($kind == 1) {
        $c .= "double f$f(int n) {\n  double acc = 0.0;\n  for (int i = 1; i < n && i < 1024; ++i)\n"
            . "    acc += vec[i] * $k1.0 / (i + $k2) - vec[i - 1] * 0.$k3;\n  return acc;\n}\n\n";
    } elsif ($kind == 2) {
        $c .= "int f$f(int x) {\n  switch (x & 15) {\n";
        $c .= "  case $_: return x * " . (1 + rnd(50)) . " + " . rnd(1000) . ";\n" for 0 .. 11;
        $c .= "  default: return x >> $k3;\n  }\n}\n\n";
    } elsif ($kind == 3) {
        $c .= "long f$f(struct rec *r, int depth) {\n  long total = 0;\n"
            . "  for (; r; r = r->next) {\n    for (int j = 0; j < 8; ++j) total += r->counts[j] * (j + $k1);\n"
            . "    if (r->key > $k2 && depth > 0) total += f$f(r->next, depth - 1);\n"
            . "    r->weight = r->weight * 0.5 + total;\n  }\n  return total;\n}\n\n";
    } elsif ($kind == 4) {
        $c .= "void f$f(int *a, int n) {\n  for (int i = 1; i < n; ++i) {\n    int v = a[i], j = i - 1;\n"
            . "    while (j >= 0 && a[j] > v + $k1) { a[j + 1] = a[j]; --j; }\n    a[j + 1] = v;\n  }\n"
            . "  for (int i = 0; i + $k3 < n; i += $k3) memcpy(a + i, a + i + 1, sizeof(int));\n}\n\n";
    } else {
        my $g = rnd($f + 1);
        $c .= "int f$f(int n) {\n  int a[64];\n  for (int i = 0; i < 64; ++i) a[i] = (i * $k1) ^ n;\n"
            . "  int best = 0;\n  for (int i = 0; i < 64; ++i)\n    for (int j = i + 1; j < 64; j += $k3)\n"
            . "      if (a[i] + a[j] > best && (a[i] ^ a[j]) % $k2) best = a[i] + a[j];\n"
            . "  return best + (n > $k1 ? (int)sizeof(a) : $k2);\n}\n\n";
    }
}
$c .= "int main(void) {\n  long sum = 0;\n";
$c .= "  sum += (long)f$_(" . rnd(100) . ");\n" for @callable;
$c .= "  printf(\"%ld\\n\", sum);\n  return 0;\n}\n";
write_file('prog.c', $c);

# ---- db.sql: schema, bulk inserts, indexes, joins, aggregates ----
my $sql = "PRAGMA journal_mode=OFF;\nPRAGMA synchronous=OFF;\n"
        . "CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT, region TEXT, since INTEGER);\n"
        . "CREATE TABLE product(id INTEGER PRIMARY KEY, name TEXT, price REAL, category INTEGER);\n"
        . "CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INTEGER, product INTEGER, qty INTEGER, day INTEGER);\n"
        . "BEGIN;\n";
$sql .= "INSERT INTO customer VALUES($_,'" . zipf_word() . "_$_','" . pick(\@regions) . "'," . (2000 + rnd(24)) . ");\n"
    for 1 .. 5000;
$sql .= "INSERT INTO product VALUES($_,'" . $words[$_ + 30] . "'," . sprintf('%d.%02d', rnd(500), rnd(100)) . "," . rnd(40) . ");\n"
    for 1 .. 1000;
$sql .= "INSERT INTO orders VALUES($_," . (1 + rnd(5000)) . "," . (1 + rnd(1000)) . "," . (1 + rnd(9)) . "," . rnd(365) . ");\n"
    for 1 .. 60000;
$sql .= "COMMIT;\n" . <<'SQL';
CREATE INDEX orders_customer ON orders(customer);
CREATE INDEX orders_product ON orders(product, day);
CREATE INDEX customer_region ON customer(region);
SELECT c.region, count(*), sum(o.qty * p.price), avg(p.price)
  FROM orders o JOIN customer c ON c.id = o.customer JOIN product p ON p.id = o.product
  GROUP BY c.region ORDER BY 3 DESC;
SELECT p.category, count(DISTINCT o.customer), max(o.qty)
  FROM orders o JOIN product p ON p.id = o.product WHERE o.day BETWEEN 100 AND 200
  GROUP BY p.category HAVING count(*) > 10 ORDER BY p.category;
SELECT c.name, sum(o.qty) AS n FROM customer c JOIN orders o ON o.customer = c.id
  GROUP BY c.id ORDER BY n DESC, c.name LIMIT 20;
SELECT count(*) FROM orders WHERE product IN (SELECT id FROM product WHERE price > 400);
SELECT o.day / 30 AS month, count(*), total(o.qty) FROM orders o GROUP BY month ORDER BY month;
UPDATE product SET price = price * 1.1 WHERE category % 3 = 0;
DELETE FROM orders WHERE qty = 1 AND day % 7 = 0;
SELECT c.since, count(*), avg(t.spent) FROM customer c JOIN
  (SELECT o.customer AS cid, sum(o.qty * p.price) AS spent FROM orders o JOIN product p ON p.id = o.product
   GROUP BY o.customer) t ON t.cid = c.id GROUP BY c.since ORDER BY c.since;
SELECT name FROM customer WHERE name LIKE 'the%' ORDER BY name LIMIT 5;
SQL
write_file('db.sql', $sql);

# ---- music.wav: 6 s of 16-bit stereo 44.1 kHz, harmonic notes with envelopes plus noise ----
my $rate = 44100;
my $frames = 6 * $rate;
my @steps = map { rnd(24) } 1 .. 48;   # 8 notes per second, two octaves from A3
my $pcm = '';
{
    no integer;
    my @notes = map { 220 * 2 ** ($_ / 12) } @steps;
    my $two_pi = 8 * atan2(1, 1);
    for my $n (0 .. $#notes) {
        my $f = $notes[$n];
        my $len = int($frames / @notes);
        for my $t (0 .. $len - 1) {
            my $env = exp(-3.0 * $t / $len);
            my $ph = $two_pi * $f * $t / $rate;
            my $s = $env * (0.5 * sin($ph) + 0.25 * sin(2 * $ph) + 0.12 * sin(3 * $ph));
            my $noise = (rnd(2001) - 1000) / 40000.0;
            my $l = int(12000 * ($s + $noise));
            my $r = int(12000 * (0.8 * $s - $noise));
            $pcm .= pack('s<s<', $l, $r);
        }
    }
}
my $wav = 'RIFF' . pack('V', 36 + length $pcm) . 'WAVE'
        . 'fmt ' . pack('VvvVVvv', 16, 1, 2, $rate, $rate * 4, 4, 16)
        . 'data' . pack('V', length $pcm) . $pcm;
write_file('music.wav', $wav);

# ---- pi.bc: digits of pi and e with bc -l ----
write_file('pi.bc', "scale = 1100\np = 4 * a(1)\nlength(p)\nscale = 600\ne(1)\nquit\n");
PERL

# Pre-compressed inputs for the decompressors (gzip -n and xz give identical bytes every time).
gzip -n -9 -c "$DIR/text.txt" >"$DIR/text.txt.gz"
xz -6 -T1 -c "$DIR/mixed.bin" >"$DIR/mixed.bin.xz"

cp "$HERE"/programs/* "$DIR/"

# The generated files are byte-identical everywhere; inputs.sha256 holds their reference sums
# (the .gz and .xz files also depend on the gzip and xz versions, Debian 12's here).
if command -v sha256sum >/dev/null; then
  if ! (cd "$DIR" && sha256sum --quiet -c "$HERE/inputs.sha256" >/dev/null 2>&1); then
    echo "make-inputs: warning: the generated inputs differ from inputs.sha256 (another perl," \
      "gzip or xz version, or make-inputs.sh was changed without updating the sums; see" \
      "data/workloads/README.md); instruction counts will differ from workloads.tsv" >&2
  fi
fi
cat "$HERE"/programs/* "$0" >"$STAMP"
echo "make-inputs: inputs are in $DIR"
