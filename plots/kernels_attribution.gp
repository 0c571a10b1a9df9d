# kernels_attribution.gp — per corpus source, the programs whose verdict,
# instructions or states differ between two kernels of the run (e.g. the
# running 6.18 and kernel-7.2), stacked by explain's class (`rangebench
# explain --db`, table explanations: explained by a profile switch, by the
# tracker, by the kernel inputs, in two or more steps), then the programs
# explain left unexplained (all of them, when explain stored nothing) by
# the mechanism named where the two kernels' level-2 logs part (`rangebench
# attribute`, src/oracle/ktrace.h).
#
# Data: <data>/kernels_attribution.tsv (from `rangebench plot`): source
#   (with the number of programs that differ), then one column per class:
#   switch, tracker, kernel_inputs, two_steps, const_fold, prune_earlier,
#   prune_later, branch, path_ends, rejects_upfront, explores_now,
#   stops_earlier, stops_later, checkpoints, insn_rewrite, unnamed (programs)
# By hand: gnuplot -e "data='plots/out/data'; out='plots/out/kernels_attribution'; fmt='png'" plots/kernels_attribution.gp

if (!exists("data")) data = "plots/out/data"
if (!exists("out")) out = "plots/out/kernels_attribution"
if (!exists("fmt")) fmt = "png"
if (!exists("plotdir")) plotdir = "plots"
load plotdir."/style.gp"

f = data."/kernels_attribution.tsv"
set title "Kernel differences per source: explain's class, else where the logs part"
set ylabel "programs that differ"
set style data histogram
set style histogram rowstacked
set style fill solid 0.9 border -1
set boxwidth 0.7
set grid noxtics ytics
set xtics rotate by 30 right scale 0 noenhanced
set key outside right top vertical box noenhanced
set yrange [0:*]
set datafile missing ""
names = "switch tracker kernel_inputs two_steps const_fold prune_earlier prune_later branch path_ends rejects_upfront explores_now stops_earlier stops_later checkpoints insn_rewrite unnamed"
cols = "#0072B2 #009E73 #E69F00 #56B4E9 #D55E00 #CC79A7 #F0E442 #BCBD22 #FFB000 #17BECF #882255 #AA4499 #44AA99 #999999 #8C564B #555555"
# the export writes spaces inside a cell as '_': "source (n=N)" again
unus(s) = (strstrt(s, "_(") > 0 ? s[1:strstrt(s, "_(") - 1]." ".s[strstrt(s, "_(") + 1:] : s)
plot for [i = 2:17] f using (column(i)):xtic(unus(strcol(1))) lc rgb word(cols, i - 1) title word(names, i - 1)
