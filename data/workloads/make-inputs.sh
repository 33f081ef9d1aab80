#!/usr/bin/env bash
# make-inputs.sh DIR — generates every input of the workload set (data/workloads/README.md) into
# DIR, deterministically: all data come from fixed seeds through a pseudo-random generator
# written out here (xorshift64*), so the files are byte-identical on every machine. Nothing is
# downloaded. Needs only perl (in every Debian) plus gzip and xz for the two pre-compressed inputs.
# water.tpr (the gromacs workload) is made by GROMACS's own gmx grompp, when GROMACS is installed.
#
# The small programs (python, perl, tcl, lua, awk, php, ruby, luajit, node, jq, XSLT and XML
# Schema, POV-Ray, LAMMPS, MathProg, SPICE, C++, Prolog and R sources, a HoiChess command file)
# are fixed text files in data/workloads/programs/ and are copied into DIR next to their inputs.
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
# water.tpr (gromacs) needs GROMACS itself: make the inputs again once it is installed.
if [ -f "$STAMP" ] && [ ! -f "$DIR/water.tpr" ] && command -v gmx >/dev/null; then
  rm -f "$STAMP"
fi
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

# ==== inputs added for the wider suite (issue 17). A second seed, so that every file above keeps
# its bytes; the generator and vocabulary are the same. ====
$state = 20261125 | 1;

# ---- image.ppm: 512x384 RGB: gradients, discs, stripes and a little noise ----
{
    my ($w, $h) = (512, 384);
    my @discs = map { [rnd($w), rnd($h), 20 + rnd(90), rnd(256), rnd(256), rnd(256)] } 1 .. 8;
    my $img = "P6\n$w $h\n255\n";
    for my $y (0 .. $h - 1) {
        my $row = '';
        for my $x (0 .. $w - 1) {
            my ($r, $g, $b) = (($x * 255) / $w, ($y * 255) / $h, (($x + $y) * 7) & 255);
            for my $d (@discs) {
                my ($dx, $dy) = ($x - $d->[0], $y - $d->[1]);
                if ($dx * $dx + $dy * $dy < $d->[2] * $d->[2]) { ($r, $g, $b) = @$d[3, 4, 5]; last }
            }
            $g = 255 - $g if (($x >> 5) + ($y >> 5)) % 5 == 0;
            my $n = rnd(16) - 8;
            $row .= pack('C3', map { my $v = $_ + $n; $v < 0 ? 0 : $v > 255 ? 255 : $v } $r, $g, $b);
        }
        $img .= $row;
    }
    write_file('image.ppm', $img);
}

# ---- video.y4m: 48 frames of 352x288 4:2:0, a camera panning over a texture, moving blocks ----
{
    my ($w, $h, $frames) = (352, 288, 48);
    my ($tw, $th) = ($w + 2 * $frames + 16, $h + $frames + 16);
    my $tex = '';
    for my $y (0 .. $th - 1) {
        my $row = '';
        my $base = 60 + (($y * 3) % 120);
        for my $x (0 .. $tw - 1) {
            $row .= chr(($base + (($x * $y) >> 6) % 64 + rnd(12)) & 255);
        }
        $tex .= $row;
    }
    my $video = "YUV4MPEG2 W$w H$h F25:1 Ip A1:1 C420jpeg\n";
    my ($cw, $ch) = ($w / 2, $h / 2);
    for my $f (0 .. $frames - 1) {
        my $luma = '';
        for my $y (0 .. $h - 1) { $luma .= substr($tex, ($y + $f) * $tw + 2 * $f, $w) }
        for my $k (0 .. 2) {   # three bright blocks moving across
            my ($bx, $by) = ((40 + 6 * $f + 90 * $k) % ($w - 32), 40 + 70 * $k);
            substr($luma, ($by + $_) * $w + $bx, 32) = chr(200 + 15 * $k) x 32 for 0 .. 31;
        }
        my $u = chr(128 + $f % 8) x ($cw * $ch);
        my $v = '';
        $v .= chr(100 + (($_ + $f) % 50)) x $cw for 0 .. $ch - 1;
        $video .= "FRAME\n" . $luma . $u . $v;
    }
    write_file('video.y4m', $video);
}

# ---- graph.dot: a layered call-graph-like digraph with clusters ----
{
    my $dot = "digraph G {\n  rankdir=TB;\n  node [shape=box];\n";
    my $n = 500;
    for my $c (0 .. 5) {
        $dot .= "  subgraph cluster_$c {\n    label=\"" . $words[100 + $c] . "\";\n";
        $dot .= "    n$_ [label=\"" . zipf_word() . "_$_\"];\n" for grep { $_ % 6 == $c } 0 .. $n - 1;
        $dot .= "  }\n";
    }
    for my $i (1 .. $n - 1) {
        $dot .= "  n" . rnd($i) . " -> n$i;\n";
        $dot .= "  n" . rnd($i) . " -> n$i [style=dashed];\n" if rnd(3) == 0;
    }
    $dot .= "}\n";
    write_file('graph.dot', $dot);
}

# ---- catalog.xml: 12 000 book records (for xsltproc and xmllint) ----
{
    my $xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<catalog>\n";
    for my $id (1 .. 12000) {
        my $title = join(' ', map { zipf_word() } 1 .. 2 + rnd(4));
        my $abstract = join(' ', map { zipf_word() } 1 .. 10 + rnd(30));
        $xml .= "  <book id=\"b$id\" lang=\"" . ('en', 'fr', 'de', 'es')[rnd(4)] . "\">\n"
              . "    <title>$title</title>\n    <author>" . ucfirst($words[30 + rnd(800)]) . ' ' . ucfirst($words[30 + rnd(3000)]) . "</author>\n"
              . "    <genre>" . $words[40 + rnd(12)] . "</genre>\n    <year>" . (1950 + rnd(75)) . "</year>\n"
              . "    <price>" . sprintf('%d.%02d', 3 + rnd(90), rnd(100)) . "</price>\n    <tags>"
              . join('', map { '<tag>' . zipf_word() . '</tag>' } 1 .. 1 + rnd(4)) . "</tags>\n"
              . "    <abstract>$abstract</abstract>\n  </book>\n";
    }
    $xml .= "</catalog>\n";
    write_file('catalog.xml', $xml);
}

# ---- events.json: 12 000 JSON event records (for jq) ----
{
    my @kinds = qw(click view purchase login logout search share);
    my $json = "[\n";
    for my $id (1 .. 12000) {
        $json .= sprintf('{"id":%d,"user":"u%d","kind":"%s","ts":%d,"value":%d.%02d,"tags":["%s","%s"],"geo":{"region":"%s","zone":%d}}',
            $id, rnd(3000), pick(\@kinds), 1700000000 + rnd(10000000), rnd(1000), rnd(100),
            zipf_word(), zipf_word(), pick(\@regions), rnd(40));
        $json .= $id < 12000 ? ",\n" : "\n";
    }
    $json .= "]\n";
    write_file('events.json', $json);
}

# ---- sequences: DNA reference (bwa), a protein family (clustalo, muscle, phmmer), a protein db ----
{
    my @bases = qw(A C G T);
    my $dna = '';
    my @repeats = map { join('', map { $bases[rnd(4)] } 1 .. 300 + rnd(700)) } 1 .. 20;
    while (length($dna) < 1_000_000) {
        if (rnd(10) == 0) { my $r = pick(\@repeats); substr($r, rnd(length $r), 1) = $bases[rnd(4)]; $dna .= $r }
        else { $dna .= join('', map { $bases[rnd(4)] } 1 .. 500) }
    }
    my $fa = ">chrZ generated\n";
    $fa .= substr($dna, $_ * 70, 70) . "\n" for 0 .. int((length($dna) - 1) / 70);
    write_file('ref.fa', $fa);

    my @aa = split //, 'ACDEFGHIKLMNPQRSTVWYLLAAGGSSEEKVVIT';   # rough natural frequencies
    my $ancestor = join('', map { $aa[rnd(scalar @aa)] } 1 .. 320);
    my $mutate = sub {
        my ($s, $pct) = @_;
        my $out = '';
        for my $c (split //, $s) {
            my $x = rnd(100);
            if ($x < $pct) { $out .= $aa[rnd(scalar @aa)] }
            elsif ($x < $pct + 2) { }                                    # deletion
            elsif ($x < $pct + 4) { $out .= $c . $aa[rnd(scalar @aa)] }  # insertion
            else { $out .= $c }
        }
        return $out;
    };
    my @family;
    for my $clade (0 .. 7) {
        my $c = $mutate->($ancestor, 25);
        push @family, $mutate->($c, 12) for 1 .. 8;
    }
    my $fam = '';
    for my $i (grep { $_ % 8 < 5 } 0 .. $#family) {   # 5 of each clade's 8 go to clustalo
        $fam .= ">seq$i\n";
        $fam .= substr($family[$i], $_ * 60, 60) . "\n" for 0 .. int((length($family[$i]) - 1) / 60);
    }
    write_file('family.fa', $fam);
    write_file('query.fa', ">query\n" . $mutate->($ancestor, 10) . "\n");
    my $db = '';
    for my $i (1 .. 8000) {
        my $s = rnd(150) == 0 ? $mutate->(pick(\@family), 20) : join('', map { $aa[rnd(scalar @aa)] } 1 .. 80 + rnd(400));
        $db .= ">p$i\n$s\n";
    }
    write_file('proteins.fa', $db);
}

# ---- packets.pcap: 15 000 Ethernet/IPv4 packets: DNS over UDP, HTTP and bulk over TCP ----
{
    my $pcap = pack('VvvVVVV', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1);
    my $ipsum = sub {
        my $hdr = shift;
        my $sum = 0;
        $sum += $_ for unpack('n*', $hdr);
        $sum = ($sum & 0xffff) + ($sum >> 16) while $sum >> 16;
        return ~$sum & 0xffff;
    };
    my ($sec, $usec) = (1700000000, 0);
    for my $i (1 .. 15000) {
        my ($src, $dst) = (0x0a000000 + rnd(200), 0xc0a80000 + rnd(60000));
        my ($proto, $l4);
        my $kind = rnd(3);
        if ($kind == 0) {   # DNS query
            my $q = '';
            $q .= chr(length $_) . $_ for (zipf_word(), $words[30 + rnd(500)], 'example');
            $q .= "\0" . pack('nn', (1, 28, 15)[rnd(3)], 1);
            my $dns = pack('nnnnnn', rnd(65536), 0x0100, 1, 0, 0, 0) . $q;
            $l4 = pack('nnnn', 1024 + rnd(60000), 53, 8 + length $dns, 0) . $dns;
            $proto = 17;
        } else {
            my $payload = $kind == 1
                ? "GET /" . zipf_word() . "/" . zipf_word() . ".html HTTP/1.1\r\nHost: " . zipf_word() . ".test\r\nUser-Agent: gen\r\n\r\n"
                : join('', map { chr(rnd(256)) } 1 .. rnd(200));
            my $flags = (0x18, 0x10, 0x02, 0x11)[rnd(4)];
            $l4 = pack('nnNNnnnn', 1024 + rnd(60000), $kind == 1 ? 80 : 443, rnd(1 << 30), rnd(1 << 30),
                       (5 << 12) | $flags, 64240, 0, 0) . $payload;
            $proto = 6;
        }
        my $ip = pack('CCnnnCCnNN', 0x45, 0, 20 + length $l4, $i & 0xffff, 0x4000, 64, $proto, 0, $src, $dst);
        substr($ip, 10, 2) = pack('n', $ipsum->($ip));
        my $frame = pack('H12H12n', '020000000001', '020000000002', 0x0800) . $ip . $l4;
        $usec += 1 + rnd(3000);
        if ($usec >= 1000000) { $sec++; $usec -= 1000000 }
        $pcap .= pack('VVVV', $sec, $usec, length $frame, length $frame) . $frame;
    }
    write_file('packets.pcap', $pcap);
}

# ---- kv.dump: 40 000 key/value pairs in mdb_dump's text format (for mdb_load) ----
{
    my $dump = "VERSION=3\nformat=bytevalue\ntype=btree\nmapsize=536870912\nmaxreaders=126\nHEADER=END\n";
    for my $i (1 .. 40000) {
        my $key = sprintf('%s:%08d', zipf_word(), rnd(100000000));
        my $value = join(' ', map { zipf_word() } 1 .. 3 + rnd(20));
        $dump .= ' ' . unpack('H*', $key) . "\n " . unpack('H*', $value) . "\n";
    }
    $dump .= "DATA=END\n";
    write_file('kv.dump', $dump);
}

# ---- drawing.svg: 1 500 shapes with gradients, transparency, strokes and a blur filter (for rsvg-convert) ----
{
    my $svg = "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1000\" height=\"750\" viewBox=\"0 0 1000 750\">\n<defs>\n";
    for my $g (0 .. 11) {
        $svg .= sprintf("<radialGradient id=\"g%d\"><stop offset=\"0\" stop-color=\"#%06x\"/><stop offset=\"1\" stop-color=\"#%06x\" stop-opacity=\"0.3\"/></radialGradient>\n",
                        $g, rnd(1 << 24), rnd(1 << 24));
    }
    $svg .= "<filter id=\"soft\"><feGaussianBlur stdDeviation=\"2\"/></filter>\n</defs>\n<rect width=\"1000\" height=\"750\" fill=\"#f4f0e8\"/>\n";
    for my $i (1 .. 1500) {
        my ($x, $y) = (rnd(1000), rnd(750));
        my $kind = rnd(4);
        my $style = sprintf('fill="url(#g%d)" stroke="#%06x" stroke-width="%d" opacity="0.%d"', rnd(12), rnd(1 << 24), 1 + rnd(3), 3 + rnd(7));
        if ($kind == 0) {
            $svg .= sprintf("<circle cx=\"%d\" cy=\"%d\" r=\"%d\" %s/>\n", $x, $y, 3 + rnd(40), $style);
        } elsif ($kind == 1) {
            $svg .= sprintf("<path d=\"M%d %d C%d %d %d %d %d %dZ\" %s/>\n", $x, $y, $x + rnd(120) - 60, $y + rnd(120) - 60,
                            $x + rnd(120) - 60, $y + rnd(120) - 60, $x + rnd(80) - 40, $y + rnd(80) - 40, $style);
        } elsif ($kind == 2) {
            $svg .= sprintf("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"%d\" transform=\"rotate(%d %d %d)\" %s/>\n",
                            $x, $y, 5 + rnd(60), 5 + rnd(60), rnd(10), rnd(360), $x, $y, $style);
        } else {
            $svg .= sprintf("<ellipse cx=\"%d\" cy=\"%d\" rx=\"%d\" ry=\"%d\" %s/>\n", $x, $y, 4 + rnd(50), 4 + rnd(30), $style);
        }
        $svg .= sprintf("<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"#%06x\" filter=\"url(#soft)\"/>\n", $x, $y, 10 + rnd(30), rnd(1 << 24)) if rnd(50) == 0;
    }
    $svg .= "</svg>\n";
    write_file('drawing.svg', $svg);
}

# ---- beam.inp: a CalculiX deck, a steel cantilever of 40x6x6 hexahedra (ccx): static bending, then modes ----
{
    no integer;
    my ($nx, $ny, $nz) = (40, 6, 6);
    my ($lx, $ly, $lz) = (200.0, 20.0, 20.0);   # mm
    my $node = sub { my ($i, $j, $k) = @_; return 1 + $i + ($nx + 1) * ($j + ($ny + 1) * $k); };
    my $deck = "*HEADING\nSteel cantilever, 8-node bricks\n*NODE, NSET=NALL\n";
    for my $k (0 .. $nz) {
        for my $j (0 .. $ny) {
            for my $i (0 .. $nx) {
                $deck .= sprintf("%d, %.6f, %.6f, %.6f\n", $node->($i, $j, $k), $lx * $i / $nx, $ly * $j / $ny, $lz * $k / $nz);
            }
        }
    }
    $deck .= "*ELEMENT, TYPE=C3D8, ELSET=EALL\n";
    my $element = 0;
    for my $k (0 .. $nz - 1) {
        for my $j (0 .. $ny - 1) {
            for my $i (0 .. $nx - 1) {
                $deck .= join(', ', ++$element,
                              $node->($i, $j, $k), $node->($i + 1, $j, $k), $node->($i + 1, $j + 1, $k), $node->($i, $j + 1, $k),
                              $node->($i, $j, $k + 1), $node->($i + 1, $j, $k + 1), $node->($i + 1, $j + 1, $k + 1),
                              $node->($i, $j + 1, $k + 1)) . "\n";
            }
        }
    }
    my ($fixed, $tip, $load) = ('', '', '');
    for my $k (0 .. $nz) {
        for my $j (0 .. $ny) {
            $fixed .= $node->(0, $j, $k) . ",\n";
            $tip .= $node->($nx, $j, $k) . ",\n";
            $load .= $node->($nx, $j, $k) . ", 2, -1.\n";
        }
    }
    $deck .= "*NSET, NSET=FIX\n$fixed*NSET, NSET=TIP\n$tip"
           . "*MATERIAL, NAME=STEEL\n*ELASTIC\n210000., 0.3\n*DENSITY\n7.85E-9\n"
           . "*SOLID SECTION, ELSET=EALL, MATERIAL=STEEL\n"
           . "*STEP\n*STATIC\n*BOUNDARY\nFIX, 1, 3\n*CLOAD\n$load*NODE PRINT, NSET=TIP\nU\n*END STEP\n"
           . "*STEP\n*FREQUENCY\n6\n*BOUNDARY\nFIX, 1, 3\n*END STEP\n";
    write_file('beam.inp', $deck);
}

# ---- water.gro, water.top: 1000 SPC water molecules on a lattice in a 3.1 nm box (GROMACS) ----
{
    no integer;
    my ($n, $spacing) = (10, 0.3106);   # nm: about 1 g/cm3
    my $pi = 4 * atan2(1, 1);
    my $half_angle = 109.47 / 2 * $pi / 180;   # SPC's H-O-H angle, O-H 0.1 nm
    my ($across, $up) = (0.1 * sin($half_angle), 0.1 * cos($half_angle));
    my @atoms;
    for my $k (0 .. $n - 1) {
        for my $j (0 .. $n - 1) {
            for my $i (0 .. $n - 1) {
                my ($x, $y, $z) = (($i + 0.5) * $spacing, ($j + 0.5) * $spacing, ($k + 0.5) * $spacing);
                my $phi = (($i * 7 + $j * 13 + $k * 29) % 24) * $pi / 12;   # 24 orientations about y
                my ($c, $s) = (cos($phi), sin($phi));
                push @atoms, ['OW', $x, $y, $z], ['HW1', $x + $c * $across, $y + $up, $z + $s * $across],
                             ['HW2', $x - $c * $across, $y + $up, $z - $s * $across];
            }
        }
    }
    my $gro = "SPC water box\n" . scalar(@atoms) . "\n";
    for my $a (0 .. $#atoms) {
        my ($name, $x, $y, $z) = @{ $atoms[$a] };
        $gro .= sprintf("%5d%-5s%5s%5d%8.3f%8.3f%8.3f\n", int($a / 3) + 1, 'SOL', $name, $a + 1, $x, $y, $z);
    }
    $gro .= sprintf("%10.5f%10.5f%10.5f\n", ($n * $spacing) x 3);
    write_file('water.gro', $gro);
    write_file('water.top', "#include \"oplsaa.ff/forcefield.itp\"\n#include \"oplsaa.ff/spc.itp\"\n\n"
                            . "[ system ]\nSPC water box\n\n[ molecules ]\nSOL " . $n ** 3 . "\n");
}

# ==== inputs added for more kinds of program (SAT and SMT solving, protocol dissection, document
# conversion, typesetting). A third seed, so that every file above keeps its bytes. ====
$state = 20261130 | 1;

# ---- sat.cnf: random 3-SAT at the satisfiability threshold, 550 variables (cadical) ----
{
    my ($vars, $clauses) = (550, 2343);   # 4.26 clauses per variable: the hardest ratio
    my $cnf = "c random 3-SAT, generated by make-inputs.sh\np cnf $vars $clauses\n";
    for (1 .. $clauses) {
        my (%used, @literals);
        while (@literals < 3) {
            my $v = 1 + rnd($vars);
            next if $used{$v}++;
            push @literals, rnd(2) ? $v : -$v;
        }
        $cnf .= "@literals 0\n";
    }
    write_file('sat.cnf', $cnf);
}

# ---- sched.smt2: job-shop scheduling in QF_LIA, 10 jobs on 8 machines, bounded makespan and
# weighted completion time (z3) ----
{
    my ($jobs, $machines) = (10, 8);
    my ($makespan, $cost) = (170, 4000);   # satisfiable, both bounds binding (the least makespan is 160)
    my $smt = "(set-logic QF_LIA)\n(declare-fun makespan () Int)\n(declare-fun cost () Int)\n";
    my (@route, @ends, @weights);
    for my $j (0 .. $jobs - 1) {
        my @order = (0 .. $machines - 1);
        for my $i (reverse 1 .. $#order) { my $k = rnd($i + 1); @order[$i, $k] = @order[$k, $i] }
        for my $o (0 .. $machines - 1) {
            my $duration = 1 + rnd(20);
            $route[$j][$o] = [$order[$o], $duration];
            $smt .= "(declare-fun s_${j}_$o () Int)\n(assert (>= s_${j}_$o 0))\n";
            $smt .= "(assert (>= s_${j}_$o (+ s_${j}_" . ($o - 1) . " $route[$j][$o - 1][1])))\n" if $o > 0;
        }
        my $end = "(+ s_${j}_" . ($machines - 1) . " $route[$j][$machines - 1][1])";
        $smt .= "(assert (<= $end makespan))\n";
        push @ends, $end;
        push @weights, 1 + rnd(5);
    }
    for my $m (0 .. $machines - 1) {   # two operations on one machine do not overlap
        my @on;
        for my $j (0 .. $jobs - 1) {
            for my $o (0 .. $machines - 1) { push @on, [$j, $o, $route[$j][$o][1]] if $route[$j][$o][0] == $m }
        }
        for my $a (0 .. $#on) {
            for my $b ($a + 1 .. $#on) {
                my ($x, $y) = ("s_$on[$a][0]_$on[$a][1]", "s_$on[$b][0]_$on[$b][1]");
                $smt .= "(assert (or (>= $y (+ $x $on[$a][2])) (>= $x (+ $y $on[$b][2]))))\n";
            }
        }
    }
    $smt .= "(assert (= cost (+ " . join(' ', map { "(* $weights[$_] $ends[$_])" } 0 .. $jobs - 1) . ")))\n"
          . "(assert (<= makespan $makespan))\n(assert (<= cost $cost))\n(check-sat)\n(get-value (makespan cost))\n";
    write_file('sched.smt2', $smt);
}

# ---- flows.pcap: whole conversations: HTTP over TCP (handshakes, segmented responses, keep-alive,
# teardown), DNS queries and answers, NTP, ICMP echo, ARP and syslog (tshark) ----
{
    my $pcap = pack('VvvVVVV', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1);
    my ($sec, $usec) = (1700100000, 0);
    my $checksum = sub {   # the Internet checksum
        my $data = shift;
        $data .= "\0" if length($data) % 2;
        my $sum = 0;
        $sum += $_ for unpack('n*', $data);
        $sum = ($sum & 0xffff) + ($sum >> 16) while $sum >> 16;
        return ~$sum & 0xffff;
    };
    my $mac = sub { return pack('nN', 0x0200, shift) };   # locally administered addresses
    my $emit = sub {
        my $frame = shift;
        $usec += 20 + rnd(3000);
        if ($usec >= 1000000) { $sec++; $usec -= 1000000 }
        $pcap .= pack('VVVV', $sec, $usec, length $frame, length $frame) . $frame;
    };
    my $ipv4 = sub {   # Ethernet and IPv4 around a layer-4 message, every checksum filled in
        my ($src, $dst, $proto, $l4) = @_;
        my $pseudo = pack('NNCCn', $src, $dst, 0, $proto, length $l4);
        if ($proto == 6) { substr($l4, 16, 2) = pack('n', $checksum->($pseudo . $l4)) }
        elsif ($proto == 17) { substr($l4, 6, 2) = pack('n', $checksum->($pseudo . $l4) || 0xffff) }
        elsif ($proto == 1) { substr($l4, 2, 2) = pack('n', $checksum->($l4)) }
        my $ip = pack('CCnnnCCnNN', 0x45, 0, 20 + length $l4, rnd(65536), 0x4000, 64, $proto, 0, $src, $dst);
        substr($ip, 10, 2) = pack('n', $checksum->($ip));
        $emit->($mac->($dst & 0xffff) . $mac->($src & 0xffff) . pack('n', 0x0800) . $ip . $l4);
    };
    my $tcp = sub {
        my ($sport, $dport, $seq, $ack, $flags, $payload, $options) = @_;
        $options = '' unless defined $options;
        return pack('nnNNnnnn', $sport, $dport, $seq & 0xffffffff, $ack & 0xffffffff,
                    ((20 + length $options) / 4) << 12 | $flags, 64240, 0, 0) . $options . $payload;
    };
    my $udp = sub { my ($sport, $dport, $payload) = @_; return pack('nnnn', $sport, $dport, 8 + length $payload, 0) . $payload };
    my $name = sub { my $n = ''; $n .= chr(length $_) . $_ for split /\./, shift; return "$n\0" };
    my @clients = map { 0x0a000000 + 256 * (1 + rnd(4)) + 2 + rnd(250) } 1 .. 60;
    my @servers = map { 0xc0a80000 + 256 * rnd(16) + 1 + rnd(250) } 1 .. 25;
    my @hosts = map { zipf_word() . '.' . $words[30 + rnd(400)] . '.test' } 1 .. 40;
    my ($resolver, $timeserver) = (0x0a000035, 0x0a00007b);
    my $html = sub {
        my $body = "<!DOCTYPE html>\n<html><head><title>" . zipf_word() . "</title></head><body>\n";
        for (1 .. 2 + rnd(12)) {
            $body .= "<p class=\"" . zipf_word() . "\">" . join(' ', map { zipf_word() } 1 .. 20 + rnd(60)) . "</p>\n";
            $body .= "<a href=\"/" . zipf_word() . "/" . zipf_word() . ".html\">" . zipf_word() . "</a>\n" if rnd(2);
        }
        return "$body</body></html>\n";
    };
    my $http = sub {
        my ($client, $server) = @_;
        my ($port, $cseq, $sseq) = (1024 + rnd(60000), rnd(1 << 31), rnd(1 << 31));
        my $syn_options = pack('CCn', 2, 4, 1460) . pack('CCCC', 1, 1, 4, 2);   # MSS, NOP, NOP, SACK permitted
        $ipv4->($client, $server, 6, $tcp->($port, 80, $cseq, 0, 0x002, '', $syn_options));
        $ipv4->($server, $client, 6, $tcp->(80, $port, $sseq, $cseq + 1, 0x012, '', $syn_options));
        ($cseq, $sseq) = ($cseq + 1, $sseq + 1);
        $ipv4->($client, $server, 6, $tcp->($port, 80, $cseq, $sseq, 0x010, ''));
        my $host = $hosts[rnd(scalar @hosts)];
        for (1 .. 1 + rnd(3)) {   # keep-alive: several requests on one connection
            my $path = '/' . zipf_word() . '/' . zipf_word() . (rnd(3) ? '.html' : '?q=' . zipf_word() . '&n=' . rnd(1000));
            my $post = rnd(6) == 0;
            my $form = $post ? '{"user":"' . zipf_word() . '","items":[' . join(',', map { rnd(1000) } 1 .. 1 + rnd(8)) . ']}' : '';
            my $request = ($post ? 'POST' : 'GET') . " $path HTTP/1.1\r\nHost: $host\r\nUser-Agent: gen/1.0\r\n"
                        . "Accept: text/html,application/json;q=0.9\r\nAccept-Encoding: identity\r\nCookie: session=" . rnd(1 << 30) . "\r\n"
                        . ($post ? "Content-Type: application/json\r\nContent-Length: " . length($form) . "\r\n" : '') . "\r\n" . $form;
            $ipv4->($client, $server, 6, $tcp->($port, 80, $cseq, $sseq, 0x018, $request));
            $cseq += length $request;
            my $found = rnd(8) != 0;
            my $body = $found ? $html->() : "<html><body>not found</body></html>\n";
            my $response = ($found ? "HTTP/1.1 200 OK\r\n" : "HTTP/1.1 404 Not Found\r\n")
                         . "Server: gen/1.0\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: " . length($body)
                         . "\r\nCache-Control: max-age=" . rnd(86400) . "\r\nConnection: keep-alive\r\n\r\n" . $body;
            for (my ($at, $k) = (0, 0); $at < length $response; $at += 1460, $k++) {
                my $segment = substr($response, $at, 1460);
                $ipv4->($server, $client, 6, $tcp->(80, $port, $sseq, $cseq, $at + 1460 >= length($response) ? 0x018 : 0x010, $segment));
                $sseq += length $segment;
                $ipv4->($client, $server, 6, $tcp->($port, 80, $cseq, $sseq, 0x010, '')) if $k % 2 == 1;
            }
            $ipv4->($client, $server, 6, $tcp->($port, 80, $cseq, $sseq, 0x010, ''));
        }
        $ipv4->($client, $server, 6, $tcp->($port, 80, $cseq, $sseq, 0x011, ''));
        $ipv4->($server, $client, 6, $tcp->(80, $port, $sseq, $cseq + 1, 0x011, ''));
        $ipv4->($client, $server, 6, $tcp->($port, 80, $cseq + 1, $sseq + 1, 0x010, ''));
    };
    my $dns = sub {
        my $client = shift;
        my ($id, $port, $host) = (rnd(65536), 1024 + rnd(60000), rnd(4) ? $hosts[rnd(scalar @hosts)] : zipf_word() . '.example');
        my $type = (1, 1, 28, 15)[rnd(4)];
        my $question = $name->($host) . pack('nn', $type, 1);
        $ipv4->($client, $resolver, 17, $udp->($port, 53, pack('nnnnnn', $id, 0x0100, 1, 0, 0, 0) . $question));
        my @answers;
        unless ($host =~ /\.example$/) {   # names under .example do not exist
            push @answers, pack('nnnNn', 0xc00c, 5, 1, 300, length($name->("cdn.$host"))) . $name->("cdn.$host") if rnd(3) == 0;
            for (1 .. 1 + rnd(3)) {
                my $rdata = $type == 1 ? pack('N', 0xc6336400 + rnd(256))
                          : $type == 28 ? pack('nnnnnnnn', 0x2001, 0xdb8, rnd(65536), 0, 0, 0, 0, 1 + rnd(65535))
                          : pack('n', 10 * (1 + rnd(5))) . $name->("mx" . rnd(10) . ".$host");
                push @answers, pack('nnnNn', 0xc00c, $type, 1, 60 + rnd(3600), length $rdata) . $rdata;
            }
        }
        my $flags = @answers ? 0x8180 : 0x8183;   # an answer, or no such name
        $ipv4->($resolver, $client, 17, $udp->(53, $port, pack('nnnnnn', $id, $flags, 1, scalar @answers, 0, 0) . $question . join('', @answers)));
    };
    my $ntp = sub {
        my $client = shift;
        my $port = 1024 + rnd(60000);
        my $stamp = sub { return pack('NN', 3909000000 + rnd(1000000), rnd(1 << 31)) };
        $ipv4->($client, $timeserver, 17, $udp->($port, 123, pack('CCCC', 0x23, 0, 6, 0xec) . pack('NNN', 0, 0, 0) . ("\0" x 24) . $stamp->()));
        $ipv4->($timeserver, $client, 17, $udp->(123, $port, pack('CCCC', 0x24, 2, 6, 0xe9) . pack('NN', rnd(4096), rnd(8192))
                                                   . pack('N', 0xc0a80001) . join('', map { $stamp->() } 1 .. 4)));
    };
    my $ping = sub {
        my ($client, $server) = @_;
        my ($id, $payload) = (rnd(65536), join('', map { chr(0x10 + $_) } 0 .. 47));
        for my $seq (1 .. 1 + rnd(4)) {
            $ipv4->($client, $server, 1, pack('CCnnn', 8, 0, 0, $id, $seq) . pack('NN', $sec, $usec) . $payload);
            $ipv4->($server, $client, 1, pack('CCnnn', 0, 0, 0, $id, $seq) . pack('NN', $sec, $usec) . $payload);
        }
    };
    my $arp = sub {
        my ($asker, $target) = @_;
        $emit->(pack('H12', 'ffffffffffff') . $mac->($asker & 0xffff) . pack('nnnCCn', 0x0806, 1, 0x0800, 6, 4, 1)
                . $mac->($asker & 0xffff) . pack('N', $asker) . ("\0" x 6) . pack('N', $target) . ("\0" x 18));
        $emit->($mac->($asker & 0xffff) . $mac->($target & 0xffff) . pack('nnnCCn', 0x0806, 1, 0x0800, 6, 4, 2)
                . $mac->($target & 0xffff) . pack('N', $target) . $mac->($asker & 0xffff) . pack('N', $asker) . ("\0" x 18));
    };
    my $syslog = sub {
        my $client = shift;
        my $message = '<' . (8 * (1 + rnd(23)) + rnd(8)) . '>Nov ' . (10 + rnd(20)) . sprintf(' %02d:%02d:%02d ', rnd(24), rnd(60), rnd(60))
                    . zipf_word() . ' ' . zipf_word() . '[' . rnd(30000) . ']: ' . join(' ', map { zipf_word() } 1 .. 4 + rnd(16));
        $ipv4->($client, 0x0a000002, 17, $udp->(514, 514, $message));
    };
    for (1 .. 1300) {
        my $client = $clients[rnd(scalar @clients)];
        my $kind = rnd(20);
        if ($kind < 7) { $http->($client, $servers[rnd(scalar @servers)]) }
        elsif ($kind < 14) { $dns->($client) }
        elsif ($kind < 16) { $ntp->($client) }
        elsif ($kind < 18) { $ping->($client, $servers[rnd(scalar @servers)]) }
        elsif ($kind < 19) { $arp->($client, $servers[rnd(scalar @servers)]) }
        else { $syslog->($client) }
    }
    write_file('flows.pcap', $pcap);
}

# ---- doc.md: a Markdown document with headings, inline markup, lists, tables, code blocks,
# block quotes and footnotes (pandoc) ----
{
    my $notes = 0;
    my $sentence = sub {
        my @s = map { zipf_word() } 1 .. 5 + rnd(16);
        for my $w (@s) {
            my $r = rnd(40);
            if ($r == 0) { $w = "*$w*" }
            elsif ($r == 1) { $w = "**$w**" }
            elsif ($r == 2) { $w = "`$w()`" }
            elsif ($r == 3) { $w = "[$w](https://" . zipf_word() . ".example/" . zipf_word() . ")" }
            elsif ($r == 4 && $notes < 400) { $w .= '[^n' . ++$notes . ']' }
        }
        $s[0] = ucfirst $s[0];
        return join(' ', @s) . ('.', '.', '.', '?', '!')[rnd(5)];
    };
    my $paragraph = sub { return join(' ', map { $sentence->() } 1 .. 2 + rnd(6)) . "\n\n" };
    my $md = "---\ntitle: The " . ucfirst(zipf_word()) . " Handbook\nauthor: make-inputs.sh\nlang: en\n---\n\n";
    for my $chapter (1 .. 30) {
        $md .= "# " . ucfirst(zipf_word()) . ' ' . zipf_word() . "\n\n" . $paragraph->();
        for my $section (1 .. 2 + rnd(3)) {
            $md .= "## " . ucfirst(zipf_word()) . ' and ' . zipf_word() . "\n\n" . $paragraph->();
            my $block = rnd(6);
            if ($block == 0) {
                for (1 .. 3 + rnd(5)) {
                    $md .= "- " . $sentence->() . "\n";
                    $md .= "    1. " . $sentence->() . "\n    2. " . $sentence->() . "\n" if rnd(3) == 0;
                }
                $md .= "\n";
            } elsif ($block == 1) {
                $md .= "| " . join(' | ', map { ucfirst zipf_word() } 1 .. 4) . " |\n|:---|---:|:---:|---|\n";
                $md .= "| " . join(' | ', zipf_word(), rnd(100000), sprintf('%d.%02d', rnd(100), rnd(100)), $sentence->()) . " |\n" for 1 .. 5 + rnd(10);
                $md .= "\n";
            } elsif ($block == 2) {
                $md .= "```c\n";
                for my $i (1 .. 4 + rnd(10)) {
                    my ($f, $v) = (zipf_word(), zipf_word());
                    $md .= "static int ${f}_$i(const char *$v, int n) {\n    int s = " . rnd(100) . ";\n"
                         . "    for (int i = 0; i < n; ++i) s = s * 31 + $v\[i];  /* " . zipf_word() . " */\n    return s;\n}\n";
                }
                $md .= "```\n\n";
            } elsif ($block == 3) {
                $md .= "> " . $sentence->() . "\n> " . $sentence->() . "\n>\n> > " . $sentence->() . "\n\n";
            } elsif ($block == 4) {
                $md .= ucfirst(zipf_word()) . "\n:   " . $sentence->() . "\n\n" for 1 .. 2 + rnd(4);
            }
            $md .= $paragraph->() for 1 .. 1 + rnd(3);
        }
    }
    $md .= "[^n$_]: " . $sentence->() . "\n" for 1 .. $notes;
    write_file('doc.md', $md);
}

# ---- manual.1: a long manual page in the man macros, hyphenated and justified by troff ----
{
    my $text = sub {
        my @s = map { zipf_word() } 1 .. 6 + rnd(18);
        for my $w (@s) {
            my $r = rnd(30);
            if ($r == 0) { $w = "\\fB$w\\fR" }
            elsif ($r == 1) { $w = "\\fI$w\\fP" }
            elsif ($r == 2) { $w = "\\-\\-$w" }
        }
        $s[0] = ucfirst $s[0];
        return join(' ', @s) . ".\n";
    };
    my $tool = $words[100 + rnd(100)];
    my $man = ".TH \U$tool\E 1 2026-11-30 \"$tool 1.0\" \"User Commands\"\n.SH NAME\n$tool \\- " . zipf_word() . " " . zipf_word() . "\n"
            . ".SH SYNOPSIS\n.B $tool\n" . join('', map { "[\\fB\\-\\-" . zipf_word() . "\\fR \\fI" . zipf_word() . "\\fR]\n" } 1 .. 12)
            . ".SH DESCRIPTION\n";
    $man .= ".PP\n" . join('', map { $text->() } 1 .. 3 + rnd(5)) for 1 .. 80;
    $man .= ".SH OPTIONS\n";
    for (1 .. 700) {
        my $option = zipf_word();
        $man .= ".TP\n.BR \\-" . substr($option, 0, 1) . " \", \" \\-\\-$option =\\fI" . zipf_word() . "\\fR\n" . join('', map { $text->() } 1 .. 1 + rnd(5));
        if (rnd(5) == 0) {
            $man .= ".RS\n" . join('', map { ".IP \\(bu 2\n" . $text->() } 1 .. 2 + rnd(4)) . ".RE\n";
        }
    }
    for my $section (1 .. 60) {
        $man .= ".SH " . uc(zipf_word()) . "\n";
        for (1 .. 2 + rnd(4)) {
            $man .= ".SS " . ucfirst(zipf_word()) . ' ' . zipf_word() . "\n.PP\n" . join('', map { $text->() } 1 .. 2 + rnd(8));
            if (rnd(3) == 0) {
                $man .= ".PP\n.RS 4\n.nf\n" . join('', map { "\\fB$tool\\fR \\-\\-" . zipf_word() . " " . zipf_word() . " | " . zipf_word() . "\n" } 1 .. 2 + rnd(5)) . ".fi\n.RE\n";
            }
            $man .= ".IP " . ($_ + 0) . ". 4\n" . $text->() for 1 .. rnd(5);
        }
    }
    $man .= ".SH SEE ALSO\n" . join(",\n", map { ".BR " . zipf_word() . " (" . (1 + rnd(8)) . ")" } 1 .. 10) . "\n";
    write_file('manual.1', $man);
}
PERL

# Pre-compressed inputs for the decompressors (gzip -n and xz give identical bytes every time).
gzip -n -9 -c "$DIR/text.txt" >"$DIR/text.txt.gz"
xz -6 -T1 -c "$DIR/mixed.bin" >"$DIR/mixed.bin.xz"

cp "$HERE"/programs/* "$DIR/"

# The GROMACS run input: gmx grompp (only when GROMACS is installed) turns the water box and
# water.mdp into water.tpr for `gmx mdrun`. Not in inputs.sha256: grompp writes 4 bytes that
# differ from run to run (not the physics: `gmx dump` of two files is identical).
if command -v gmx >/dev/null; then
  grompp_dir=$(mktemp -d "${TMPDIR:-/tmp}/concorde-grompp-XXXXXX")
  if ! (cd "$grompp_dir" && GMX_MAXBACKUP=-1 gmx -quiet grompp -f "$DIR/water.mdp" -c "$DIR/water.gro" \
    -p "$DIR/water.top" -o "$DIR/water.tpr" -po mdout.mdp >grompp.log 2>&1); then
    echo "make-inputs: gmx grompp failed; the gromacs workload will not run:" >&2
    tail -n 20 "$grompp_dir/grompp.log" >&2
  fi
  rm -rf "$grompp_dir"
else
  rm -f "$DIR/water.tpr"
fi

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
