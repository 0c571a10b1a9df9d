# kernels.gp — per corpus source, the share of programs each tracker of
# the run verifies exactly as the run's kernel image does (the first
# kernel of kernels.conf with rows, e.g. kernel-7.2: Linux 7.2 with
# cnum64/cnum32 in its verifier): same verdict and same instruction count,
# over the programs both verified (n per source). The running kernel's bar
# is how far 6.18 is from it; cnum-mainline's is how far the engine's
# emulation of the new tracker is.
#
# Data: <data>/kernels.tsv (from `rangebench plot`):
#   source (with the number of programs compared, at most), then one
#   column per tracker of the run (headed by its name): agreement in %
# By hand: gnuplot -e "data='plots/out/data'; out='plots/out/kernels'; fmt='png'" plots/kernels.gp

if (!exists("data")) data = "plots/out/data"
if (!exists("out")) out = "plots/out/kernels"
if (!exists("fmt")) fmt = "png"
if (!exists("plotdir")) plotdir = "plots"
load plotdir."/style.gp"

f = data."/kernels.tsv"
set datafile missing ""
set title "Same verdict and instructions as the kernel image (Linux 7.2), per corpus source"
set ylabel "programs verified as the kernel image does (%)"
set yrange [0:128]
set ytics 0,20,100
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.9 border -1
set boxwidth 0.9
set grid noxtics
set xtics rotate by -20 scale 0 noenhanced
set key top right horizontal box opaque noenhanced

load data."/kernels.vars.gp"
trk = trk1
nt = words(trk)
unus(s) = (strstrt(s, "_(") > 0 ? s[1:strstrt(s, "_(") - 1]." ".s[strstrt(s, "_(") + 1:] : s)
plot for [i = 1:nt] f using (column(i + 1)):xtic(unus(strcol(1))) lc rgb tcolour(word(trk, i), i) title word(trk, i)
