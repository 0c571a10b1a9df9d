# cdf_time_ratio.gp — cumulative distribution of the per-program ratio of
# verification time, cnum / old (log x axis). Left of 1: cnum verified
# that program faster.
#
# Data: <data>/time_ratio_cdf.tsv (from `rangebench plot`): ratio cum_share
# By hand: gnuplot -e "data='plots/out/data'; out='plots/out/cdf_time_ratio'; fmt='png'" plots/cdf_time_ratio.gp

if (!exists("data")) data = "plots/out/data"
if (!exists("out")) out = "plots/out/cdf_time_ratio"
if (!exists("fmt")) fmt = "png"
if (!exists("plotdir")) plotdir = "plots"
load plotdir."/style.gp"

f = data."/time_ratio_cdf.tsv"
stats f using 1 nooutput
n = STATS_records
med = STATS_median
# a log range reaching a little beyond the extremes
set xrange [STATS_min / 1.5 : STATS_max * 1.5]

set title sprintf("Verification time per program, cnum / old (%d programs, median %.3g)", n, med)
set xlabel "time ratio cnum / old (log scale; < 1: cnum faster)"
set ylabel "share of programs (%)"
set logscale x
set yrange [0:100]
set key bottom right box opaque
set arrow 1 from 1, graph 0 to 1, graph 1 nohead lc rgb c_grey dt 2 lw 2

plot f using 1:($2 * 100) with steps lw 4 lc rgb c_cnum title "cnum / old"
