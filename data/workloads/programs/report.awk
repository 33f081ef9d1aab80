# awk workload: a report over a CSV table — field splitting, associative arrays, printf, sorting.
# Usage: gawk -F, -f report.awk sales.csv
NR == 1 { next }
{
    revenue = $6 * $7 * (1 - $8)
    month = substr($2, 6, 2)
    byRegion[$3] += revenue
    byMonth[month] += revenue
    byProduct[$5] += $6
    customers[$4]++
    if ($8 > 0) discounted++
    if (revenue > maxRevenue) { maxRevenue = revenue; maxId = $1 }
    total += revenue
}
END {
    PROCINFO["sorted_in"] = "@ind_str_asc"
    for (r in byRegion) printf "%-8s %14.2f\n", r, byRegion[r]
    for (m in byMonth) printf "month %s %14.2f\n", m, byMonth[m]
    PROCINFO["sorted_in"] = "@val_num_desc"
    n = 0
    for (p in byProduct) { if (++n > 10) break; printf "%-16s %8d\n", p, byProduct[p] }
    printf "rows %d customers %d discounted %d total %.2f max %.2f (id %d)\n",
        NR - 1, length(customers), discounted, total, maxRevenue, maxId
}
