# pin72.sh — sourced after tap.sh. pin72 OBJ:PROG K72 [K618] checks one
# program's "verdict,insns,states" in the engine's two profiles and on the
# running kernel: cnum-mainline@7.2 and old@7.2 must give K72 (Linux 7.2.13's
# counts, measured and recorded in the calling script), old (the 6.18
# profile) K618 (default K72), and the running kernel K618 where it
# verifies the program (skipped where it refuses it or bpf() is not
# permitted). rb_row / rb_msg TRACKER OBJ:PROG print that row's counts / CSV.
rb_row() { "$RB" verify --csv --tracker "$1" "$2" 2>/dev/null | awk -F, 'NR == 2 { print $3 "," $5 "," $6 }'; }
rb_msg() { "$RB" verify --csv --tracker "$1" "$2" 2>/dev/null | awk -F, 'NR == 2'; }
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
