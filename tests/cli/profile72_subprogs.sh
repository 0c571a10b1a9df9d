#!/usr/bin/env bash
# profile72_subprogs.sh — subprogram calls in the 7.2 profile
# (src/engine/profile.h subprog_stack_args, global_void_return) on
# tests/objects/profile72_subprogs.bpf.o: the 6.18 profile against the
# running kernel (kdiff: logs, verdicts and counts; skipped where bpf() is
# not permitted), the 7.2 profile pinned to Linux 7.2.13's verdicts and
# counts, measured 2026-12-06 with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/profile72_subprogs.bpf.o
# (Debian sid's 7.2.13 in QEMU; kdiff --kernel kernel-7.2 --trace: the same
# trace as cnum-mainline@7.2): call_six_args failure,6,0 ("callee expects 6
# args, stack arg1 is not initialized"; 6.18.44 success,13,1) and
# call_global_void success,6,0 (6.18.44 failure,1,0, "Caller passes invalid
# args into func#1 ('set_mark')").
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/profile72_subprogs.bpf.o
. tests/cli/lib/tap.sh

. tests/cli/lib/kdiff_each.sh
kdiff_every_program "$OBJ" profile72_subprogs

. tests/cli/lib/pin72.sh
pin72 "$OBJ:call_six_args" failure,6,0 success,13,1
pin72 "$OBJ:call_global_void" success,6,0 failure,1,0

rb_msg cnum-mainline@7.2 "$OBJ:call_six_args" >"$tmp/six.csv"
check "call_six_args @7.2: 7.2.13's message" 'grep -q ",\"callee expects 6 args, stack arg1 is not initialized\"$" "$tmp/six.csv"' "$tmp/six.csv"
"$RB" verify --log --tracker old@7.2 "$OBJ:call_global_void" >"$tmp/void72.log" 2>&1
check "call_global_void @7.2: the void function is verified and R0 is left uninitialised" \
	'grep -q "^Func#1 (.set_mark.) is safe for any args that match its prototype$" "$tmp/void72.log" && grep -q "^1: (b7) r0 = 0 *; R0=0$" "$tmp/void72.log"' "$tmp/void72.log"
"$RB" verify --log --tracker old "$OBJ:call_global_void" >"$tmp/void618.log" 2>&1
check "call_global_void (6.18): 6.18.44's refusal" \
	'grep -q "^Global function set_mark() doesn.t return scalar. Only those are supported.$" "$tmp/void618.log"' "$tmp/void618.log"
