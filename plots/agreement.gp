# agreement.gp — verdict agreement with the running kernel, per corpus
# source: the share of programs where the tracker accepts exactly when
# the kernel does (programs the kernel refused for environmental reasons,
# or that a tracker does not support yet, are left out; n per bar).
#
# Data: <data>/agreement.tsv (from `rangebench plot`):
#   source (with the number of programs compared, at most), then one
#   column per tracker of the run (headed by its name): agreement in %
# By hand: gnuplot -e "data='plots/out/data'; out='plots/out/agreement'; fmt='png'" plots/agreement.gp

if (!exists("data")) data = "plots/out/data"
if (!exists("out")) out = "plots/out/agreement"
if (!exists("fmt")) fmt = "png"
if (!exists("plotdir")) plotdir = "plots"
load plotdir."/style.gp"

f = data."/agreement.tsv"
set datafile missing ""
set title "Verdict agreement with the Linux 6.18 verifier, per corpus source"
# the source "own" (programs/src) holds the talk's worked examples, written
# so that wrapped ranges decide them differently from 6.18's bounds: where
# the run has it, the chart says that its disagreement is by design
load data."/agreement.vars.gp"
if (strstrt(" ".keys1, " own_(") > 0) {
    set label 10 "own: this project's examples, written to part wrapped ranges from 6.18's bounds (low agreement by design)" \
        at graph 0.5, graph -0.30 center font ",13" noenhanced
    set bmargin 8
}
set ylabel "programs with the kernel's verdict (%)"
set yrange [0:128]
set ytics 0,20,100
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.9 border -1
set boxwidth 0.9
set grid noxtics
set xtics rotate by -20 scale 0 noenhanced
set key top right horizontal box opaque noenhanced

trk = trk1
nt = words(trk)
# the export writes spaces inside a cell as '_': "source (n=N)" again
unus(s) = (strstrt(s, "_(") > 0 ? s[1:strstrt(s, "_(") - 1]." ".s[strstrt(s, "_(") + 1:] : s)
plot for [i = 1:nt] f using (column(i + 1)):xtic(unus(strcol(1))) lc rgb tcolour(word(trk, i), i) title word(trk, i)
