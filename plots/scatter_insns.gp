# scatter_insns.gp — instructions processed per program, candidate vs baseline,
# log-log, with the diagonal: points below it need fewer instructions with
# the candidate. Programs whose verdict differs between the two are drawn in black.
#
# Data: <data>/pair.tsv (from `rangebench plot`), columns:
#   program base_insns cand_insns base_states cand_states base_us cand_us verdict_differs ...
# (base, cand: the two trackers compared, `rangebench plot --baseline/--candidate`;
# the script takes their names as base='...' cand='...', default old and cnum)
# By hand: gnuplot -e "data='plots/out/data'; out='plots/out/scatter_insns'; fmt='png'" plots/scatter_insns.gp

if (!exists("data")) data = "plots/out/data"
if (!exists("out")) out = "plots/out/scatter_insns"
if (!exists("fmt")) fmt = "png"
if (!exists("plotdir")) plotdir = "plots"
load plotdir."/style.gp"

f = data."/pair.tsv"
set xlabel sprintf("%s (baseline): instructions processed (log scale)", base)
set ylabel sprintf("%s (candidate): instructions processed (log scale)", cand)
set logscale xy
set format x "10^{%T}"
set format y "10^{%T}"
set size ratio -1
set key top left box opaque

stats f using ($2 > 0 && $3 > 0 ? $2 : 1/0):($2 > 0 && $3 > 0 ? $3 : 1/0) nooutput
lo = (STATS_min_x < STATS_min_y ? STATS_min_x : STATS_min_y)
hi = (STATS_max_x > STATS_max_y ? STATS_max_x : STATS_max_y)
n = STATS_records
# many points coincide: say how many lie exactly on the diagonal
stats f using ($2 > 0 && $2 == $3 ? $2 : 1/0) nooutput
same = STATS_records
set title sprintf("Instructions processed per program: %s vs %s (%d programs, %d equal)", cand, base, n, same)
lo = (lo < 1 ? 1 : lo) / 2.0
hi = hi * 2.0
set xrange [lo:hi]
set yrange [lo:hi]

plot x with lines lc rgb c_grey dt 2 lw 2 title "equal (y = x)", \
     f using ($8 == 0 && $2 > 0 && $3 > 0 ? $2 : 1/0):3 with points pt 7 ps 1.2 lc rgb tcolour(cand, 2) title "same verdict", \
     f using ($8 != 0 && $2 > 0 && $3 > 0 ? $2 : 1/0):3 with points pt 9 ps 1.8 lc rgb c_alert title "verdict differs"
