#!/usr/bin/env bash
# kdiff.sh — `rangebench kdiff`: on real xdp-tools objects (Debian package)
# the engine's level-2 log, verdict, processed instructions and state
# counts equal the running kernel's (exit 0); bad usage exits 2. Kernel
# comparisons are skipped where bpf() is not permitted.
set -u
RB=${RB:-build/test/rangebench}
n=0
check() { n=$((n+1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi; }
skip() { n=$((n+1)); echo "ok $n - $1 # skip $2"; }

"$RB" kdiff >/dev/null 2>&1; rc=$?
check "no argument: exit 2" '[ $rc -eq 2 ]'
"$RB" kdiff /nonexistent.o:prog >/dev/null 2>&1; rc=$?
check "missing object: exit 2" '[ $rc -eq 2 ]'

dir=/usr/lib/x86_64-linux-gnu/bpf
for p in xdpfilt_alw_eth xdpfilt_dny_tcp xdpdump_xdp:xdpdump xsk_def_xdp_prog_5.3:xsk_def_prog; do
	obj=${p%%:*}; prog=${p##*:}
	if [ ! -f "$dir/$obj.o" ]; then skip "$p agrees with the kernel" "xdp-tools not installed"; continue; fi
	out=$("$RB" kdiff "$dir/$obj.o:$prog" 2>&1); rc=$?
	if echo "$out" | grep -q "verdict  kernel unavailable"; then skip "$p agrees with the kernel" "bpf() not permitted"; continue; fi
	check "$p: logs, verdict and counts agree with the kernel (exit 0)" '[ $rc -eq 0 ] && echo "$out" | grep -q "^logs agree"'
done
