# census.gp — operator precision census (width 8, every concrete input
# enumerated): for each operation, the share of cases where the tracker's
# result is the best its own domain can express.
#
# Data: <data>/census.tsv (from `rangebench plot`):
#   op old_optimal_pct cnum_optimal_pct unsound
# By hand: gnuplot -e "data='plots/out/data'; out='plots/out/census'; fmt='png'" plots/census.gp

if (!exists("data")) data = "plots/out/data"
if (!exists("out")) out = "plots/out/census"
if (!exists("fmt")) fmt = "png"
if (!exists("plotdir")) plotdir = "plots"
load plotdir."/style.gp"

f = data."/census.tsv"
stats f using 2 nooutput
nops = STATS_records
# many operations: smaller tick labels so they stay legible
xfont = (nops > 40 ? ",11" : (nops > 20 ? ",14" : ",18"))

set title "Operator precision: share of results that are optimal in the tracker's own domain"
set ylabel "optimal results (%)"
set yrange [0:105]
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.9 border -1
set boxwidth 0.9
set grid noxtics
set xtics rotate by -60 scale 0 font xfont noenhanced
set key outside top center horizontal
set bmargin 6

plot f using 2:xtic(1) lc rgb c_old title "old", \
     f using 3 lc rgb c_cnum title "cnum"
