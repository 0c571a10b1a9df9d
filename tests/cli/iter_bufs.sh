#!/usr/bin/env bash
# iter_bufs.sh — iterator programs whose context holds buffers (PTR_TO_BUF:
# an iterator's map key and value, src/engine/btf.c iter_arg_kind, mem.c
# buffer_access), each program of tests/objects/iter_bufs.bpf.o pinned to
# the verdict, instructions and states Linux 7.2.13 gives, in both engine
# profiles (6.18 and 7.2 have the same rules for these programs; only
# 7.2's wording of a negative offset differs, profile.h
# buffer_const_var_off). Measured 2026-12-06 with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/iter_bufs.bpf.o
# (Debian sid's 7.2.13 in QEMU). The running kernel is asked too: 6.18.44
# here refuses these iterator targets (EPERM, no log), which skips that
# check; a kernel that verifies them must give the same counts.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/iter_bufs.bpf.o
. tests/cli/lib/tap.sh

# rows from one verify of the whole object per tracker (lib/pin72.sh):
# a sanitizer-built process per program and tracker was most of this test
. tests/cli/lib/pin72.sh
row() { rb_row "$1" "$OBJ:$2"; }
msg() { rb_msg "$1" "$OBJ:$2"; }
pin() { # PROG 7.2.13-COUNTS
	local p=$1 want=$2 t got
	for t in old cnum-mainline@7.2; do
		rb_row_v got "$t" "$OBJ:$p"
		check "$p: $t gives 7.2.13's $want" '[ "$got" = "$want" ]'
	done
	rb_row_v got kernel "$OBJ:$p"
	case $got in
	unavailable*|refused*|"") ok "$p: the running kernel gives $want # skip the kernel refuses or bpf() not permitted" ;;
	*) check "$p: the running kernel gives $want" '[ "$got" = "$want" ]' ;;
	esac
}
pin elem_rw success,31,2
pin elem_map success,4,0
pin elem_key_write failure,4,0
pin elem_no_null_check failure,2,0
pin elem_neg_off failure,4,0
pin elem_var_off failure,8,0
pin elem_helper_key_write failure,5,0
pin sockmap_key success,15,1
pin sk_storage_value success,11,1

# the messages (7.2.13's, and 6.18's wording where it differs)
check "a write into the key is refused as the kernel words it" \
	'msg old elem_key_write | grep -q "R1 cannot write into rdonly_buf"'
check "a read before the NULL check names buf_or_null" \
	'msg old elem_no_null_check | grep -q "R1 invalid mem access '"'"'buf_or_null'"'"'"'
check "a negative offset (7.2 wording)" \
	'msg cnum-mainline@7.2 elem_neg_off | grep -q "R1 invalid negative rdwr buffer offset: off=-4, var_off=0"'
check "a negative offset (6.18 wording)" \
	'msg old elem_neg_off | grep -q "R1 invalid rdwr buffer access: off=-4, size=4"'
check "a variable offset" \
	'msg old elem_var_off | grep -q "R6 invalid variable buffer offset: off=0, var_off=(0x0; 0x7)"'
check "a helper writing into the read-only key: a type mismatch" \
	'msg old elem_helper_key_write | grep -q "R1 type=rdonly_buf expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_"'
rb_logs old "$OBJ" elem_rw elem_map
check "the key is a read-only buffer, the value a read-write one, ids from the loads" \
	'grep -q "R[0-9]=rdonly_buf_or_null(id=[0-9]*)" "$tmp/elem_rw.vlog" && grep -q "R[0-9]=buf_or_null(id=[0-9]*)" "$tmp/elem_rw.vlog"' "$tmp/elem_rw.vlog"
check "the map argument is a trusted BTF pointer, logged as btf_ctx_access does" \
	'grep -q "func '"'"'bpf_iter_bpf_map_elem'"'"' arg1 has btf_id [0-9]* type STRUCT '"'"'bpf_map'"'"'" "$tmp/elem_map.vlog" && grep -q "R1=trusted_ptr_bpf_map()" "$tmp/elem_map.vlog"' "$tmp/elem_map.vlog"
