#!/usr/bin/env bash
# irq_flags.sh — IRQ-disabled and preemption-disabled regions
# (src/engine/irq_flags.c) on tests/objects/irq_flags.bpf.o: every
# program's log, verdict and counts equal the running kernel's (Linux
# 6.18.44, kdiff), and both engine profiles give what Linux 7.2.13 gave in
# its QEMU guest (2026-12-06), measured with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/irq_flags.bpf.o
# The two kernels give the same counts; their messages name the argument
# differently (6.18.44 "arg#0", 7.2.13 "R1") and the refusal of a global
# function that might sleep differently (rcu.c). Before: every program was
# unsupported (bpf_local_irq_save / _restore had no recorded flags,
# bpf_res_spin_lock_irqsave was "not modelled", bpf_preempt_disable /
# _enable were refused as special kfuncs).
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/irq_flags.bpf.o
. tests/cli/lib/tap.sh
. tests/cli/lib/pin72.sh
. tests/cli/lib/kdiff_each.sh

kdiff_every_program "$OBJ" irq_flags

# program|7.2.13's verdict,insns,states (6.18.44's are the same)
while IFS='|' read -r prog want; do
	pin72 "$OBJ:$prog" "$want"
done <<'ROWS'
irq_pair|success,8,0
irq_lifo|success,14,1
irq_ooo|failure,10,1
irq_missing|failure,5,0
irq_cond|failure,14,1
irq_branches|success,21,2
irq_two_saves|success,19,2
irq_restore_unsaved|failure,5,0
irq_save_twice|failure,6,0
irq_read_flag|failure,5,0
irq_overwrite|failure,8,0
irq_global_flag|failure,2,0
irq_null_flag|failure,2,0
irq_subprogs|success,12,1
irq_tail_call|failure,9,0
irq_global_awake|success,15,1
irq_lock_pair|success,21,1
irq_lock_class|failure,16,1
irq_lock_native|failure,12,0
preempt_pair|success,4,0
preempt_nested|success,6,0
preempt_unmatched|failure,1,0
preempt_missing|failure,5,0
preempt_cond|failure,10,1
preempt_branches|success,15,1
preempt_tail_call|failure,6,0
irq_preempt_both|success,10,1
irq_sleepable_helper|failure,10,0
irq_sleepable_kfunc|failure,11,0
irq_global_sleepy|failure,9,1
preempt_sleepable_helper|failure,7,0
preempt_sleepable_kfunc|failure,8,0
preempt_global_sleepy|failure,6,0
ROWS

msg() { # TRACKER PROG TEXT: the program's error contains TEXT
	rb_msg "$1" "$OBJ:$2" | grep -qF "$3"
}
check "restores out of order are refused, naming the flag expected" \
	'msg old irq_ooo "cannot restore irq state out of order, expected id=2 acquired at insn_idx=7"'
check "an exit with IRQs disabled is refused" \
	'msg cnum-mainline@7.2 irq_missing "BPF_EXIT instruction in main prog cannot be used inside bpf_local_irq_save-ed region"'
check "the flag's slot is printed as f bytes and the flag is a reference" \
	'"$RB" verify --log --tracker old "$OBJ:irq_lifo" 2>&1 | grep -q "call bpf_local_irq_save#[0-9]* *; fp-16=ffffffff refs=1,2$"'
check "a flag saved by the lock kfunc is of another kind" \
	'msg old irq_lock_class "irq flag acquired by native kfuncs cannot be restored with lock kfuncs"'
check "no sleepable kfunc with IRQs disabled" \
	'msg old irq_sleepable_kfunc "kernel func bpf_copy_from_user_str is sleepable within IRQ-disabled region"'
check "7.2 names the global function and the region" \
	'msg cnum-mainline@7.2 preempt_global_sleepy "sleepable global function sleepy() called in non-preemptible region"'
check "an enable without a disable is refused" \
	'msg old preempt_unmatched "unmatched attempt to enable preemption (kernel function bpf_preempt_enable)"'
check "a tail call with preemption disabled is refused" \
	'msg cnum-mainline@7.2 preempt_tail_call "tail_call cannot be used inside bpf_preempt_disable-ed region"'
