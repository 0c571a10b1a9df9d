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
# sanitizer report at exit fails the object). One awk splits the reports of
# all the programs (it was an awk, a grep, a head and two more greps per
# program, each about 10 ms of CPU here).
kdiff_check() { # PROG PREFIX RC OUT [UNAVAILABLE AGREE]: one program's checks
	local p=$1 pre=$2 rc=$3 out=$4 unavail=${5:-} agree=${6:-}
	if [ -z "$unavail" ]; then
		unavail=0 agree=0
		grep -q "verdict  kernel unavailable" "$out" && unavail=1
		grep -q "^logs agree" "$out" && agree=1
	fi
	if [ "$unavail" = 1 ]; then
		ok "$pre$p agrees with the kernel # skip bpf() not permitted"
		return
	fi
	check "$pre$p: log, verdict and counts equal the kernel's" '[ $rc -eq 0 ] && [ $agree = 1 ]' "$out"
}
kdiff_one() {
	local obj=$1 p=$2 pre=${3:-} rc
	"$RB" kdiff "$obj:$p" >"$tmp/$p.out" 2>&1
	rc=$?
	kdiff_check "$p" "$pre" "$rc" "$tmp/$p.out"
}
# kdiff_split ALL OBJ PROG...: each program's report (the lines between
# "== OBJ:PROG" and the first line starting "== OBJ:PROG: ") into
# $tmp/PROG.out, and one line per program on stdout: "PROG RC UNAVAILABLE
# AGREE", RC 0 agree, 1 differ, 2 error (its first "== OBJ:PROG: agree",
# ": differ" or ": error" line), 3 no such line (the process died: the
# report gets the last 20 lines of ALL); UNAVAILABLE 1 when the report
# says "verdict  kernel unavailable", AGREE 1 when a line starts "logs agree"
kdiff_split() {
	local all=$1 obj=$2
	shift 2
	awk -v obj="$obj" -v dir="$tmp" '
	BEGIN {
		for (i = 2; i < ARGC; i++) { p = ARGV[i]; n++; name[n] = p; h[p] = "== " obj ":" p; rc[p] = 3; ARGV[i] = "" }
		ARGC = 2
	}
	function body(p) {
		print > (dir "/" p ".out")
		printed[p] = 1
		if (index($0, "verdict  kernel unavailable")) un[p] = 1
		if (index($0, "logs agree") == 1) ag[p] = 1
	}
	{ last[NR % 20] = $0 }
	# a line that is not a frame only goes to the reports being read
	index($0, "== ") != 1 { for (p in act) body(p); next }
	{
		for (i = 1; i <= n; i++) {
			p = name[i]
			if (rc[p] == 3) {
				if ($0 == h[p] ": agree") rc[p] = 0
				else if ($0 == h[p] ": differ") rc[p] = 1
				else if ($0 == h[p] ": error") rc[p] = 2
			}
			if (done[p]) continue
			if (index($0, h[p] ": ") == 1) { done[p] = 1; delete act[p]; continue }
			if (p in act) body(p)
			if ($0 == h[p]) act[p] = 1
		}
	}
	END {
		for (i = 1; i <= n; i++) {
			p = name[i]; f = dir "/" p ".out"
			if (!printed[p]) printf "" > f
			close(f)
			if (rc[p] == 3)
				for (k = NR - 19; k <= NR; k++) if (k >= 1) print last[k % 20] >> f
			close(f)
			print p, rc[p], un[p] + 0, ag[p] + 0
		}
	}' "$all" "$@"
}
kdiff_some() {
	local obj=$1 what=$2 pre=$3 p rc un ag all all_rc worst=0 args=()
	shift 3
	# one program: kdiff's report of one program has no frames
	if [ $# -eq 1 ]; then
		kdiff_one "$obj" "$1" "$pre"
		return
	fi
	for p in "$@"; do args+=("$obj:$p"); done
	all=$tmp/kdiff.${obj##*/}.all
	"$RB" kdiff "${args[@]}" >"$all" 2>&1
	all_rc=$?
	kdiff_split "$all" "$obj" "$@" >"$all.res"
	while read -r p rc un ag; do
		[ $rc -gt $worst ] && worst=$rc
		# no end frame (rc 3): the checks read the report with the tail of ALL, as before
		[ $rc -eq 3 ] && un= ag=
		kdiff_check "$p" "$pre" "$rc" "$tmp/$p.out" "$un" "$ag"
	done <"$all.res"
	check "$pre$what: one kdiff of its $# programs exits with their highest code ($worst)" '[ $all_rc -eq $worst ]' "$all"
}
kdiff_every_program() {
	local obj=$1 what=$2 pre=${3:-} progs
	# a script that pins the object's counts (pin72.sh) has verify's rows
	# of every program anyway: their names, not a `load` more
	if declare -F rb_progs_v >/dev/null; then
		local rows
		rb_progs_v progs "$obj"
		rb_rows_f rows old "$obj"
		check "the $what object lists its programs (verify's rows)" '[ -n "$progs" ]' "$rows"
	else
		progs=$("$RB" load "$obj" 2>"$tmp/load.err" | awk '$1 == "prog" { print $2 }')
		check "the $what object lists its programs" '[ -n "$progs" ]' "$tmp/load.err"
	fi
	[ -n "$progs" ] || return
	# shellcheck disable=SC2086 # one word per program
	kdiff_some "$obj" "$what" "$pre" $progs
}
# kdiff_objects [-p] WHAT OBJ [WHAT OBJ]...: kdiff_every_program of each
# OBJ (WHAT names it; -p: each program's name prefixed "WHAT:"), with one
# `load` of all the objects and one kdiff of all their programs (two
# processes, not two per object): each object's checks as
# kdiff_every_program's (its reports read between its frames; its
# programs' highest code no more than the process's exit code), then the
# process exits with the highest code of all
kdiff_objects() {
	local pfx=0 i nprogs=0 line cur="" p pre all all_rc worst=0 ow rc un ag args=()
	local -a pl
	[ "$1" = -p ] && { pfx=1; shift; }
	local -a what=() objs=() progs=()
	while [ $# -ge 2 ]; do what+=("$1"); objs+=("$2"); progs+=(""); shift 2; done
	"$RB" load "${objs[@]}" >"$tmp/load.out" 2>"$tmp/load.err"
	while IFS= read -r line; do
		if [[ $line == "  prog "* ]]; then
			[ -n "$cur" ] || continue
			line=${line#  prog }
			progs[cur - 1]+="${line%% *} "
		elif [[ $line != " "* ]]; then
			cur=""
			for i in "${!objs[@]}"; do
				[[ $line == "${objs[i]}: "* ]] && cur=$((i + 1))
			done
		fi
	done <"$tmp/load.out"
	for i in "${!objs[@]}"; do
		check "the ${what[i]} object lists its programs" '[ -n "${progs[i]}" ]' "$tmp/load.err"
		for p in ${progs[i]}; do args+=("${objs[i]}:$p"); done
	done
	[ ${#args[@]} -gt 0 ] || return
	all=$tmp/kdiff.objects.all
	"$RB" kdiff "${args[@]}" >"$all" 2>&1
	all_rc=$?
	for i in "${!objs[@]}"; do
		[ -n "${progs[i]}" ] || continue
		ow=0 pre=""
		[ $pfx = 1 ] && pre="${what[i]}:"
		# shellcheck disable=SC2086 # one word per program
		kdiff_split "$all" "${objs[i]}" ${progs[i]} >"$all.res"
		while read -r p rc un ag; do
			[ $rc -gt $ow ] && ow=$rc
			[ $rc -eq 3 ] && un= ag=
			kdiff_check "$p" "$pre" "$rc" "$tmp/$p.out" "$un" "$ag"
		done <"$all.res"
		[ $ow -gt $worst ] && worst=$ow
		# (the prefix and the count in this shell: no $(...) or wc per program)
		# shellcheck disable=SC2206 # one word per program
		pl=(${progs[i]})
		nprogs=$((nprogs + ${#pl[@]}))
		check "${what[i]}: its programs' highest code ($ow) is no more than the one kdiff's exit code" '[ $ow -le $all_rc ]' "$all"
	done
	check "one kdiff of the $nprogs programs of ${what[*]}: exits with their highest code ($worst)" '[ $all_rc -eq $worst ]' "$all"
}
