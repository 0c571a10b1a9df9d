# state_bytes.gp — memory per state: bytes of value tracking, of one
# register state and of one stored verifier state (one frame), for every
# registry tracker and the running kernel (its 112-byte struct
# bpf_reg_state, of which 64 bytes are the scalar bounds), then the
# kernel's structs with mainline's cnum64 + cnum32 in place of its eight
# bounds ("kernel-cnum"); and, measured, the peak bytes of verifier states
# (as allocated) summed over the programs every userspace tracker accepted.
#
# Data: <data>/state_bytes.tsv (from `rangebench plot`):
#   tracker value_bytes reg_state_bytes state_bytes state_mib   (empty = not measured)
# By hand: gnuplot -e "data='plots/out/data'; out='plots/out/state_bytes'; fmt='png'" plots/state_bytes.gp

if (!exists("data")) data = "plots/out/data"
if (!exists("out")) out = "plots/out/state_bytes"
if (!exists("fmt")) fmt = "png"
if (!exists("plotdir")) plotdir = "plots"
load plotdir."/style.gp"

f = data."/state_bytes.tsv"
set datafile missing ""
# the tallest bar of each panel, for headroom above the value labels
array top[5]
do for [col = 2:5] {
    stats f using (valid(col) ? column(col) : 0) nooutput
    top[col] = STATS_max
}
stats f using 2 nooutput
nrow = STATS_records
set style fill solid 0.9 border -1
set boxwidth 0.7
set xrange [-0.6:nrow - 0.4]
set grid noxtics

# two by two: each panel wide enough for every tracker's name and value
set xtics noenhanced rotate by -20 scale 0 font ",16"
set ytics font ",16"
set tmargin 3
set multiplot layout 2,2 title "Bytes per state, per tracker and the Linux 6.18 kernel" font ",24"
do for [col = 2:5] {
    if (col == 2) { set title "scalar value tracking (bytes)" font ",20" }
    if (col == 3) { set title "one register state (bytes)" font ",20" }
    if (col == 4) { set title "stored state, one frame (bytes)" font ",20" }
    if (col == 5) { set title "measured: peak state MiB, programs all accept" font ",20" }
    set yrange [0:(top[col] > 0 ? top[col] : 1) * 1.3]
    plot f using 0:col:(icolour(strcol(1) eq "kernel-cnum" ? "kernel" : strcol(1), int($0) + 1)):xtic(1) with boxes lc rgb variable, \
         f using 0:(valid(col) ? column(col) : 0):(!valid(col) ? "" : col == 5 ? sprintf("%.1f", column(col)) : sprintf("%d", int(column(col)))) with labels offset 0,0.8 font ",16"
}
unset multiplot
