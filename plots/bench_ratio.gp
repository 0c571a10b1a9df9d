# bench_ratio.gp — micro-benchmarks: time per operation of cnum relative
# to old (ratio cnum/old, log scale; below 1: cnum faster).
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
xfont = (nops > 40 ? ",11" : (nops > 20 ? ",14" : ",18"))

set title "Tracker operation cost: cnum / old (Google Benchmark, ns per op)"
set ylabel "time ratio cnum / old (log scale)"
set logscale y
set style fill solid 0.9 border -1
set grid noxtics
set xtics rotate by -60 scale 0 font xfont
set bmargin 6
set xrange [-0.7:nops - 0.3]
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb c_grey dt 2 lw 2

# each bar runs from 1 to the ratio: up when cnum is slower, down when faster
plot f using 0:4:($0 - 0.35):($0 + 0.35):(1):4:xtic(1) with boxxyerror lc rgb c_cnum title "cnum / old"
