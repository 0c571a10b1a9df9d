# metric_ratios.gp — every metric of src/result/metrics.h at once: the
# geometric mean over the programs both verified of tracker / baseline,
# one group of bars per metric (registry order), one bar per tracker
# (log scale; below 1: less than the baseline). A metric added to the
# registry is a new group here, with no change to this script.
#
# Data: <data>/metric_ratios.tsv (from `rangebench plot`): metric, then
#   one column per tracker other than the baseline (headed by its name)
# By hand: gnuplot -e "data='plots/out/data'; out='plots/out/metric_ratios'; fmt='png'" plots/metric_ratios.gp

if (!exists("data")) data = "plots/out/data"
if (!exists("out")) out = "plots/out/metric_ratios"
if (!exists("fmt")) fmt = "png"
if (!exists("plotdir")) plotdir = "plots"
load plotdir."/style.gp"

f = data."/metric_ratios.tsv"
set datafile missing ""
load data."/metric_ratios.vars.gp"
trk = trk1
nt = words(trk)
nm = rows1
lo = 1
hi = 1
do for [i = 1:nt] {
    stats f using (column(i + 1)) nooutput
    lo = (STATS_min < lo ? STATS_min : lo)
    hi = (STATS_max > hi ? STATS_max : hi)
}
lo = lo / 1.5
hi = hi * 1.5

set title sprintf("Every metric relative to %s: geometric mean of tracker / %s over programs both verified", base, base) noenhanced font ",20"
set ylabel sprintf("ratio tracker / %s (log scale)", base)
set logscale y
set yrange [lo:hi]
# over a wide range powers of two only, else finer steps
if (hi / lo > 64) {
    set ytics ("1/16" 0.0625, "1/8" 0.125, "1/4" 0.25, "1/2" 0.5, "1" 1, "2" 2, "4" 4, "8" 8, "16" 16, "32" 32, "64" 64)
} else {
    set ytics ("1/8" 0.125, "1/4" 0.25, "1/3" 0.333, "1/2" 0.5, "2/3" 0.667, "0.8" 0.8, "0.9" 0.9, "1" 1, "1.1" 1.1, "1.25" 1.25, "1.5" 1.5, "2" 2, "3" 3, "4" 4, "6" 6, "8" 8)
}
set mytics 1
set style fill solid 0.9 border -1
set grid noxtics
set xtics rotate by -30 scale 0 noenhanced ()
ms = keys1
do for [k = 1:words(ms)] {
    set xtics add (word(ms, k) k - 1)
}
set key outside top center horizontal box opaque noenhanced
set bmargin 6
set xrange [-0.7:nm - 0.3]
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb c_grey dt 2 lw 2

# each bar runs from 1 to the ratio; the trackers side by side per metric
w = 0.8 / nt
x0(i) = $0 - 0.4 + (i - 1) * w
plot for [i = 1:nt] f using (x0(i) + w / 2):(column(i + 1)):(x0(i)):(x0(i) + w):(1):(column(i + 1)) \
     with boxxyerror lc rgb tcolour(word(trk, i), i) title sprintf("%s / %s", word(trk, i), base)
