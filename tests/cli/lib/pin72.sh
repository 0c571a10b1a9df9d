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
# quarter of the suite. The rows are kept per tracker, object and RB_*
# environment (a file in $tmp, named in $tmp/.rb_rows.idx), and made again
# when the object is newer than them; a program missing from them (the
# whole object did not verify) is verified alone, as before.
#
# Everything here but rangebench itself is bash: no awk, md5sum, env or
# grep per program (they were 30 processes per pinned program, each about
# 10 ms of CPU on these machines: most of the CPU of the scripts that pin).

# rb_csv_v VAR TRACKER OBJ:PROG: VAR = the program's CSV row ("" if none)
rb_csv_v() {
	local _c_t=$2 _c_obj=${3%:*} _c_prog=${3##*:} _c_key _c_n _c_f="" _c_line _c_rest _c_row="" _c_e="" _c_i=0
	for _c_n in "${!RB_@}"; do
		[[ ${!_c_n@a} == *x* ]] && _c_e+=$'\t'"$_c_n=${!_c_n}"
	done
	_c_key="$_c_t"$'\t'"$_c_obj$_c_e"
	_c_key=${_c_key//$'\n'/\\n}
	if [ -e "$tmp/.rb_rows.idx" ]; then
		while IFS= read -r _c_line; do
			_c_i=$((_c_i + 1))
			[ "${_c_line#*$'\t'}" = "$_c_key" ] && { _c_f="$tmp/.rb_rows.${_c_line%%$'\t'*}.csv"; break; }
		done <"$tmp/.rb_rows.idx"
	fi
	if [ -z "$_c_f" ]; then
		_c_f="$tmp/.rb_rows.$((_c_i + 1)).csv"
		printf '%s\t%s\n' "$((_c_i + 1))" "$_c_key" >>"$tmp/.rb_rows.idx"
		"$RB" verify --csv --tracker "$_c_t" "$_c_obj" >"$_c_f" 2>/dev/null
	elif [ "$_c_obj" -nt "$_c_f" ]; then
		"$RB" verify --csv --tracker "$_c_t" "$_c_obj" >"$_c_f" 2>/dev/null
	fi
	{
		read -r _c_line # the header
		while IFS= read -r _c_line || [ -n "$_c_line" ]; do
			_c_rest=${_c_line#*,}
			[ "$_c_rest" != "$_c_line" ] && [ "${_c_rest%%,*}" = "$_c_prog" ] && { _c_row=$_c_line; break; }
			_c_line=""
		done
	} <"$_c_f"
	if [ -z "$_c_row" ]; then
		"$RB" verify --csv --tracker "$_c_t" "$3" >"$tmp/.rb_one.csv" 2>/dev/null
		{ read -r _c_line && IFS= read -r _c_row; } <"$tmp/.rb_one.csv"
	fi
	printf -v "$1" '%s' "$_c_row"
}
# rb_row_v VAR TRACKER OBJ:PROG: VAR = "verdict,insns,states" (fields 3, 5, 6), "" if no row
rb_row_v() {
	local _r_row
	rb_csv_v _r_row "$2" "$3"
	if [ -z "$_r_row" ]; then
		printf -v "$1" '%s' ""
		return
	fi
	local _r_a IFS=,
	local -
	set -f
	_r_a=($_r_row)
	printf -v "$1" '%s,%s,%s' "${_r_a[2]-}" "${_r_a[4]-}" "${_r_a[5]-}"
}
rb_csv() { local _p_r; rb_csv_v _p_r "$1" "$2"; [ -z "$_p_r" ] || printf '%s\n' "$_p_r"; }
rb_row() { local _p_r; rb_row_v _p_r "$1" "$2"; [ -z "$_p_r" ] || printf '%s\n' "$_p_r"; }
rb_msg() { rb_csv "$1" "$2"; }
pin72() {
	local p=$1 k72=$2 k618=${3:-$2} name=${1##*:} t got
	for t in cnum-mainline@7.2 old@7.2; do
		rb_row_v got "$t" "$p"
		check "$name: $t gives 7.2.13's $k72" '[ "$got" = "$k72" ]'
	done
	rb_row_v got old "$p"
	check "$name: old (6.18 profile) gives $k618" '[ "$got" = "$k618" ]'
	rb_row_v got kernel "$p"
	case $got in
	unavailable* | refused* | "") ok "$name: the running kernel gives $k618 # skip the kernel refuses it or bpf() is not permitted" ;;
	*) check "$name: the running kernel gives $k618" '[ "$got" = "$k618" ] || ! uname -r | grep -q "^6\.18\."' ;;
	esac
}
# rb_logs TRACKER OBJ PROG...: one `verify --log --tracker TRACKER
# OBJ:PROG...` of all the programs named, PROG's part of that log (from its
# "=== FILE:PROG (TRACKER) ===" line to the next such line) in
# $tmp/PROG.vlog: one process, not one per program (~0.25 s of CPU each)
rb_logs() {
	local _l_t=$1 _l_o=$2 _l_p _l_a=()
	shift 2
	for _l_p; do _l_a+=("$_l_o:$_l_p"); done
	"$RB" verify --log --tracker "$_l_t" "${_l_a[@]}" >"$tmp/.rb_logs.all" 2>&1
	awk -v dir="$tmp" -v tr="($_l_t)" '/^=== .* ===$/ && $3 == tr { f = $2; sub(/^[^:]*:/, "", f); f = dir "/" f ".vlog" }
		f { print >f }' "$tmp/.rb_logs.all"
}
