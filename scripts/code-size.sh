#!/bin/sh
# code-size.sh [N] [DIR] — the N (default 10) largest C files and longest
# functions under DIR (default src), with line counts, so that the size
# figures of the architecture notes can be reproduced. A function is
# counted from the line that starts its definition at column 0 to its
# closing brace at column 0 (kernel style); plain POSIX sh and awk.
n=${1:-10}
dir=${2:-src}
echo "largest files (lines):"
find "$dir" -name '*.[ch]' -exec wc -l {} + | grep -v ' total$' | sort -rn | head -n "$n"
echo "longest functions (lines, file:line name):"
# one awk over every file (FNR restarts per file), not one awk per file
find "$dir" -name '*.[ch]' | sort | tr '\n' '\0' | xargs -0 awk '
	FNR == 1 { infn = 0; sig = 0 }
	infn == 0 && /^[A-Za-z_].*\(/ && $0 !~ /;[ \t]*$/ && $0 !~ /^#/ {
		sig = FNR; name = $0
		sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
	}
	infn == 0 && sig && (/^\{/ || (/\)[ \t]*\{[ \t]*$/ && FNR == sig)) { infn = 1 }
	infn == 1 && /^\}/ { print FNR - sig + 1, FILENAME ":" sig, name; infn = 0; sig = 0 }
	' | sort -rn | head -n "$n"
