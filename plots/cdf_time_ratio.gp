# cdf_time_ratio.gp — cumulative distribution of the per-program ratio of
# verification time, each tracker / the baseline (log x axis), one line
# per tracker of the run. Left of 1: that tracker verified the program
# faster than the baseline.
#
# Data: <data>/time_ratio_cdf.tsv (from `rangebench plot`): tracker ratio
#   cum_share, one block per tracker (two blank lines between blocks)
# By hand: gnuplot -e "data='plots/out/data'; out='plots/out/cdf_time_ratio'; fmt='png'" plots/cdf_time_ratio.gp

if (!exists("data")) data = "plots/out/data"
if (!exists("out")) out = "plots/out/cdf_time_ratio"
if (!exists("fmt")) fmt = "png"
if (!exists("plotdir")) plotdir = "plots"
load plotdir."/style.gp"

f = data."/time_ratio_cdf.tsv"
# the trackers, in block order
load data."/cdf_time_ratio.vars.gp"
trk = trk1
nt = words(trk)
stats f using 2 nooutput
lo = STATS_min
hi = STATS_max
# the median ratio of each tracker, for the legend
array med[nt]
do for [i = 1:nt] {
    stats f index (i - 1) using 2 nooutput
    med[i] = STATS_median
    n = STATS_records
}
# a log range reaching a little beyond the extremes
set xrange [lo / 1.5 : hi * 1.5]

set title sprintf("Verification time per program, each tracker / %s (%d programs)", base, n)
set xlabel sprintf("time ratio tracker / %s (log scale; < 1: faster than %s)", base, base)
set ylabel "share of programs (%)"
set logscale x
set yrange [0:100]
# top left: the curves rise to the right of the fastest ratios, so that corner stays empty
set key top left box opaque noenhanced
set arrow 1 from 1, graph 0 to 1, graph 1 nohead lc rgb c_grey dt 2 lw 2

plot for [i = 1:nt] f index (i - 1) using 2:($3 * 100) with steps lw 4 lc rgb tcolour(word(trk, i), i) \
     title sprintf("%s / %s (median %.3g)", word(trk, i), base, med[i])
