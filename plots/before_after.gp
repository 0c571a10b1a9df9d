# before_after.gp — two runs, program by program: instructions processed
# and states in run B against run A, per tracker (log-log; on the diagonal
# nothing changed). Programs whose verdict changed are circled.
#
# Data: <data>/before_after.tsv (from `rangebench plot RUN_A RUN_B`):
#   program tracker a_insns b_insns a_states b_states verdict_changed
# By hand: gnuplot -e "data='plots/out/data'; out='plots/out/before_after'; fmt='png'; title_ab='run 1 -> run 2'" plots/before_after.gp

if (!exists("data")) data = "plots/out/data"
if (!exists("out")) out = "plots/out/before_after"
if (!exists("fmt")) fmt = "png"
if (!exists("plotdir")) plotdir = "plots"
if (!exists("title_ab")) title_ab = "run A -> run B"
load plotdir."/style.gp"

f = data."/before_after.tsv"
stats f using 7 nooutput
changed = STATS_sum

set logscale xy
set format x "10^{%T}"
set format y "10^{%T}"
set key top left box opaque font ",16" noenhanced

sel(t, v) = (strcol(2) eq t && v > 0 ? v : 1/0)
# the trackers of the runs, in file order (registry order, then others)
load data."/before_after.vars.gp"
trk = trk1
nt = words(trk)
pts = "7 5 9 11 13 15"
ptof(i) = int(word(pts, 1 + (i - 1) % 6))

set multiplot layout 1,2 title sprintf("Before / after: %s (%d verdict changes)", title_ab, changed) font ",24"
do for [i = 0:1] {
    ca = (i == 0 ? 3 : 5)
    cb = ca + 1
    # the range of this panel's drawable points (both sides > 0), found
    # with the previous panel's ranges and log scale undone
    unset logscale
    set autoscale xy
    stats f using (column(ca) > 0 && column(cb) > 0 ? 1 : 0) nooutput
    npts = STATS_sum
    if (npts > 0) {
        stats f using (column(ca) > 0 && column(cb) > 0 ? column(ca) : 1/0):(column(ca) > 0 && column(cb) > 0 ? column(cb) : 1/0) nooutput
        lo = (STATS_min_x < STATS_min_y ? STATS_min_x : STATS_min_y)
        hi = (STATS_max_x > STATS_max_y ? STATS_max_x : STATS_max_y)
    } else {
        lo = 1
        hi = 10
    }
    set logscale xy
    lo = (lo < 1 ? 1 : lo) / 2.0
    hi = hi * 2.0
    set xrange [lo:hi]
    set yrange [lo:hi]
    set size ratio -1
    if (i == 0) {
        set title "instructions processed"
        set xlabel "run A: instructions (log)"
        set ylabel "run B: instructions (log)"
    } else {
        set title "total states"
        set xlabel "run A: states (log)"
        set ylabel "run B: states (log)"
    }
    if (npts == 0) {
        set label 1 "nothing to draw: every value is 0" at graph 0.5, graph 0.5 center font ",18"
        plot x with lines lc rgb c_grey dt 2 lw 2 title "unchanged"
        unset label 1
        continue
    }
    plot x with lines lc rgb c_grey dt 2 lw 2 title "unchanged", \
         for [i = 1:nt] f using (sel(word(trk, i), column(ca))):cb with points pt ptof(i) ps 1.1 \
             lc rgb tcolour(word(trk, i), i) title word(trk, i), \
         f using ($7 != 0 && column(ca) > 0 ? column(ca) : 1/0):cb with points pt 6 ps 3 lw 2 lc rgb c_alert title "verdict changed"
}
unset multiplot
