# style.gp — shared settings for every rangebench chart: output format and
# size (slides: 1600x900, 20 pt text), colours per tracker, data format.
# Each chart script loads this after setting `out` (file name without
# extension) and `fmt` ("png" or "svg").

if (fmt eq "svg") {
    set terminal svg size 1600,900 dynamic font "DejaVu Sans,20" background "white"
} else {
    set terminal pngcairo size 1600,900 font "DejaVu Sans,20" background "white"
}
set output out.".".fmt

# one colour per verifier, everywhere (Okabe-Ito, colour-blind safe):
# the registry's trackers by name, any other tracker by its position i
# (1, 2, ...) in a spare list; i_* are the same colours as numbers for
# "lc rgb variable"
i_old    = 0x0072B2
i_cnum   = 0xE69F00
i_kernel = 0x009E73
c_old    = sprintf("#%06x", i_old)
c_cnum   = sprintf("#%06x", i_cnum)
c_kernel = sprintf("#%06x", i_kernel)
c_cnum_ml = "#D55E00"
c_arc2   = "#CC79A7"
c_grey   = "#555555"
c_alert  = "#000000"
spare    = "#56B4E9 #F0E442 #999999 #8C564B"
tcolour(t, i) = (t eq "old" ? c_old : t eq "cnum" ? c_cnum : t eq "kernel" ? c_kernel : \
                 t eq "cnum-mainline" ? c_cnum_ml : t eq "arc2" ? c_arc2 : word(spare, 1 + (i - 1) % 4))
icolour(t, i) = int("0x".tcolour(t, i)[2:7])
# the baseline and the candidate of the pair charts (rangebench plot
# passes them; by hand, the defaults)
if (!exists("base")) base = "old"
if (!exists("cand")) cand = "cnum"
# what a chart needs to know about its data (the trackers, the rows) is
# in <data>/NAME.vars.gp, written by `rangebench plot` beside the data:
# no script starts a shell

set datafile separator "\t"
set datafile commentschars "#"
set border lw 1.5
set grid lc rgb "#dddddd" lw 1
set key noautotitle
set tics nomirror
set title font ",24"
