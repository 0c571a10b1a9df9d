# kdiff_each.sh — sourced after tap.sh: kdiff_every_program OBJ WHAT [PREFIX]
# runs `rangebench kdiff` on every program of OBJ and requires identical
# logs, verdict and counts (exit 0, "logs agree"); a program is skipped with
# a note where bpf() is not permitted. WHAT names the object in the output;
# PREFIX (default none) goes before each program's name there.
# kdiff_one OBJ PROG [PREFIX]: the same for one program.
kdiff_one() {
	local obj=$1 p=$2 pre=${3:-} rc
	"$RB" kdiff "$obj:$p" >"$tmp/$p.out" 2>&1
	rc=$?
	if grep -q "verdict  kernel unavailable" "$tmp/$p.out"; then
		ok "$pre$p agrees with the kernel # skip bpf() not permitted"
		return
	fi
	check "$pre$p: log, verdict and counts equal the kernel's" '[ $rc -eq 0 ] && grep -q "^logs agree" "$tmp/$p.out"' "$tmp/$p.out"
}
kdiff_every_program() {
	local obj=$1 what=$2 pre=${3:-} progs p
	progs=$("$RB" load "$obj" 2>"$tmp/load.err" | awk '$1 == "prog" { print $2 }')
	check "the $what object lists its programs" '[ -n "$progs" ]' "$tmp/load.err"
	for p in $progs; do
		kdiff_one "$obj" "$p" "$pre"
	done
}
