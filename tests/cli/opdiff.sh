#!/usr/bin/env bash
# opdiff: the old tracker against the running kernel on a few hundred
# random programs (needs bpf(); says so and passes where it is refused),
# plus bad usage.
set -u
RB=${RB:-build/test/rangebench}
n=0
check() { # name, condition result (0 = ok)
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi
}

out=$("$RB" opdiff --cases 300 --seed 11 --show 3 2>&1); rc=$?
if grep -q '^opdiff: skipped:' <<<"$out"; then
	check "opdiff skips where bpf() is refused (exit 0)" "$rc"
else
	echo "$out" | tail -40
	check "opdiff: 300 cases, 0 mismatches against the kernel" "$rc"
	grep -q 'opdiff: tracker old vs kernel, seed 11: 300 cases, 0 rejected by the kernel, 0 not replayable' <<<"$out"
	check "opdiff: every generated program loads and replays" $?
fi

"$RB" opdiff --cases 0 >/dev/null 2>&1; [ $? -eq 2 ]; check "opdiff --cases 0 is bad usage" $?
"$RB" opdiff --cases 12x >/dev/null 2>&1; [ $? -eq 2 ]; check "opdiff --cases 12x is bad usage" $?
"$RB" opdiff --cases 1000000000 >/dev/null 2>&1; [ $? -eq 2 ]; check "opdiff: absurd case count is bad usage" $?
"$RB" opdiff --tracker nope >/dev/null 2>&1; [ $? -eq 2 ]; check "opdiff: unknown tracker is bad usage" $?
msg=$("$RB" opdiff --bogus 2>&1 >/dev/null); [ $? -eq 2 ] && [ -n "$msg" ]; check "opdiff: unknown option is bad usage with a message" $?
