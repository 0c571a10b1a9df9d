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
# quarter of the suite. The rows of the trackers pin72 reads (RB_ROWS_TOGETHER)
# come from one `verify --csv` with all of them (a --tracker each: a tracker
# column, each tracker's rows as its own verify prints them, which
# cli/verify.sh checks), split per tracker: one process per object, not
# four. The rows are kept per tracker, object and RB_*
# environment (a file in $tmp, named in $tmp/.rb_rows.idx), and made again
# when the object is newer than them; a program missing from them (the
# whole object did not verify) is verified alone, as before.
#
# Everything here but rangebench itself is bash: no awk, md5sum, env or
# grep per program (they were 30 processes per pinned program, each about
# 10 ms of CPU on these machines: most of the CPU of the scripts that pin).

RB_ROWS_TOGETHER=${RB_ROWS_TOGETHER:-cnum-mainline@7.2 old@7.2 old kernel}
# rb_rows_split CSV DEST FIRST TRACKER...: the rows of one `verify --csv`
# with a --tracker per TRACKER (file_name,prog_name,tracker,...) into
# DEST.N.csv for the Nth TRACKER, N counted from FIRST (the files' final
# names: no mv per tracker), in the columns of a verify with that tracker
# alone (no tracker column); a tracker without rows gets the header only
rb_rows_split() {
	local _s_csv=$1 _s_dest=$2 _s_first=$3 _s_line _s_t _s_i _s_hdr="" _s_a _s_b
	shift 3
	local -a _s_out=()
	{
		IFS= read -r _s_line && { _s_a=${_s_line%%,*}; _s_b=${_s_line#*,}; _s_hdr=$_s_a,${_s_b%%,*},${_s_b#*,*,}; }
		while IFS= read -r _s_line || [ -n "$_s_line" ]; do
			_s_a=${_s_line%%,*} _s_b=${_s_line#*,}
			_s_t=${_s_b#*,} _s_t=${_s_t%%,*}
			_s_i=1
			for _s_n; do
				[ "$_s_n" = "$_s_t" ] && { _s_out[_s_i]+=$_s_a,${_s_b%%,*},${_s_b#*,*,}$'\n'; break; }
				_s_i=$((_s_i + 1))
			done
			_s_line=""
		done
	} <"$_s_csv"
	_s_i=1
	for _s_n; do
		[ -n "$_s_hdr" ] && printf '%s\n%s' "$_s_hdr" "${_s_out[_s_i]-}" >"$_s_dest.$((_s_first + _s_i - 1)).csv"
		[ -n "$_s_hdr" ] || : >"$_s_dest.$((_s_first + _s_i - 1)).csv"
		_s_i=$((_s_i + 1))
	done
}
# rb_rows_f VAR TRACKER OBJ: VAR = the file of TRACKER's rows of the whole
# OBJ (verify --csv), made if not made yet
rb_rows_f() {
	local _f_t=$2 _f_obj=$3 _f_key _f_n _f_f="" _f_line _f_e="" _f_i=0
	for _f_n in "${!RB_@}"; do
		[[ ${!_f_n@a} == *x* ]] && _f_e+=$'\t'"$_f_n=${!_f_n}"
	done
	_f_key="$_f_t"$'\t'"$_f_obj$_f_e"
	_f_key=${_f_key//$'\n'/\\n}
	if [ -e "$tmp/.rb_rows.idx" ]; then
		while IFS= read -r _f_line; do
			_f_i=$((_f_i + 1))
			[ "${_f_line#*$'\t'}" = "$_f_key" ] && { _f_f="$tmp/.rb_rows.${_f_line%%$'\t'*}.csv"; break; }
		done <"$tmp/.rb_rows.idx"
	fi
	if [ -z "$_f_f" ] && [[ " $RB_ROWS_TOGETHER " == *" $_f_t "* ]]; then
		# every tracker of RB_ROWS_TOGETHER at once (those of this object
		# and environment not made yet: none, as they are made together)
		local _f_tr=() _f_trk _f_args=()
		for _f_trk in $RB_ROWS_TOGETHER; do
			_f_tr+=("$_f_trk") _f_args+=(--tracker "$_f_trk")
		done
		"$RB" verify --csv "${_f_args[@]}" "$_f_obj" >"$tmp/.rb_rows.all.csv" 2>/dev/null
		rb_rows_split "$tmp/.rb_rows.all.csv" "$tmp/.rb_rows" $((_f_i + 1)) "${_f_tr[@]}"
		for _f_n in "${!_f_tr[@]}"; do
			_f_trk=${_f_tr[_f_n]}$'\t'$_f_obj$_f_e
			_f_trk=${_f_trk//$'\n'/\\n}
			_f_i=$((_f_i + 1))
			printf '%s\t%s\n' "$_f_i" "$_f_trk" >>"$tmp/.rb_rows.idx"
			[ "${_f_tr[_f_n]}" = "$_f_t" ] && _f_f="$tmp/.rb_rows.$_f_i.csv"
		done
	elif [ -z "$_f_f" ]; then
		_f_f="$tmp/.rb_rows.$((_f_i + 1)).csv"
		printf '%s\t%s\n' "$((_f_i + 1))" "$_f_key" >>"$tmp/.rb_rows.idx"
		"$RB" verify --csv --tracker "$_f_t" "$_f_obj" >"$_f_f" 2>/dev/null
	elif [ "$_f_obj" -nt "$_f_f" ]; then
		"$RB" verify --csv --tracker "$_f_t" "$_f_obj" >"$_f_f" 2>/dev/null
	fi
	printf -v "$1" '%s' "$_f_f"
}
# rb_csv_v VAR TRACKER OBJ:PROG: VAR = the program's CSV row ("" if none)
rb_csv_v() {
	local _c_t=$2 _c_prog=${3##*:} _c_f _c_line _c_rest _c_row=""
	rb_rows_f _c_f "$_c_t" "${3%:*}"
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
# rb_progs_v VAR OBJ: VAR = the names of OBJ's programs, one a line, from
# old's rows of the whole object (made with the other trackers': the
# suites that pin an object list its programs for kdiff_each.sh that way,
# not with a `rangebench load` more); "" if none
rb_progs_v() {
	local _g_f _g_line _g_rest _g_out=""
	rb_rows_f _g_f old "$2"
	{
		read -r _g_line # the header
		while IFS= read -r _g_line || [ -n "$_g_line" ]; do
			_g_rest=${_g_line#*,}
			[ "$_g_rest" != "$_g_line" ] && _g_out+=${_g_rest%%,*}$'\n'
			_g_line=""
		done
	} <"$_g_f"
	printf -v "$1" '%s' "$_g_out"
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
