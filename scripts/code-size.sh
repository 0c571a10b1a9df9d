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
find "$dir" -name '*.[ch]' | sort | while read -r f; do
	awk -v f="$f" '
	infn == 0 && /^[A-Za-z_].*\(/ && $0 !~ /;[ \t]*$/ && $0 !~ /^#/ {
		sig = NR; name = $0
		sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
	}
	infn == 0 && sig && (/^\{/ || (/\)[ \t]*\{[ \t]*$/ && NR == sig)) { infn = 1 }
	infn == 1 && /^\}/ { print NR - sig + 1, f ":" sig, name; infn = 0; sig = 0 }
	' "$f"
done | sort -rn | head -n "$n"
