# kdiff_each.sh — sourced after tap.sh: kdiff_every_program OBJ WHAT [PREFIX]
# runs `rangebench kdiff` on every program of OBJ and requires identical
# logs, verdict and counts (exit 0, "logs agree"); a program is skipped with
# a note where bpf() is not permitted. WHAT names the object in the output;
# PREFIX (default none) goes before each program's name there.
# kdiff_one OBJ PROG [PREFIX]: the same for one program.
# kdiff_some OBJ WHAT PREFIX PROG...: the same for the programs named, in one
# kdiff process (each rangebench process of the sanitizer build costs about
# 0.3 s of CPU to start and end, and one per program was a sixth of the
# suite): each program's report is read between its "== OBJ:PROG" frames,
# and the process must end with the highest of their exit codes (a
# sanitizer report at exit fails the object).
kdiff_check() { # PROG PREFIX RC OUT: one program's checks
	local p=$1 pre=$2 rc=$3 out=$4
	if grep -q "verdict  kernel unavailable" "$out"; then
		ok "$pre$p agrees with the kernel # skip bpf() not permitted"
		return
	fi
	check "$pre$p: log, verdict and counts equal the kernel's" '[ $rc -eq 0 ] && grep -q "^logs agree" "$out"' "$out"
}
kdiff_one() {
	local obj=$1 p=$2 pre=${3:-} rc
	"$RB" kdiff "$obj:$p" >"$tmp/$p.out" 2>&1
	rc=$?
	kdiff_check "$p" "$pre" "$rc" "$tmp/$p.out"
}
kdiff_some() {
	local obj=$1 what=$2 pre=$3 p rc all all_rc worst=0 args=()
	shift 3
	# one program: kdiff's report of one program has no frames
	if [ $# -eq 1 ]; then
		kdiff_one "$obj" "$1" "$pre"
		return
	fi
	for p in "$@"; do args+=("$obj:$p"); done
	all=$tmp/kdiff.$(basename "$obj").all
	"$RB" kdiff "${args[@]}" >"$all" 2>&1
	all_rc=$?
	for p in "$@"; do
		awk -v h="== $obj:$p" 'index($0, h ": ") == 1 { exit } in_ { print } $0 == h { in_ = 1 }' "$all" >"$tmp/$p.out"
		case $(grep -Fx -e "== $obj:$p: agree" -e "== $obj:$p: differ" -e "== $obj:$p: error" "$all" | head -1) in
		*": agree") rc=0 ;;
		*": differ") rc=1 ;;
		*": error") rc=2 ;;
		*) rc=3; tail -20 "$all" >>"$tmp/$p.out" ;; # no end frame: the process died
		esac
		[ $rc -gt $worst ] && worst=$rc
		kdiff_check "$p" "$pre" "$rc" "$tmp/$p.out"
	done
	check "$pre$what: one kdiff of its $# programs exits with their highest code ($worst)" '[ $all_rc -eq $worst ]' "$all"
}
kdiff_every_program() {
	local obj=$1 what=$2 pre=${3:-} progs
	progs=$("$RB" load "$obj" 2>"$tmp/load.err" | awk '$1 == "prog" { print $2 }')
	check "the $what object lists its programs" '[ -n "$progs" ]' "$tmp/load.err"
	[ -n "$progs" ] || return
	# shellcheck disable=SC2086 # one word per program
	kdiff_some "$obj" "$what" "$pre" $progs
}
