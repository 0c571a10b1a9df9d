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
# the programs of the objects installed in one kdiff (one process, not one
# per program), each report read between its frames (kdiff_each.sh's
# kdiff_split): its first "== OBJ:PROG: agree" line and its "logs agree"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/cli/lib/kdiff_each.sh
args=()
for p in xdpfilt_alw_eth xdpfilt_dny_tcp xdpdump_xdp:xdpdump xsk_def_xdp_prog_5.3:xsk_def_prog; do
	obj=${p%%:*}; prog=${p##*:}
	[ -f "$dir/$obj.o" ] && args+=("$dir/$obj.o:$prog")
done
all_rc=0
[ ${#args[@]} -eq 0 ] || { "$RB" kdiff "${args[@]}" >"$tmp/all" 2>&1; all_rc=$?; }
for p in xdpfilt_alw_eth xdpfilt_dny_tcp xdpdump_xdp:xdpdump xsk_def_xdp_prog_5.3:xsk_def_prog; do
	obj=${p%%:*}; prog=${p##*:}
	if [ ! -f "$dir/$obj.o" ]; then skip "$p agrees with the kernel" "xdp-tools not installed"; continue; fi
	if [ ${#args[@]} -eq 1 ]; then # one program: a report without frames
		cp "$tmp/all" "$tmp/$prog.out"; rc=$all_rc
	else
		read -r _ rc _ _ < <(kdiff_split "$tmp/all" "$dir/$obj.o" "$prog")
	fi
	out=$(cat "$tmp/$prog.out")
	if echo "$out" | grep -q "verdict  kernel unavailable"; then skip "$p agrees with the kernel" "bpf() not permitted"; continue; fi
	check "$p: logs, verdict and counts agree with the kernel (exit 0)" '[ $rc -eq 0 ] && echo "$out" | grep -q "^logs agree"'
done
[ ${#args[@]} -lt 2 ] || check "one kdiff of the ${#args[@]} programs: exit 0" '[ $all_rc -eq 0 ]'
