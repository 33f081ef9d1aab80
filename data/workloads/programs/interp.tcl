# Tcl workload: string commands, lists, dicts and recursive procs.
# Usage: tclsh interp.tcl text.txt
proc fib {n} { if {$n < 2} { return $n }; expr {[fib [expr {$n - 1}]] + [fib [expr {$n - 2}]]} }

proc hanoi {n from to via} {
    if {$n == 0} { return 0 }
    set a [hanoi [expr {$n - 1}] $from $via $to]
    set b [hanoi [expr {$n - 1}] $via $to $from]
    expr {$a + $b + 1}
}

set f [open [lindex $argv 0]]
set text [read $f]
close $f
set counts [dict create]
set lineNo 0
foreach line [split $text "\n"] {
    incr lineNo
    if {$lineNo > 12000} break
    set line [string map {, "" . "" ? "" ! "" ; ""} [string tolower $line]]
    foreach w $line {
        dict incr counts $w
    }
}
set pairs {}
dict for {w c} $counts { lappend pairs [list $w $c] }
set top [lrange [lsort -integer -decreasing -index 1 [lsort -index 0 $pairs]] 0 19]
foreach p $top { puts [format "%-14s %6d" [lindex $p 0] [lindex $p 1]] }
puts "distinct [dict size $counts] fib(20)=[fib 20] hanoi(12)=[hanoi 12 a c b]"
set s ""
for {set i 0} {$i < 3000} {incr i} { append s [format %04x [expr {($i * 7919) % 65536}]] }
puts "hex [string length $s] [string first beef $s] [regexp -all {[0-9]{4}} $s]"
