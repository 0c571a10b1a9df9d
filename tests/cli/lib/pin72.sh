# pin72.sh — sourced after tap.sh. pin72 OBJ:PROG K72 [K618] checks one
# program's "verdict,insns,states" in the engine's two profiles and on the
# running kernel: cnum-mainline@7.2 and old@7.2 must give K72 (Linux 7.2.13's
# counts, measured and recorded in the calling script), old (the 6.18
# profile) K618 (default K72), and the running kernel K618 where it
# verifies the program (skipped where it refuses it or bpf() is not
# permitted). rb_row / rb_msg TRACKER OBJ:PROG print that row's counts / CSV.
#
# A tracker's rows of a whole object come from one `verify --csv` of every
# program, kept in $tmp for the script's later calls: each rangebench process
# of the sanitizer build costs about 0.3 s of CPU (ASan's start, LeakSanitizer's
# scan at exit, the kernel BTF), and one per tracker and program was a
# quarter of the suite. The rows are kept per tracker, object (its content)
# and RB_* environment; a program missing from them (the whole object did not
# verify) is verified alone, as before.
rb_csv() {
	local t=$1 obj=${2%:*} prog=${2##*:} key f
	key=$(printf '%s\n' "$t" "$obj" "$(md5sum <"$obj" 2>/dev/null)" "$(env | grep '^RB_' | sort)" | md5sum | cut -c1-16)
	f="$tmp/.rb_rows.$key.csv"
	[ -e "$f" ] || "$RB" verify --csv --tracker "$t" "$obj" >"$f" 2>/dev/null
	if ! awk -F, -v p="$prog" 'NR > 1 && $2 == p { print; found = 1; exit } END { exit !found }' "$f"; then
		"$RB" verify --csv --tracker "$t" "$2" 2>/dev/null | awk -F, 'NR == 2'
	fi
}
rb_row() { rb_csv "$1" "$2" | awk -F, '{ print $3 "," $5 "," $6 }'; }
rb_msg() { rb_csv "$1" "$2"; }
pin72() {
	local p=$1 k72=$2 k618=${3:-$2} name=${1##*:} t got
	for t in cnum-mainline@7.2 old@7.2; do
		got=$(rb_row "$t" "$p")
		check "$name: $t gives 7.2.13's $k72" '[ "$got" = "$k72" ]'
	done
	got=$(rb_row old "$p")
	check "$name: old (6.18 profile) gives $k618" '[ "$got" = "$k618" ]'
	got=$(rb_row kernel "$p")
	case $got in
	unavailable* | refused* | "") ok "$name: the running kernel gives $k618 # skip the kernel refuses it or bpf() is not permitted" ;;
	*) check "$name: the running kernel gives $k618" '[ "$got" = "$k618" ] || ! uname -r | grep -q "^6\.18\."' ;;
	esac
}
