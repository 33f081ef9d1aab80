<?php
// PHP 8.2: string building and parsing, associative arrays, sorting, objects, recursion.
$text = file_get_contents($argv[1]);
$words = preg_split('/[^a-z]+/', strtolower($text), -1, PREG_SPLIT_NO_EMPTY);
$freq = [];
foreach ($words as $w) { $freq[$w] = ($freq[$w] ?? 0) + 1; }
arsort($freq);
$i = 0;
foreach ($freq as $w => $n) { if (++$i > 10) break; printf("%-12s %d\n", $w, $n); }
$bigrams = [];
for ($k = 1; $k < count($words); $k++) { $bigrams[$words[$k - 1] . ' ' . $words[$k]] = true; }
echo "distinct bigrams: ", count($bigrams), "\n";
class Node { public $l = null; public $r = null; function __construct(public int $v) {} }
function insert(?Node $t, int $v): Node {
  if ($t === null) return new Node($v);
  if ($v < $t->v) $t->l = insert($t->l, $v); else $t->r = insert($t->r, $v);
  return $t;
}
function height(?Node $t): int { return $t === null ? 0 : 1 + max(height($t->l), height($t->r)); }
$root = null; $x = 12345;
for ($k = 0; $k < 60000; $k++) { $x = ($x * 1103515245 + 12345) & 0x7fffffff; $root = insert($root, $x); }
echo "tree height: ", height($root), "\n";
$m = [];
for ($a = 0; $a < 90; $a++) for ($b = 0; $b < 90; $b++) $m[$a][$b] = sin($a) * cos($b);
$s = 0.0;
for ($a = 0; $a < 90; $a++) for ($b = 0; $b < 90; $b++) { $t = 0.0; for ($c = 0; $c < 90; $c++) $t += $m[$a][$c] * $m[$c][$b]; $s += $t; }
printf("matrix sum %.6f\n", $s);
$lines = explode("\n", $text);
usort($lines, fn($p, $q) => strlen($p) <=> strlen($q) ?: strcmp($p, $q));
echo md5(implode("\n", array_slice($lines, 0, 1000))), "\n";
echo strlen(str_replace(['the', 'and'], ['THE', '&'], $text)), "\n";
