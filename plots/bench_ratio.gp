# bench_ratio.gp — micro-benchmarks: time per operation of every tracker
# relative to the baseline (ratio tracker / baseline, log scale; below 1:
# faster than the baseline), operations costliest for the candidate
# first, one bar per tracker.
#
# Data: <data>/bench.tsv (from `rangebench plot`): op, then one column
#   per tracker other than the baseline (headed by its name): median
#   ns/op over the baseline's median ns/op;
#   <data>/bench_spread.tsv: op, tracker, ratio, lo, hi: where the run
#   stored its repetitions' spread, the range of the ratio over any pair
#   of repetitions (the candidate's fastest over the baseline's slowest,
#   and the other way round), drawn as whiskers (none for a run of one
#   repetition, or stored before the spread was kept)
# By hand: gnuplot -e "data='plots/out/data'; out='plots/out/bench_ratio'; fmt='png'" plots/bench_ratio.gp

if (!exists("data")) data = "plots/out/data"
if (!exists("out")) out = "plots/out/bench_ratio"
if (!exists("fmt")) fmt = "png"
if (!exists("plotdir")) plotdir = "plots"
load plotdir."/style.gp"

f = data."/bench.tsv"
set datafile missing ""
load data."/bench_ratio.vars.gp"
trk = trk1
nt = words(trk)
stats f using 2 nooutput
nops = STATS_records
lo = 1
hi = 1
gm = ""
do for [i = 1:nt] {
    stats f using (column(i + 1)) nooutput
    lo = (STATS_min < lo ? STATS_min : lo)
    hi = (STATS_max > hi ? STATS_max : hi)
    stats f using (log(column(i + 1))) nooutput
    gm = gm.sprintf("%s%s %.2f", (i > 1 ? ", " : ""), word(trk, i), exp(STATS_mean))
}
spread = (rows2 > 0)
if (spread) {
    stats data."/bench_spread.tsv" using 4:5 nooutput
    lo = (STATS_min_x < lo ? STATS_min_x : lo)
    hi = (STATS_max_y > hi ? STATS_max_y : hi)
}
lo = lo / 1.5
hi = hi * 1.5
xfont = (nops > 40 ? ",12" : (nops > 20 ? ",14" : ",18"))

set title sprintf("Tracker operation cost relative to %s, CPU ns per op (%d ops%s)\ngeometric mean: %s", base, nops, \
    (spread ? "; whiskers: range over the repetitions" : ""), gm) noenhanced font ",20"
set ylabel sprintf("time ratio tracker / %s (log scale)", base)
set logscale y
set yrange [lo:hi]
# over a wide range (a tracker many times slower) powers of two only,
# else finer steps: tick labels never overlap
if (hi / lo > 64) {
    set ytics ("1/16" 0.0625, "1/8" 0.125, "1/4" 0.25, "1/2" 0.5, "1" 1, "2" 2, "4" 4, "8" 8, "16" 16, "32" 32, "64" 64, "128" 128, "256" 256, "512" 512)
} else {
    set ytics ("1/8" 0.125, "1/4" 0.25, "1/3" 0.333, "1/2" 0.5, "2/3" 0.667, "0.8" 0.8, "1" 1, "1.25" 1.25, "1.5" 1.5, "2" 2, "3" 3, "4" 4, "6" 6, "8" 8, "12" 12, "16" 16, "32" 32, "64" 64, "128" 128)
}
set mytics 1
set style fill solid 0.9 border -1
set grid noxtics
set xtics rotate by -60 scale 0 font xfont noenhanced ()
# one label per operation, at its group's centre
ops = keys1
do for [k = 1:words(ops)] {
    set xtics add (word(ops, k) k - 1)
}
# above the plot, in one row: bars reach every corner of the plot area
set key outside top center horizontal box opaque noenhanced
set bmargin 6
set xrange [-0.7:nops - 0.3]
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb c_grey dt 2 lw 2

# each bar runs from 1 to the ratio: up when slower than the baseline,
# down when faster; the trackers side by side within an operation
w = 0.8 / nt
x0(i) = $0 - 0.4 + (i - 1) * w
# the whiskers (when the run kept the spread): bench_spread.tsv names
# its op and tracker, placed on the bar of that op (its position in
# keys1) and tracker (its word in trk1)
fs = data."/bench_spread.tsv"
opat(s, k) = (k > nops ? NaN : (word(ops, k) eq s ? k - 1 : opat(s, k + 1)))
trkat(s, k) = (k > nt ? NaN : (word(trk, k) eq s ? k : trkat(s, k + 1)))
xbar(s, t) = opat(s, 1) - 0.4 + (trkat(t, 1) - 1) * w + w / 2
plot for [i = 1:nt] f using (x0(i) + w / 2):(column(i + 1)):(x0(i)):(x0(i) + w):(1):(column(i + 1)) \
     with boxxyerror lc rgb tcolour(word(trk, i), i) title sprintf("%s / %s", word(trk, i), base), \
     for [j = 1:spread] fs using (xbar(strcol(1), strcol(2))):3:4:5 with yerrorbars lc rgb "black" lw 1.5 pt 0 notitle
