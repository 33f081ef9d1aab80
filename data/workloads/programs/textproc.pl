# Perl workload: regular expressions and hashes over a text — sentence splitting, substitutions,
# word and suffix statistics, sprintf formatting and sorting.
# Usage: perl textproc.pl text.txt
use strict;
use warnings;

my $file = shift;
open(my $fh, '<', $file) or die "$file: $!";
local $/ = '';    # paragraph mode
my (%freq, %suffix, %first, $sentences, $numbers, $chars);
while (my $para = <$fh>) {
    $para =~ s/\s+/ /g;
    $chars += length $para;
    for my $s (split /(?<=[.?!;])\s+/, $para) {
        ++$sentences;
        $numbers += () = $s =~ /\b\d+\b/g;
        my @w = map { lc } $s =~ /([A-Za-z]+)/g;
        next unless @w;
        ++$first{$w[0]};
        for my $w (@w) {
            ++$freq{$w};
            ++$suffix{$1} if $w =~ /(\w{2})$/;
        }
    }
    (my $rot = $para) =~ tr/a-zA-Z/n-za-mN-ZA-M/;
    $chars += ($rot =~ s/([aeiou])\1/$1/g) // 0;
}
my @top = (sort { $freq{$b} <=> $freq{$a} || $a cmp $b } keys %freq)[0 .. 39];
printf "%-12s %8d\n", $_, $freq{$_} for @top;
my @suf = (sort { $suffix{$b} <=> $suffix{$a} || $a cmp $b } keys %suffix)[0 .. 19];
print join(' ', map { "$_=$suffix{$_}" } @suf), "\n";
printf "sentences %d numbers %d chars %d distinct %d openers %d\n",
    $sentences, $numbers, $chars, scalar(keys %freq), scalar(keys %first);
