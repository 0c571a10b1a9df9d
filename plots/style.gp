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

# one colour per verifier, everywhere (Okabe-Ito, colour-blind safe);
# i_* are the same colours as numbers for "lc rgb variable"
i_old    = 0x0072B2
i_cnum   = 0xE69F00
i_kernel = 0x009E73
c_old    = sprintf("#%06x", i_old)
c_cnum   = sprintf("#%06x", i_cnum)
c_kernel = sprintf("#%06x", i_kernel)
c_grey   = "#555555"
c_alert  = "#CC00AA"

set datafile separator "\t"
set datafile commentschars "#"
set border lw 1.5
set grid lc rgb "#dddddd" lw 1
set key noautotitle
set tics nomirror
set title font ",24"
