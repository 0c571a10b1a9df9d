# profile_matrix.gp — the 2x2 matrix per corpus source: the engine
# following Linux 6.18.44 or 7.2.13 (README "Kernel profiles") with the
# old tracker or cnum-mainline (7.2.13's cnum). The diagonal cells are
# real kernels (6.18 + old = the running kernel; 7.2 + cnum-mainline =
# Linux 7.2); the off-diagonal ones are the counterfactuals (6.18 with
# wrapped ranges, 7.2 with the old bounds). Panels: instructions, states,
# engine time and peak state memory relative to the 6.18 old cell (= 1),
# and the share of programs accepted. Kernel-7.2's own times are emulated
# under TCG and are not in here.
#
# Data: <data>/profile_matrix.tsv (from `rangebench plot`): one block per
#   metric (index 0..4, in the order above), one row per source:
#   metric, source (n = programs all four verified), then the cells
#   6.18 old, 6.18 cnum-mainline, 7.2 old, 7.2 cnum-mainline
# By hand: gnuplot -e "data='plots/out/data'; out='plots/out/profile_matrix'; fmt='png'" plots/profile_matrix.gp

if (!exists("data")) data = "plots/out/data"
if (!exists("out")) out = "plots/out/profile_matrix"
if (!exists("fmt")) fmt = "png"
if (!exists("plotdir")) plotdir = "plots"
load plotdir."/style.gp"

f = data."/profile_matrix.tsv"
set datafile separator "\t"
set datafile missing ""
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.9 border -1
set boxwidth 0.9
set grid noxtics
set xtics rotate by -40 font ",11" nomirror offset -0.5, 0
set ytics font ",13" nomirror
set termoption noenhanced
unset key
set offsets 0, 0, graph 0.15, 0
# the same margins in every cell (in characters), so that the five panels
# are the same size whatever their tic labels
set lmargin 7
set rmargin 5
set tmargin 2.6
set bmargin 4.5
set multiplot layout 2,3 title "Engine profile (6.18, 7.2) x tracker (old, cnum-mainline), per corpus source" font ",22"
array T[5] = ["instructions (x 6.18 old)", "states (x 6.18 old)", "engine time (x 6.18 old)", \
              "peak state memory (x 6.18 old)", "accepted (%)"]
do for [i = 0:4] {
	set title T[i + 1] noenhanced font ",14"
	if (i == 4) { set yrange [0:110]; set ytics 25 } else { set yrange [0:*]; set ytics autofreq; set ytics 0.5 }
	plot f index i using 3:xtic(2) title "6.18 old" lc rgb "#4477aa", \
	     '' index i using 4 title "6.18 cnum-mainline" lc rgb "#66ccee", \
	     '' index i using 5 title "7.2 old" lc rgb "#ee6677", \
	     '' index i using 6 title "7.2 cnum-mainline" lc rgb "#aa3377"
}
# the sixth cell: the key
set key center center Left reverse font ",16"
unset border
unset tics
unset title
set xrange [0:1]
set yrange [0:1]
plot NaN title "6.18 old (= the running kernel)" with boxes lc rgb "#4477aa", \
     NaN title "6.18 cnum-mainline" with boxes lc rgb "#66ccee", \
     NaN title "7.2 old" with boxes lc rgb "#ee6677", \
     NaN title "7.2 cnum-mainline (= Linux 7.2)" with boxes lc rgb "#aa3377"
unset multiplot
