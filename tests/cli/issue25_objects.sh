#!/usr/bin/env bash
# issue25_objects.sh — real-object edges of issue 25 on minimal objects in
# tests/objects/, each verdict as Linux 6.18.44 gives it and, where bpf()
# is permitted and the kernel can load the program, kdiff equal:
#   item 4: a struct_ops program without attach_btf_id is `refused` (the
#           kernel: errno 524, nothing logged), not a verifier failure;
#   item 7: old LLVM's SHT_RELA relocations of R_BPF_NONE entries against
#           map symbols are applied (before: "R1 type=scalar expected=map_ptr");
#   item 3: bpf_map_lookup_percpu_elem and bpf_ima_file_hash are modelled
#           (before: `unsupported`).
set -u
RB=${RB:-build/test/rangebench}
OBJS=${RB_TEST_OBJECTS:-build/test/objects}
. tests/cli/lib/tap.sh

# The engine's (old) rows of every object here from one verify (~0.15 s of
# CPU a process; one per object before), split by file into
# $tmp/NAME.csv; its exit code, which is the highest of the objects'
all="struct_ops_orphan legacy_rela percpu_lookup ima_hash clang19/kptr_global clang19/core_type_matches"
# shellcheck disable=SC2046 # the paths have no blanks
"$RB" verify --csv --tracker old $(for o in $all; do echo "$OBJS/$o.bpf.o"; done) >"$tmp/all.csv" 2>"$tmp/all.err"
all_rc=$?
awk -F, -v dir="$tmp" 'NR == 1 { h = $0; next } { f = $1; sub(/\.bpf\.o$/, "", f); f = dir "/" f ".csv"
	if (!(f in seen)) { print h >f; seen[f] = 1 } print >f }' "$tmp/all.csv"
# OBJ then lines "program|verdict|error insn|message" (the engine, old)
expect() {
	local obj=$1 name
	name=$(basename "$obj" .bpf.o)
	check "$name: verify exits 0 (of all the objects here at once)" '[ $all_rc -eq 0 ] && [ -s "$tmp/$name.csv" ]' "$tmp/all.err"
	while IFS='|' read -r prog verdict at msg; do
		check "$name: $prog $verdict${msg:+, '$msg'}" \
		  'csv_row "$tmp/$name.csv" 2="$prog" 3="$verdict" 11="$at" "~$msg"' "$tmp/$name.csv"
	done
}

# (libbpf 1.1 loads it and the kernel refuses it, errno 524; libbpf >= 1.5
# refuses it itself: "program isn't referenced anywhere")
expect "$OBJS/struct_ops_orphan.bpf.o" <<'EOF2'
orphan_init|refused|-1|
EOF2
check "struct_ops_orphan: refused by the kernel (errno 524) or by libbpf (unreferenced)" \
  'grep -Eq "without attach_btf_id: BPF_PROG_LOAD failed with errno 524|program isn.t referenced anywhere" "$tmp/struct_ops_orphan.csv"' \
  "$tmp/struct_ops_orphan.csv"
expect "$OBJS/legacy_rela.bpf.o" <<'EOF2'
tail_32|success|-1|
EOF2
check "legacy_rela: its relocations are SHT_RELA entries of type R_BPF_NONE" \
	'readelf -r "$OBJS/legacy_rela.bpf.o" | grep -q "^Relocation section .\.relaclassifier" && [ "$(readelf -r "$OBJS/legacy_rela.bpf.o" | grep -c R_BPF_NONE)" -eq 2 ]'
expect "$OBJS/percpu_lookup.bpf.o" <<'EOF2'
percpu_checked|success|-1|
percpu_unchecked|failure|9|R0 invalid mem access 'map_value_or_null'
percpu_plain_map|failure|8|cannot pass map_type 2 into func bpf_map_lookup_percpu_elem#195
EOF2
# LSM programs: the running kernel refuses them (lockdown); the engine alone
expect "$OBJS/ima_hash.bpf.o" <<'EOF2'
ima_sleepable|success|-1|
ima_not_sleepable|failure|4|helper call might sleep in a non-sleepable prog
ima_atomic_hook|failure|4|helper call is not allowed in probe
sleepable_atomic_hook|failure|-1|bpf_lsm_file_permission is not sleepable
EOF2
# item 2: a referenced kptr in a global variable (.data.MASK, clang-19):
# 6.18 finds the field among the section's variables; the engine rejected
# the exchange ("R1 has no valid kptr"). It now finds the field and
# models the exchange (kptrs.c: the new cpumask released into the field,
# the old one acquired), and a wrong offset is rejected as the kernel
# rejects it.
expect "$OBJS/clang19/kptr_global.bpf.o" <<'EOF2'
kptr_global_swap|success|-1|
kptr_global_wrong_field|failure|5|off=8 doesn't point to kptr
EOF2
. tests/cli/lib/kdiff_each.sh
# both kptr_global programs in one kdiff (each report read between its frames)
kdiff_some "$OBJS/clang19/kptr_global.bpf.o" kptr_global "" kptr_global_swap kptr_global_wrong_field

# every program of these objects against the kernel, named from the rows
# above (not a `load` of each)
every() { # OBJ WHAT: kdiff_some of every program of OBJ's rows ($tmp/WHAT.csv)
	local progs
	progs=$(awk -F, 'NR > 1 { print $2 }' "$tmp/$2.csv")
	check "the $2 object lists its programs (verify's rows)" '[ -n "$progs" ]' "$tmp/$2.csv"
	[ -n "$progs" ] || return
	# shellcheck disable=SC2086 # one word per program
	kdiff_some "$OBJS/$1.bpf.o" "$2" "" $progs
}
every struct_ops_orphan struct_ops_orphan
every legacy_rela legacy_rela
every percpu_lookup percpu_lookup

# a CO-RE relocation of kind BPF_CORE_TYPE_MATCHES (12; Inspektor Gadget's
# biolatency): the loader's .BTF.ext check refused kinds above 11 ("bad
# .BTF.ext: core_relo: bad record"); the object opens and equals the kernel
check "core_type_matches opens and verifies (in the one verify above)" '[ $all_rc -eq 0 ] && [ $(wc -l <"$tmp/core_type_matches.csv") -gt 1 ]' "$tmp/all.err"
every clang19/core_type_matches core_type_matches
