#!/usr/bin/env bash
# Runs every test: the cmocka unit-test binaries built from tests/unit/ and
# the command-line tests in tests/cli/*.sh (each gets the sanitizer-built
# CLI as $RB). Suites run side by side, RB_TEST_JOBS at a time (default: one
# more than the cores, as some suites wait while others compute; every
# suite works in its own scratch directory), the slowest of the previous
# run (in a fresh build: of tests/suite-times) first. Prints
# each suite's result and times as it ends (wall and CPU seconds; all of
# them, slowest first, in $bindir/suite-times), then the output of the
# failing suites, and ends with "N passed, N failed".
set -u
bindir=${1:-build/test}
export RB="$bindir/rangebench"
export RB_TEST_BIN="$bindir"
# handle_sigill=1: undefined behaviour traps as an illegal instruction
# (the Makefile's SAN_FLAGS: no UBSan runtime); ASan then prints where
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:handle_sigill=1}
# one more suite than cores: of the 430 s the suites of an idle run took
# side by side on 2 cores (tests/suite-times of c6faef3: 397 s of CPU), 42 s
# were suites waiting (cli/guest booting 47 s for 38 s of CPU, run_signals
# 11 s for 5 s, run_compare, run_isolation); a third suite computes
# meanwhile. A model of those times (each suite asking for its CPU/wall
# share of the 2 cores, shared fairly) gives 218 s for 2 at a time (the run
# took 220 s), 199 s for 3 (the CPU's 198 s), no gain for 4.
jobs=${RB_TEST_JOBS:-$(($(nproc 2>/dev/null || echo 1) + 1))}
times_file="$bindir/suite-times"
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

# While `make test` still builds (RB_TEST_LATE: the file its second make
# writes its exit status to when done), a unit test's binary is ready once
# $bindir/ready/NAME exists (made after the binary); the command-line
# suites' inputs are all there before this script starts.
late=${RB_TEST_LATE:-}

# every suite as "unit:NAME" or "cli:NAME", in the order results are summed
# (while the build goes on: every tests/unit/test_*.c, built or not)
suites=()
if [ -n "$late" ]; then
	for t in tests/unit/test_*.c; do
		[ -f "$t" ] && { t=${t##*/}; suites+=("unit:${t%.c}"); }
	done
else
	for t in "$bindir"/test_*; do
		[ -x "$t" ] && [ -f "$t" ] && suites+=("unit:${t##*/}")
	done
fi
for s in tests/cli/*.sh; do
	[ -f "$s" ] && { s=${s##*/}; suites+=("cli:${s%.sh}"); }
done

# start order: by the previous run's wall time, slowest first (a suite the
# file does not know counts as slow); a fresh build takes the times of
# tests/suite-times (committed: a full run's $bindir/suite-times), so that
# its slowest suites do not start last
order=()
tf=$times_file
[ -s "$tf" ] || tf=tests/suite-times
if [ -s "$tf" ]; then
	while read -r s; do order+=("$s"); done < <(
		printf '%s\n' "${suites[@]}" | awk 'NR == FNR {w[$4] = $1; next}
			{print ($0 in w ? w[$0] : 99999), $0}' "$tf" - | sort -s -k1,1nr | cut -d' ' -f2)
else
	order=("${suites[@]}")
fi

# seconds with three decimals ("12.345", as TIMEFORMAT's %3R writes them) as
# milliseconds, and back with one decimal: bash arithmetic, no process
ms() { local x=${2/./}; printf -v "$1" '%d' $((10#${x:-0})); }
secs() { local t=$((($2 + 50) / 100)); printf -v "$1" '%d.%d' $((t / 10)) $((t % 10)); }

# the lines of file $2 that match the extended regular expression $3,
# counted into variable $1 (distinct lines if $4 is set). Bash's own
# matching where the output is short, as it nearly always is: each grep,
# sort and wc a suite's result was counted with was a process of ~4 ms
# (tests/run.sh started about 2,300 processes of its own in a CI run of
# f380b87, process accounting); a bash loop costs ~10 us a line, so a long
# output goes to grep
count() {
	local -n n=$1
	local line lines
	local -A seen=()
	mapfile -t lines <"$2"
	if [ ${#lines[@]} -gt 2000 ]; then
		if [ -n "${4:-}" ]; then
			n=$(grep -E -- "$3" "$2" | sort -u | wc -l)
		else
			n=$(grep -cE -- "$3" "$2")
		fi
		return 0
	fi
	n=0
	for line in "${lines[@]}"; do
		[[ $line =~ $3 ]] || continue
		if [ -n "${4:-}" ]; then
			[ -z "${seen[$line]+x}" ] || continue
			seen[$line]=1
		fi
		n=$((n + 1))
	done
}

# one suite: its output in $log/ID.out, "passed failed wall user sys" in $log/ID.res
run_suite() {
	local s=$1 id=${1/:/_} name=${1#*:} rc p f wall user sys cpu
	local TIMEFORMAT='%3R %3U %3S'
	printf '%(%s)T\n' -1 >"$log/$id.start"
	{
		time {
			if [ "${s%%:*}" = unit ]; then
				CMOCKA_MESSAGE_OUTPUT=stdout "$bindir/$name" >"$log/$id.out" 2>&1
			else
				bash "tests/cli/$name.sh" >"$log/$id.out" 2>&1
			fi
			echo $? >"$log/$id.rc"
		}
	} 2>"$log/$id.time"
	read -r rc <"$log/$id.rc"
	if [ "${s%%:*}" = unit ]; then
		count p "$log/$id.out" '^\[       OK \]'
		# cmocka names a failed test twice (when it fails and in the
		# summary) and prints "[  FAILED  ] N test(s)": count distinct names
		count f "$log/$id.out" '^\[  FAILED  \] [a-z_][a-z_0-9]*$' distinct
		label=$name
	else
		count p "$log/$id.out" '^ok '
		count f "$log/$id.out" '^not ok '
		label=cli/$name
	fi
	# a crash or sanitizer abort counts as a failure even if the suite did not say so
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	read -r wall user sys <"$log/$id.time"
	echo "$p $f $wall $user $sys" >"$log/$id.res"
	ms wall "$wall"; ms user "$user"; ms sys "$sys"
	secs wall "$wall"
	secs cpu $((user + sys))
	printf '%-40s %4d passed %4d failed %7ss wall %7ss cpu\n' "$label" "$p" "$f" "$wall" "$cpu"
	printf '%(%s)T\n' -1 >"$log/printed"
}

# a line at least every 10 s while suites run (issue 26: no step silent
# for more than 10 s): when nothing has been printed for 8 s (looked at
# every second: 9 s at most between lines; 10 s and 2 s gave 11 s), the suites still
# running and for how long (times are seconds written to files with
# printf's %(%s)T and read back with read; the second's wait is a read
# timing out on $nap: no process at all). Not a job of this shell
# (disowned), so the parallel start below does not count it and `wait`
# does not wait for it.
ticker() {
	local now last f id t0 line
	while ! read -r -t 1 -u "$nap"; do
		printf -v now '%(%s)T' -1
		read -r last <"$log/printed" 2>/dev/null || continue
		[ $((now - last)) -ge 8 ] || continue
		line=""
		for f in "$log"/*.start; do
			[ -e "$f" ] || continue
			id=${f##*/} id=${id%.start}
			read -r t0 <"$f" || continue
			[ -e "$log/$id.res" ] || line="$line ${id/_//} ($((now - t0)) s)"
		done
		[ -z "$line" ] || echo "... still running:$line"
		echo "$now" >"$log/printed"
	done
}
# a pipe this shell holds both ends of, never written: a read on it with
# -t N waits N seconds (the builtin sleep of this script: an external sleep
# is a process, 144 of them a CI run)
exec {nap}<> <(:)
printf '%(%s)T\n' -1 >"$log/printed"
ticker &
tick=$!
disown "$tick"
trap 'kill "$tick" 2>/dev/null; rm -rf "$log"' EXIT

# a suite can start when its inputs are built (or the build ended: a unit
# test whose binary is missing then fails); the first of the order that
# can, else a look again half a second later
ready() {
	[ -z "$late" ] || [ "${1%%:*}" != unit ] || [ -e "$bindir/ready/${1#*:}" ] || [ -e "$late" ]
}
pending=("${order[@]}")
while [ ${#pending[@]} -gt 0 ]; do
	# the suites running: `jobs` into a file and back (a $(...) here was
	# a subshell and a wc at every start)
	while jobs -rp >"$log/jobs"; mapfile -t running <"$log/jobs"; [ ${#running[@]} -ge "$jobs" ]; do
		wait -n
	done
	next=(); started=
	for s in "${pending[@]}"; do
		if [ -z "$started" ] && ready "$s"; then
			run_suite "$s" &
			started=1
		else
			next+=("$s")
		fi
	done
	pending=("${next[@]}")
	[ -n "$started" ] || read -r -t 0.5 -u "$nap" || true
done
wait
kill "$tick" 2>/dev/null

passed=0; failed=0; failures=()
: >"$log/times"
for s in "${suites[@]}"; do
	id=${s/:/_}
	if [ -s "$log/$id.res" ]; then
		read -r p f wall user sys <"$log/$id.res"
	else
		p=0; f=1; wall=0; user=0; sys=0
	fi
	passed=$((passed + p)); failed=$((failed + f))
	echo "$wall $user $sys $s" >>"$log/times"
	[ "$f" -ne 0 ] || continue
	if [ "${s%%:*}" = unit ]; then
		failures+=("${s#*:}")
		echo "== ${s#*:}:"
		sed 's/^/    /' "$log/$id.out" | grep -v '^\s*\[ RUN' | tail -80
	else
		failures+=("cli/${s#*:}")
		echo "== cli/${s#*:}:"
		tail -40 "$log/$id.out" | sed 's/^/    /'
	fi
done
sort -k1,1nr "$log/times" >"$times_file" 2>/dev/null || true

[ ${#failures[@]} -ne 0 ] && echo "failing suites: ${failures[*]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
