/* profile.h — kernel profiles of the engine. The engine follows Linux
 * 6.18.44; a profile names the kernel whose verifier it follows instead,
 * as a set of switches: each field below is one behaviour that differs
 * between 6.18.44 and the profile's kernel, with the kernel code (or
 * upstream change) it follows. A switch that is false everywhere is 6.18's
 * behaviour; the "6.18" profile has every switch false, so an engine row
 * without a profile is byte-identical to the engine before profiles.
 *
 * A tracker row names its profile after an '@': "cnum-mainline@7.2" is the
 * engine with the cnum-mainline tracker following Linux 7.2.13; a bare
 * "cnum-mainline" follows 6.18. The README lists every switch. */
#ifndef RB_ENGINE_PROFILE_H
#define RB_ENGINE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

struct rb_profile {
	const char *name;   /* the suffix after '@': "6.18", "7.2" */
	const char *kernel; /* the exact kernel followed: "6.18.44", "7.2.13" */

	/* include/linux/bpf_verifier.h MAX_CALL_FRAMES: 8 in 6.18, 16 in 7.2;
	 * the deepest call stack (the frames a stored state has room for) */
	int max_call_frames;

	/* 7.2 kernel/bpf/verifier.c mark_ptr_or_null_reg: a pointer found
	 * non-NULL keeps its id ("reg->id is preserved for object relationship
	 * tracking and spin_lock lock state tracking"); 6.18 cleared it unless
	 * the map value held a bpf_spin_lock. */
	bool null_check_keeps_id;
	/* 7.2 kernel/bpf/liveness.c (spis_t) and states.c clean_func_state:
	 * stack liveness per four-byte half slot: a narrower write kills the
	 * half slots it covers, a read marks only the halves it touches, and
	 * a checkpoint's dead halves are invalidated (STACK_POISON); 6.18
	 * tracked whole 8-byte slots, killed only by an 8-byte write. */
	bool stack_live_half_slots;
	/* 7.2 kernel/bpf/const_fold.c (bpf_compute_const_regs,
	 * bpf_prune_dead_branches, run by bpf_check before the live
	 * registers): a conditional jump whose outcome known constants decide
	 * (constants moved, added, and-ed, read from frozen .rodata) becomes a
	 * goto before exploration; 6.18 explores such jumps. */
	bool const_fold_branches;
	/* which helpers a program type may call: 7.2.13's sets, measured in
	 * its guest (helper_sets72.c: trampoline and LSM programs, which
	 * 6.18.44 refuses here, tp_btf's bpf_get_func_arg/_cnt, cgroup_sock's
	 * sockopt helpers, lwt_seg6local, bpf_probe_write_user without
	 * lockdown); 6.18: the sets of prog_types.c and helper_sets.c, or the
	 * running kernel's where probed. */
	bool helper_sets_72;
	/* 7.2 verifier.c LINKED_REGS_MAX: a conditional jump collects at most
	 * 5 scalars linked to its operands (6.18: 6); the rest lose their id
	 * (collect_linked_regs, clear_scalar_id) */
	bool linked_regs_max_5;
	/* 7.2 verifier.c check_and_resolve_insns -> check_insn_fields: every
	 * instruction's register numbers and reserved fields are checked
	 * before exploration, so such a program fails having processed 0
	 * instructions (insn_fields.c); 6.18 checked them when exploration
	 * reached the instruction. */
	bool insn_fields_static;
	/* 7.2 verifier.c sort_subprogs_topo (run by bpf_check after the
	 * constant branches are folded): a subprogram calling itself, directly
	 * or through others, is refused before exploration, "recursive call
	 * from A() to B()" (subprog_topo.c); 6.18 explored until the call
	 * stack was too deep. */
	bool recursion_static;
	/* 7.2 kernel/bpf/states.c stacksafe/scalar_reg_for_stack: a spilled
	 * scalar and misc bytes are compared as registers (regsafe) per
	 * four-byte half (im == 0 || im == 4), so a 32-bit scalar spill whose
	 * old value was not precise matches misc bytes; 6.18 did so for
	 * whole 8-byte slots only (is_spilled_scalar_reg64,
	 * is_stack_all_misc), and a 32-bit spill never matched misc. */
	bool stacksafe_half_scalars;
	/* 7.2 verifier.c check_helper_call, is_ptr_cast_function (tcp_sock,
	 * sk_fullsock, skc_to_*): a cast of a referenced object pushes its
	 * NULL result as a branch of its own (R0 = 0 from the next insn) and
	 * goes on with R0 not NULL, its id the object's reference id; 6.18
	 * returned a maybe-NULL pointer with a fresh id. */
	bool ptr_cast_branch;
	/* 7.2 verifier.c check_map_prog_compatibility: a map value holding a
	 * bpf_timer is allowed in tracing programs (kprobe, tracepoint,
	 * perf_event, raw_tracepoint); 6.18 refused it ("tracing progs
	 * cannot use bpf_timer yet"). */
	bool timers_in_tracing;
	/* sched_ext (7.2.13 kernel/sched/ext/ext.c, idle.c, cid.c): the
	 * struct_ops types sched_ext_ops and sched_ext_ops_cid
	 * (struct_ops_scx.c) and the scx kfunc sets with their per-op filter
	 * scx_kfunc_context_filter (kfunc_table72.c); 6.18.44 here has no
	 * sched_ext ("not a supported struct"). */
	bool sched_ext;
	/* 7.2 kfunc flags (include/linux/btf.h): KF_TRUSTED_ARGS is gone and
	 * every kfunc's pointer arguments must be trusted (or RCU with KF_RCU:
	 * check_kfunc_args, KF_ARG_PTR_TO_BTF_ID); a KF_IMPLICIT_ARGS kfunc's
	 * prototype is its "<name>_impl" FUNC, whose arguments past the
	 * visible prototype's are supplied by the verifier (fetch_kfunc_meta,
	 * is_kfunc_arg_implicit). 6.18 checked trust only for
	 * KF_TRUSTED_ARGS, KF_RCU and release kfuncs. */
	bool kfunc_trusted_default;
	/* 7.2 verifier.c check_ptr_to_btf_access: in an RCU critical section
	 * (a non-sleepable program), a pointer field the BTF_TYPE_SAFE_* lists
	 * do not name, walked from a trusted or RCU parent that cannot be
	 * NULL, is a plain PTR_TO_BTF_ID ("walking unknown pointers yields old
	 * deprecated PTR_TO_BTF_ID"), which helpers taking ARG_PTR_TO_BTF_ID
	 * accept; outside one (sleepable) listed RCU fields are untrusted too.
	 * 6.18.44 made it untrusted (measured: tests/objects/walk_plain.bpf.c
	 * walk_plain, 6.18.44 failure at 6 insns "R2 type=untrusted_ptr_",
	 * 7.2.13 success at 12). */
	bool walk_plain_ptr;
	/* 7.2.13 kernel/bpf/arena.c and verifier.c: the arena kfuncs
	 * (bpf_arena_alloc_pages, _free_pages, _reserve_pages) are in the
	 * common kfunc set of every program type, their "__map" argument is
	 * the arena map, and they may be called while holding a bpf_spin_lock
	 * (kfunc_spin_allowed: is_bpf_arena_kfunc, as the bpf_iter_num
	 * kfuncs, is_bpf_iter_num_api_kfunc); the 6.18 table has them
	 * unmeasured (6.18.44 here cannot create an arena map: EPERM). */
	bool arena_kfuncs;
	/* 7.2 verifier.c __check_buffer_access (tracepoint buffers, iterator
	 * map keys and values): a pointer whose variable part is any constant
	 * may be dereferenced, the access starting at that constant plus the
	 * offset, refused when negative ("invalid negative %s buffer offset");
	 * 6.18 wanted the variable part 0 and a non-negative fixed offset
	 * ("invalid %s buffer access"). */
	bool buffer_const_var_off;
	/* 7.2 verifier.c check_max_stack_depth_subprog: a call into a global
	 * subprogram starts the frame count again ("frame =
	 * bpf_subprog_is_global(env, idx) ? 0 : frame + 1"), so only static
	 * calls count toward max_call_frames. 6.18 counted every call of the
	 * chain. */
	bool global_call_resets_frames;
	/* 7.2 bpf_reg_state has no fixed 'off': a constant added to a
	 * pointer goes into its value range and var_off
	 * (adjust_ptr_min_max_vals), so accesses check the whole range
	 * (check_mem_region_access on the pointer's bounds: a map value plus
	 * -1 is "unbounded"), a packet range counts from the packet start
	 * (find_good_pkt_pointers: the compared pointer's umax;
	 * check_packet_access: [smin + off, umax + off + size) within it, so
	 * a negative constant after a variable one is fine),
	 * check_reg_sane_offset_ptr bounds the whole offset, and pruning
	 * compares the ranges with the constants in them (states.c regsafe:
	 * map values by range_within/tnum_in, packet pointers sharing an id
	 * by the start of their range). The engine keeps 6.18's (off, val)
	 * and decides on val + off. */
	bool ptr_off_in_var;
	/* 7.2.13 __mark_reg_s32_range (check_kfunc_call's branch for a failed
	 * bpf_res_spin_lock): R0's error code [-MAX_ERRNO, -1] narrows its
	 * 64-bit signed range too (reg_set_srange64); 6.18.44 narrowed only
	 * the 32-bit one, so the 64-bit bounds are what reg_bounds_sync
	 * deduces from it (measured: tests/objects/res_lock.bpf.c
	 * global_lock's "from 3 to 4" state, 6.18.44
	 * smin=0x80000000fffff001, 7.2.13 smin=smin32=-4095). */
	bool res_lock_err_s64;
	/* kfuncs Debian's 7.2.13 build registers and 6.18.44's here does not
	 * (kfunc_table72.c, gate RB_K72_BUILD: bpf_verify_pkcs7_signature, in 7.2.13's
	 * kernel/bpf/helpers.c generic set with CONFIG_SYSTEM_DATA_VERIFICATION;
	 * 6.18.44's vmlinux BTF has the function untagged, and calling it is
	 * "not allowed"). A difference of the two kernels' builds, not of
	 * their verifiers. */
	bool kfunc_sets_72;
	/* 7.2 verifier.c BTF_TYPE_SAFE_TRUSTED_OR_NULL(struct vm_area_struct)
	 * (vm_mm, vm_file: trusted or NULL when walked from a trusted vma) and
	 * BTF_TYPE_SAFE_RCU(struct cgroup_subsys_state) (cgroup); 6.18.44 gave
	 * vm_mm and vm_file untrusted (measured, tp_btf sched_skip_vma_numa)
	 * (btf.c safe_field). */
	bool safe_fields_72;
	/* 7.2.13 kernel/bpf/helpers.c generic_btf_ids: the KF_IMPLICIT_ARGS
	 * forms of the allocation and graph kfuncs (bpf_obj_new, bpf_obj_drop,
	 * bpf_percpu_obj_new/drop, bpf_refcount_acquire, bpf_list_push_front/
	 * back, bpf_rbtree_add: the verifier supplies meta and off; 6.18 has
	 * the "_impl" forms only) and the list kfuncs 6.18.44 lacks
	 * (bpf_list_add, bpf_list_del, bpf_list_empty, bpf_list_is_first,
	 * bpf_list_is_last) (kfunc_table72.c, gate RB_K72_GRAPH). */
	bool graph_kfuncs_72;
	/* 7.2.13 check_kfunc_call: an acquired R0 that cannot be NULL (a
	 * KF_ACQUIRE kfunc without KF_RET_NULL, bpf_refcount_acquire of an
	 * owning object) takes the reference's id as its id (7.2 names a
	 * reference by the register id: "regs[BPF_REG_0].id = id"); 6.18.44
	 * set ref_obj_id only, its id 0 (measured: tests/objects/clang19/
	 * list.bpf.o refcount_owning, "R0=ptr_rnode(ref_obj_id=3)"), so such
	 * a register never matches one with an id when states are compared
	 * (check_ids). */
	bool acquire_sets_id;

	/* 7.2 kernel/bpf/log.c print_reg_state: a pointer prints its whole
	 * value, the constant added to it included (7.2 keeps no fixed
	 * offset: ptr_off_in_var): "imm=N" when it is known, else its ranges
	 * and var_off; no "off=" (its delta is a linked scalar's only). 6.18
	 * printed "off=N" and the variable part's ranges. Logs only. */
	bool log_ptr_whole;
	/* 7.2 kernel/bpf/liveness.c bpf_compute_subprog_arg_access and
	 * states.c is_state_visited: stack liveness is computed before
	 * exploration from the frame-pointer-derived values each instruction
	 * uses (stack_live72.c), and the current state is cleaned at every
	 * prune point (dead registers NOT_INIT, dead half slots poisoned), so
	 * checkpoints are stored clean and later reads of a cleaned slot see
	 * its poisoned half (get_constant_map_key: a spill whose upper half
	 * was poisoned is a 4-byte key). 6.18.44 learnt liveness while
	 * exploring and cleaned only complete checkpoints. */
	bool static_stack_liveness;
	/* 7.2 kernel/bpf/states.c is_state_visited -> verifier.c
	 * bpf_clear_singular_ids: right before the current state is stored
	 * as a checkpoint, every scalar (register or spilled) whose id, the
	 * BPF_ADD_CONST flags aside, no other scalar of the state shares
	 * loses its id and delta; so a later path whose scalars are linked
	 * otherwise (or not at all) can still match it (regsafe's
	 * check_scalar_ids and the ADD_CONST test). 6.18.44 kept such ids.
	 * (7.2's cleaning of the current state's dead registers at each prune
	 * point, which makes more ids singular, is static_stack_liveness.) */
	bool clear_singular_ids;
	/* 7.2 kernel/bpf/verifier.c maybe_widen_reg: an imprecise scalar
	 * that a callback or iterator loop's next visit changed is widened
	 * unless scalars_exact_for_widen, a compare of everything before the
	 * id (type, delta, value): the ids are ignored. 6.18.44 used
	 * regs_exact, ids included, so a scalar whose id was dropped on one
	 * visit (clear_singular_ids) and not on the other became unknown
	 * (selftests pyperf600_bpf_loop: fp-312, [0, 1] in 7.2.13, unknown
	 * in the engine after the first bpf_loop callback). */
	bool widen_ignores_ids;
	/* 7.2 kernel/bpf/verifier.c check_stack_read_fixed_off: a full
	 * 8-byte fill of a spilled non-constant scalar first gives the slot
	 * an id (assign_scalar_id_before_mov), so register and slot are
	 * linked and a later branch on the register bounds the slot too
	 * (selftests pyperf600_bpf_loop: `r6 = *(u64 *)(r7 +16)` from the
	 * caller's fp-296, then `if r6 == 0x0`; 7.2.13 logs R6=scalar(id=38)).
	 * 6.18.44 linked only 4-byte fills of 32-bit values. */
	bool fill_assigns_id;
	/* 7.2 kernel/bpf/btf.c btf_prepare_func_args and verifier.c
	 * btf_check_func_arg_match -> check_outgoing_stack_args: a static
	 * subprogram whose BTF prototype has more than 5 parameters takes the
	 * 6th and later as stack arguments, and a call whose caller did not
	 * write them is refused ("callee expects 6 args, stack arg1 is not
	 * initialized", -EFAULT: fatal even for a static call). 6.18.44 found
	 * such a prototype unreliable and went on (the compiler drops unused
	 * parameters, not their BTF: selftests test_xdp_noinline's
	 * process_l3_headers_v4). The engine models no stack-argument
	 * stores, so every such call is refused; global subprograms of more
	 * than 5 parameters stay unsupported in both profiles. */
	bool subprog_stack_args;
	/* 7.2 kernel/bpf/btf.c btf_validate_return_type and verifier.c
	 * check_func_call, check_global_subprog_return_code: a global
	 * subprogram may return void: the call leaves R0 uninitialised, its
	 * exit reads no R0, and the refusal of any other return type reads
	 * "return value not void or scalar". 6.18.44 refused void ("doesn't
	 * return scalar"; selftests test_global_func7: 6.18.44 failure at
	 * 1 insn, 7.2.13 success at 6). */
	bool global_void_return;
	/* 7.2 include/linux/bpf_verifier.h and states.c regsafe/stacksafe: a
	 * dynptr slice's dynptr is its parent_id, compared through the id map
	 * (check_ids) like the slice's own id, and a stack dynptr's id is
	 * compared so too; 6.18.44 kept the slice's dynptr_id in the union
	 * beside mem_size, compared exactly by regsafe's memcmp, and compared
	 * a stack dynptr by its reference only. So in 7.2 a slice of another
	 * dynptr, made on another path, matches (progdiff ringbuf 42, seed 1:
	 * 7.2.13 prunes after bpf_dynptr_data, 371 insns). */
	bool dynptr_parent_ids;
	/* 7.2 kernel/bpf/verifier.c check_cond_jmp_op: the scalars linked to
	 * a conditional jump's operands are collected before is_branch_taken
	 * ("otherwise ids dropped by collect_linked_regs() would be
	 * resurrected"), so a jump whose outcome is known also drops the ids
	 * of the linked scalars past LINKED_REGS_MAX (an operand compared
	 * with itself collects its links twice); 6.18.44 collected them only
	 * for a jump that forks (progdiff regjmp 342, seed 1: `if r6 < r6`
	 * with r6, r7, r9 linked drops r9's id, 30 insns as 7.2.13). */
	bool linked_regs_first;
	/* 7.2 verifier.c check_kfunc_call (active_rcu_locks): RCU read
	 * sections nest, bpf_rcu_read_lock counts and the last
	 * bpf_rcu_read_unlock ends the section; 6.18.44 refused a lock inside
	 * one ("nested rcu read lock (kernel function bpf_rcu_read_lock)"); the
	 * refusal of a global subprogram that might sleep names it and the
	 * section or region (RCU, preemption, IRQs; 6.18.44: three fixed lines;
	 * src/engine/rcu.c; tests/objects/rcu_lock.bpf.c rcu_nested). */
	bool rcu_nested;
	/* 7.2.13 check_kfunc_call: bpf_obj_drop (bpf_percpu_obj_drop) in a
	 * program that may run in NMI context (kprobe, tracepoint,
	 * perf_event, raw_tracepoint, and tracing programs neither sleepable
	 * nor iterators) of an object whose struct meta has a field not
	 * NMI-safe (btf_record_has_nmi_unsafe_fields: a referenced or per-CPU
	 * kptr, a list or rbtree head or node) is refused ("bpf_obj_drop
	 * cannot be used in tracing programs on types with NMI unsafe
	 * fields"); 6.18.44 accepted it (src/engine/alloc_obj.c;
	 * tests/objects/clang19/obj_drop_nmi.bpf.c tp_kptr: 6.18.44 success
	 * at 10 insns, 7.2.13 failure at 7). */
	bool obj_drop_nmi_fields;
	/* 7.2.13 do_check_insn: bpf_kptr_xchg may be called while a
	 * bpf_spin_lock is held (besides bpf_spin_unlock); 6.18.44 refused
	 * it, "function calls are not allowed while holding a lock"
	 * (src/engine/locks.c; tests/objects/clang19/alloc_lock.bpf.c
	 * xchg_in_lock: 6.18.44 failure at 10 insns, 7.2.13 success). */
	bool kptr_xchg_in_lock;
};

/* the profile named `name` ("6.18", "7.2"); NULL when unknown */
const struct rb_profile *rb_profile_get(const char *name);
/* the default profile (6.18) */
const struct rb_profile *rb_profile_default(void);
/* "NAME@PROFILE" or "NAME": copies NAME into base (at most len - 1
 * bytes) and returns the profile (the default one without '@'); NULL when
 * the profile is unknown or NAME does not fit. */
const struct rb_profile *rb_profile_split(const char *row, char *base, size_t len);
/* the profile names, separated by sep, into buf (snprintf-style return) */
int rb_profile_names(char *buf, size_t len, const char *sep);

/* The switches one by one, so that a caller can build a profile between
 * two (a copy of one with some switches of the other): explain's switch
 * attribution (explain/switches.h) turns them one at a time to find
 * which makes a program's 6.18 -> 7.2 change. Index i < count. */
size_t rb_profile_switch_count(void);
const char *rb_profile_switch_name(size_t i);
/* switch i holds different values in a and b */
bool rb_profile_switch_differs(const struct rb_profile *a, const struct rb_profile *b, size_t i);
/* switch i of dst takes src's value (nothing else changes) */
void rb_profile_switch_copy(struct rb_profile *dst, const struct rb_profile *src, size_t i);

#endif
