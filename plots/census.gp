# census.gp — operator precision census (width 8, every concrete input
# enumerated): for each operation, the share of cases where the tracker's
# result is the best its own domain can express. Top: ALU, move, byte-swap
# and load operations; bottom: conditional jumps (the refined states).
# Register-source forms only; `rangebench query census` lists every form.
#
# Data: <data>/census.tsv and <data>/census_jmp.tsv (from `rangebench plot`):
#   op, then one column per tracker of the census (headed by its name):
#   the share of its results that are optimal, in %
# By hand (after a `rangebench plot`, which writes data/census.vars.gp):
#   gnuplot -e "data='plots/out/data'; out='plots/out/census'; fmt='png'" plots/census.gp

if (!exists("data")) data = "plots/out/data"
if (!exists("out")) out = "plots/out/census"
if (!exists("fmt")) fmt = "png"
if (!exists("plotdir")) plotdir = "plots"
load plotdir."/style.gp"

f1 = data."/census.tsv"
f2 = data."/census_jmp.tsv"
# the trackers, as the header line names them
load data."/census.vars.gp"
trk = trk1
nt = words(trk)
# tick labels shrink when there are many operations
tickfont(n) = (n > 40 ? ",12" : (n > 24 ? ",14" : ",18"))
stats f1 using 2 nooutput
n1 = STATS_records
n2 = 0
xf1 = tickfont(n1)
if (rows2 > 0) {
    stats f2 using 2 nooutput
    n2 = STATS_records
    xf2 = tickfont(n2)
}

set style data histogram
set style histogram clustered gap 1
set style fill solid 0.9 border -1
set boxwidth 0.9
set grid noxtics
set ylabel "optimal (%)"
set yrange [0:105]
set ytics 0,25,100
set key outside top right horizontal font ",16" noenhanced

set multiplot title "Operator precision (8-bit census): share of results optimal in the tracker's own domain" font ",22"
set lmargin at screen 0.09
set rmargin at screen 0.99
if (n2 > 0) {
    set size 1, 0.58
    set origin 0, 0.38
} else {
    set size 1, 0.93
    set origin 0, 0
}
set xtics rotate by -60 scale 0 font xf1 noenhanced
set title "ALU, move, byte swap and load" font ",18"
plot for [i = 1:nt] f1 using (column(i + 1)):xtic(1) lc rgb tcolour(word(trk, i), i) title word(trk, i)
if (n2 > 0) {
    set size 1, 0.39
    set origin 0, 0
    set title "conditional jumps (refined states)" font ",18"
    set xtics rotate by -60 scale 0 font xf2 noenhanced
    unset key
    plot for [i = 1:nt] f2 using (column(i + 1)):xtic(1) lc rgb tcolour(word(trk, i), i) title word(trk, i)
}
unset multiplot
