#!/usr/bin/env bash
# timers.sh — struct bpf_timer in map values (src/engine/timers.c, the
# async callback in callbacks.c) against the running kernel: on every
# program of tests/objects/timers.bpf.o (a timer's full life; the timer of
# another map, a direct load, a wrong offset, a timer map in a tracing
# program; the map_uid of inner maps with timers) `rangebench kdiff` must
# report identical level-2 logs, verdicts and counts (exit 0). Skipped with
# a note where bpf() is not permitted. The map_uid programs are pinned to
# Linux 7.2.13's verdicts and counts, measured 2026-12-06 with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/timers.bpf.o
# (Debian sid's 7.2.13 in QEMU; kdiff --kernel kernel-7.2 --trace: the same
# trace as cnum-mainline@7.2), the same as 6.18.44. Without map_uid the
# engine gave timer_mim_other success,31,2 and timer_mim_join success,44,4
# (the second path pruned at the join).
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/timers.bpf.o
. tests/cli/lib/tap.sh

. tests/cli/lib/kdiff_each.sh
kdiff_every_program "$OBJ" timers

. tests/cli/lib/pin72.sh
pin72 "$OBJ:timer_mim_same" success,40,3
pin72 "$OBJ:timer_mim_other" failure,27,1
pin72 "$OBJ:timer_mim_join" success,50,4
rb_msg cnum-mainline@7.2 "$OBJ:timer_mim_other" >"$tmp/other.csv"
check "timer_mim_other @7.2: 7.2.13's message" \
	'grep -q ",timer pointer in R1 map_uid=1 doesn.t match map pointer in R2 map_uid=2$" "$tmp/other.csv"' "$tmp/other.csv"
