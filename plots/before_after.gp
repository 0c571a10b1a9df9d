# before_after.gp — two runs, program by program: instructions processed
# and states in run B against run A, per tracker (log-log; on the diagonal
# nothing changed). Changed programs are marked by the way they changed
# (a triangle up: B accepts what A rejected; down: B rejects what A
# accepted; a circle: another verdict change, e.g. to a limit; a diamond:
# the same verdict, other counts), each numbered, and listed by number on
# the right, verdict changes first (the first 16; the rest are counted).
#
# Data: <data>/before_after.tsv (from `rangebench plot RUN_A RUN_B`):
#   program tracker a_insns b_insns a_states b_states verdict_changed
#   verdict_way change_no a_verdict b_verdict
# By hand: gnuplot -e "data='plots/out/data'; out='plots/out/before_after'; fmt='png'; title_ab='run 1 -> run 2'" plots/before_after.gp

if (!exists("data")) data = "plots/out/data"
if (!exists("out")) out = "plots/out/before_after"
if (!exists("fmt")) fmt = "png"
if (!exists("plotdir")) plotdir = "plots"
if (!exists("title_ab")) title_ab = "run A -> run B"
if (!exists("run_a")) run_a = "run A"
if (!exists("run_b")) run_b = "run B"
load plotdir."/style.gp"

f = data."/before_after.tsv"
stats f using 7 nooutput
changed = STATS_sum
way(w) = (strcol(8) eq w)
stats f using (way("accepted") ? 1 : 0) nooutput
n_acc = STATS_sum
stats f using (way("rejected") ? 1 : 0) nooutput
n_rej = STATS_sum
n_oth = changed - n_acc - n_rej
stats f using (way("counts") ? 1 : 0) nooutput
n_cnt = STATS_sum

set logscale xy
set format x "10^{%T}"
set format y "10^{%T}"
# one legend for both panels (panel 0's; panel 1 has none), on the right
# below the list of changes, clear of the data
set key vertical Left reverse box opaque font ",14" noenhanced samplen 2
set key at screen 0.72, 0.28 left top

sel(t, v) = (strcol(2) eq t && v > 0 ? v : 1/0)
# the trackers of the runs, in file order (registry order, then others)
load data."/before_after.vars.gp"
trk = trk1
nt = words(trk)
pts = "7 5 9 11 13 15"
ptof(i) = int(word(pts, 1 + (i - 1) % 6))

set multiplot title sprintf("Before / after: %s (%d verdict changes, %d count changes)", title_ab, changed, n_cnt) font ",24"
nlist = 16
do for [i = 0:1] {
    set origin 0.36 * i, 0.04
    set size 0.36, 0.89
    if (i == 1) { unset key }
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
    what = (i == 0 ? "instructions" : "states")
    set title (i == 0 ? "instructions processed" : "total states")
    set xlabel sprintf("%s: %s (log)", run_a, what) noenhanced
    set ylabel sprintf("%s: %s (log)", run_b, what) noenhanced
    if (npts == 0) {
        set label 1 "nothing to draw: every value is 0" at graph 0.5, graph 0.5 center font ",18"
        plot x with lines lc rgb c_grey dt 2 lw 2 title "unchanged"
        unset label 1
        continue
    }
    plot x with lines lc rgb c_grey dt 2 lw 2 title "unchanged", \
         for [i = 1:nt] f using (sel(word(trk, i), column(ca))):cb with points pt ptof(i) ps 1.1 \
             lc rgb tcolour(word(trk, i), i) title word(trk, i), \
         f using (way("accepted") && column(ca) > 0 ? column(ca) : 1/0):cb with points pt 8 ps 3 lw 2 lc rgb c_alert title sprintf("%s accepts (%d)", run_b, n_acc), \
         f using (way("rejected") && column(ca) > 0 ? column(ca) : 1/0):cb with points pt 10 ps 3 lw 2 lc rgb c_alert title sprintf("%s rejects (%d)", run_b, n_rej), \
         f using (way("other") && column(ca) > 0 ? column(ca) : 1/0):cb with points pt 6 ps 3 lw 2 lc rgb c_alert title sprintf("other verdict change (%d)", n_oth), \
         f using (way("counts") && column(ca) > 0 ? column(ca) : 1/0):cb with points pt 12 ps 3 lw 2 lc rgb c_alert title sprintf("same verdict, counts changed (%d)", n_cnt), \
         f using ($9 > 0 && $9 <= nlist && column(ca) > 0 ? column(ca) : 1/0):cb:(sprintf("%d", $9)) with labels left offset 1.1, 0.7 font ",12" notitle
}
# the list: number, way, program, verdicts (programs with 0 instructions on
# a side are listed but cannot be drawn on a log scale)
set origin 0.72, 0.30
set size 0.28, 0.63
unset logscale
unset title
unset xlabel
unset ylabel
unset key
unset border
unset tics
unset grid
set size noratio
set xrange [0:1]
set yrange [-(nlist + 2):0]
short(s) = (strlen(s) > 30 ? s[1:29]."…" : s)
mark(w) = (w eq "accepted" ? "▲" : w eq "rejected" ? "▼" : w eq "counts" ? "◇" : "○")
what(w) = (w eq "counts" ? sprintf("%d→%d insns, %d→%d states", $3, $4, $5, $6) : sprintf("%s→%s", strcol(10), strcol(11)))
nchg = changed + n_cnt
set label 2 (nchg > 0 ? "changed programs" : "nothing changed") at 0.02, -0.5 left font ",16"
if (nchg > nlist) {
    set label 3 sprintf("… and %d more: rangebench compare --changed", nchg - nlist) at 0.02, -(nlist + 1.5) left font ",12" noenhanced
}
plot f using ($9 > 0 && $9 <= nlist ? 0.02 : 1/0):(-$9 - 0.5):(sprintf("%d %s %s  %s", $9, mark(strcol(8)), short(strcol(1)), what(strcol(8)))) with labels left font ",11" noenhanced notitle
unset label 2
unset label 3
unset multiplot
