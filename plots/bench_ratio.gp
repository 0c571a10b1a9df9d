# bench_ratio.gp — micro-benchmarks: time per operation of cnum relative
# to old (ratio cnum/old, log scale; below 1: cnum faster), costliest first.
#
# Data: <data>/bench.tsv (from `rangebench plot`): op old_ns cnum_ns ratio
# By hand: gnuplot -e "data='plots/out/data'; out='plots/out/bench_ratio'; fmt='png'" plots/bench_ratio.gp

if (!exists("data")) data = "plots/out/data"
if (!exists("out")) out = "plots/out/bench_ratio"
if (!exists("fmt")) fmt = "png"
if (!exists("plotdir")) plotdir = "plots"
load plotdir."/style.gp"

f = data."/bench.tsv"
stats f using 4 nooutput
nops = STATS_records
lo = (STATS_min < 1 ? STATS_min : 1) / 1.5
hi = (STATS_max > 1 ? STATS_max : 1) * 1.5
xfont = (nops > 40 ? ",12" : (nops > 20 ? ",14" : ",18"))

stats f using (log($4)) nooutput
gmean = exp(STATS_mean)
set title sprintf("Tracker operation cost: cnum / old (CPU ns per op; geometric mean %.2f over %d ops)", gmean, nops)
set ylabel "time ratio cnum / old (log scale)"
set logscale y
set yrange [lo:hi]
set ytics ("1/8" 0.125, "1/4" 0.25, "1/3" 0.333, "1/2" 0.5, "2/3" 0.667, "0.8" 0.8, "1" 1, "1.25" 1.25, "1.5" 1.5, "2" 2, "3" 3, "4" 4, "6" 6, "8" 8, "12" 12, "16" 16, "32" 32)
set mytics 1
set style fill solid 0.9 border -1
set grid noxtics
set xtics rotate by -60 scale 0 font xfont noenhanced
set bmargin 6
set xrange [-0.7:nops - 0.3]
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb c_grey dt 2 lw 2

# each bar runs from 1 to the ratio: up when cnum is slower, down when faster
plot f using 0:4:($0 - 0.35):($0 + 0.35):(1):4:xtic(1) with boxxyerror lc rgb c_cnum title "cnum / old"
