#!/usr/bin/env bash
# key_kfuncs.sh — the key kfuncs from LSM and trampoline programs
# (src/engine/kfuncs.c fetch_meta: these types share tp_btf's kfunc hook;
# kfunc_table.c flags; dynptr arguments of kfuncs) on
# tests/objects/key_kfuncs.bpf.o, each program pinned to the verdict,
# instructions and states Linux 7.2.13 gives, measured 2026-12-06 with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/key_kfuncs.bpf.o
# (Debian sid's 7.2.13 in QEMU). The 6.18 profile gives the same except
# where 6.18.44's build has no bpf_verify_pkcs7_signature kfunc (profile.h
# kfunc_sets_72): there "calling kernel function ... is not allowed". The
# running 6.18.44 refuses LSM and trampoline programs here; where it
# verifies one, it must give the 6.18 counts.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/key_kfuncs.bpf.o
. tests/cli/lib/tap.sh

. tests/cli/lib/pin72.sh
msg() { rb_msg "$1" "$OBJ:$2"; }
pin72 "$OBJ:user_key" success,10,1
pin72 "$OBJ:system_key_fentry" success,9,1
pin72 "$OBJ:user_key_not_sleepable" failure,4,0
pin72 "$OBJ:put_unchecked" failure,4,0
pin72 "$OBJ:key_leak" failure,10,1
pin72 "$OBJ:pkcs7" success,36,3 failure,23,1
pin72 "$OBJ:pkcs7_uninit" failure,17,1 failure,17,1
check "a sleepable kfunc from a program that may not sleep" \
	'msg old user_key_not_sleepable | grep -q "program must be sleepable to call sleepable kfunc bpf_lookup_user_key"'
check "a key that may be NULL given to bpf_key_put" 'msg old put_unchecked | grep -q "Possibly NULL pointer passed to trusted arg0"'
check "a leaked key" 'msg old key_leak | grep -q "would lead to reference leak"'
check "an uninitialised dynptr given to bpf_verify_pkcs7_signature (7.2)" \
	'msg cnum-mainline@7.2 pkcs7_uninit | grep -q "Expected an initialized dynptr as arg #0"'
check "6.18.44 has no bpf_verify_pkcs7_signature kfunc" \
	'msg old pkcs7 | grep -q "calling kernel function bpf_verify_pkcs7_signature is not allowed"'
