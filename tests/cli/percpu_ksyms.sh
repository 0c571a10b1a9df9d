#!/usr/bin/env bash
# percpu_ksyms.sh — per-CPU typed ksyms (src/engine/ksym.c: PTR_TO_BTF_ID |
# MEM_PERCPU; helpers.c set_percpu_return: bpf_this_cpu_ptr and
# bpf_per_cpu_ptr) on tests/objects/percpu_ksyms.bpf.o, and where bpf_d_path
# may be called (helpers.c check_allowed) on tests/objects/d_path_allow.bpf.o:
# each program pinned, in both engine profiles, to the verdict, instructions
# and states Linux 7.2.13 gives (the 6.18 sources have the same rules for
# these programs). Measured 2026-12-06 with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 OBJ
# (Debian sid's 7.2.13 in QEMU). The running 6.18.44 hides kernel symbol
# addresses (libbpf cannot load the ksyms) and refuses trampoline programs
# here; where it verifies a program, it must give the same counts.
set -u
RB=${RB:-build/test/rangebench}
DIR=${RB_TEST_OBJECTS:-build/test/objects}
. tests/cli/lib/tap.sh

# rows from one verify of the whole object per tracker (lib/pin72.sh):
# a sanitizer-built process per program and tracker was most of this test
. tests/cli/lib/pin72.sh
row() { rb_row "$1" "$2"; }
msg() { rb_msg "$1" "$2"; }
pin() { # OBJ:PROG 7.2.13-COUNTS
	local p=$1 want=$2 t got
	for t in old cnum-mainline@7.2; do
		rb_row_v got "$t" "$p"
		check "${p##*/}: $t gives 7.2.13's $want" '[ "$got" = "$want" ]'
	done
	rb_row_v got kernel "$p"
	case $got in
	unavailable*|refused*|"") ok "${p##*/}: the running kernel gives $want # skip the kernel refuses or bpf() not permitted" ;;
	*) check "${p##*/}: the running kernel gives $want" '[ "$got" = "$want" ]' ;;
	esac
}
K=$DIR/percpu_ksyms.bpf.o
pin "$K:this_cpu_struct" success,9,0
pin "$K:per_cpu_int" success,13,1
pin "$K:per_cpu_no_null_check" failure,4,0
pin "$K:this_cpu_write" failure,4,0
pin "$K:percpu_direct" failure,2,0
pin "$K:not_percpu" failure,5,0
check "bpf_per_cpu_ptr may return NULL" 'msg old "$K:per_cpu_no_null_check" | grep -q "R0 invalid mem access '"'"'ptr_or_null_'"'"'"'
check "an int's copy is read-only memory" 'msg old "$K:this_cpu_write" | grep -q "R0 cannot write into rdonly_mem"'
check "the per-CPU pointer is not dereferenced" 'msg old "$K:percpu_direct" | grep -q "R1 is ptr_rq access percpu memory: off="'
check "a stack pointer is not a per-CPU pointer" \
	'msg old "$K:not_percpu" | grep -q "R1 type=fp expected=percpu_ptr_, percpu_rcu_ptr_, percpu_trusted_ptr_"'
"$RB" verify --log --tracker old "$K:per_cpu_int" >"$tmp/pc.log" 2>&1
check "the ksym is percpu_ptr_ of its type, the result rdonly_mem_or_null of its size" \
	'grep -q "R1=percpu_ptr_int()" "$tmp/pc.log" && grep -q "R0=rdonly_mem_or_null(id=[0-9]*,sz=4)" "$tmp/pc.log"' "$tmp/pc.log"

D=$DIR/d_path_allow.bpf.o
pin "$D:allowed_fentry" success,8,0
pin "$D:not_allowed_fentry" failure,6,0
pin "$D:allowed_lsm" success,8,0
pin "$D:not_allowed_lsm" failure,6,0
check "bpf_d_path off the allowlist is refused as the kernel words it" \
	'msg old "$D:not_allowed_fentry" | grep -q "helper call is not allowed in probe"'
