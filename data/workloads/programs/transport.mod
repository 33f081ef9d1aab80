/* GLPK MathProg: a capacitated facility location MIP with generated data (GLPK's own
   pseudo-random generator with its fixed default seed, so every run solves the same problem). */
param m := 14;   /* candidate facilities */
param n := 90;   /* customers */
set F := 1..m;
set C := 1..n;
param fx{F} := 80 + Uniform(0, 60);
param fy{F} := Uniform(0, 100);
param cx{C} := Uniform(0, 100);
param cy{C} := Uniform(0, 100);
param demand{C} := round(Uniform(5, 35));
param cap{F} := round(Uniform(120, 260));
param open{F} := round(Uniform(300, 700));
param cost{f in F, c in C} := sqrt((fx[f] - cx[c])^2 + (fy[f] - cy[c])^2);
var y{F} binary;
var x{F, C} >= 0, <= 1;
minimize total: sum{f in F} open[f] * y[f] + sum{f in F, c in C} cost[f, c] * demand[c] * x[f, c];
s.t. serve{c in C}: sum{f in F} x[f, c] = 1;
s.t. capacity{f in F}: sum{c in C} demand[c] * x[f, c] <= cap[f] * y[f];
s.t. link{f in F, c in C}: x[f, c] <= y[f];
solve;
printf "total cost %.2f, open:", total;
printf{f in F: y[f] > 0.5} " %d", f;
printf "\n";
end;
