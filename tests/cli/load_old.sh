#!/usr/bin/env bash
# load_old.sh — `load` and `verify` on the objects of the loader's
# non-libbpf paths (tests/objects/): an object with no program is an error
# naming the file and the reason (exit 2), an EM_NONE object and an
# iproute2 object open and verify, an unknown section says how to set its
# type, and --prog-type sets it. Kernel rows only where bpf() works.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}
. "$(dirname "$0")/lib/tap.sh"

BAD=$OBJ/../objects-bad
"$RB" load "$BAD/no_program.bpf.o" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "load: no program is exit 2" '[ $rc -eq 2 ]'
check "load: no program names file and reason" \
  'grep -q "^$BAD/no_program.bpf.o: error: no programs: no code section (data or maps only)$" "$tmp/err"'
"$RB" verify "$BAD/no_program.bpf.o" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "verify: no program is exit 2 with the reason" \
  '[ $rc -eq 2 ] && grep -q "no_program.bpf.o: no programs: no code section" "$tmp/err"'

# the three objects' load from one process (was three; the programs' names
# differ, the exit code is 0 only if every one opened): $tmp/l3.out, l3.err
"$RB" load "$OBJ/em_none.bpf.o" "$OBJ/iproute2_tc.bpf.o" "$OBJ/btf_maps.bpf.o" >"$tmp/l3.out" 2>"$tmp/l3.err"
l3_rc=$?
cp "$tmp/l3.out" "$tmp/out"; cp "$tmp/l3.err" "$tmp/err"; rc=$l3_rc
check "load: EM_NONE object opens (exit 0)" '[ $rc -eq 0 ] && grep -q "/em_none.bpf.o: [0-9]* programs" "$tmp/out"' "$tmp/err"
check "load: EM_NONE object lists its four programs" \
  'grep -q "em_none.bpf.o: 4 programs" "$tmp/out" && grep -Eq "prog xdp_pass +section xdp_prog +type xdp .* type-from libbpf<1.0" "$tmp/out"'
check "load: the undefined memset is named in the row and on stderr" \
  'grep -Eq "prog sock_memset .* calls-undefined memset$" "$tmp/out" &&
   grep -q "em_none.bpf.o: sock_memset: calls memset, not defined in this object" "$tmp/err"' "$tmp/err"
# the engine's rows of the EM_NONE and iproute2 objects and of the unknown
# section from one verify (its exit code the highest of the three's; the
# programs' names differ): one process, not three (~0.15 s of CPU each)
"$RB" verify "$OBJ/em_none.bpf.o" "$OBJ/iproute2_tc.bpf.o" "$OBJ/btf_maps.bpf.o:unknown_type" >"$tmp/v3.out" 2>"$tmp/v3.err"
v3_rc=$?
cp "$tmp/v3.out" "$tmp/out"; cp "$tmp/v3.err" "$tmp/err"; rc=$v3_rc
check "verify: EM_NONE object verifies (exit 0)" '[ $rc -eq 0 ]' "$tmp/err"
check "verify: one line names the program and the function it calls but lacks" \
  '[ "$(grep -c "sock_memset: calls memset, not defined in this object" "$tmp/err")" -eq 1 ] &&
   grep -q "em_none.bpf.o: sock_memset: calls memset, not defined in this object .*: the verdict is for the call left unresolved" "$tmp/err"' "$tmp/err"
check "verify: the unresolved memset call is rejected as 6.18 rejects it" \
  'grep -Eq "sock_memset +failure .*last insn is not an exit or jmp" "$tmp/out" && grep -Eq "xdp_pass +success" "$tmp/out"' "$tmp/out"

cp "$tmp/l3.out" "$tmp/out"; cp "$tmp/l3.err" "$tmp/err"; rc=$l3_rc
check "load: iproute2 object opens (exit 0)" '[ $rc -eq 0 ] && grep -q "/iproute2_tc.bpf.o: [0-9]* programs" "$tmp/out"' "$tmp/err"
check "load: iproute2 maps and tail-call section" \
  'grep -q "2 programs, 2 maps, BTF no, legacy maps (iproute2)" "$tmp/out" &&
   grep -Eq "prog tail_slot0 +section 1/0 +type sched_cls .*type-from object tail-call map-id 1 slot 0" "$tmp/out"'
cp "$tmp/v3.out" "$tmp/out"; cp "$tmp/v3.err" "$tmp/err"; rc=$v3_rc
check "verify: iproute2 programs accepted" \
  '[ $rc -eq 0 ] && grep -Eq "from_container +success" "$tmp/out" && grep -Eq "tail_slot0 +success" "$tmp/out"' "$tmp/out"

cp "$tmp/l3.out" "$tmp/out"; cp "$tmp/l3.err" "$tmp/err"; rc=$l3_rc
check "load: unknown section exits 0 and says how to set the type" \
  '[ $rc -eq 0 ] && grep -q "/btf_maps.bpf.o: [0-9]* programs" "$tmp/out" && grep -q "btf_maps.bpf.o: unknown_type: section .weird_section_name. names no program type: set one with --prog-type TYPE" "$tmp/err"'
cp "$tmp/v3.out" "$tmp/out"; cp "$tmp/v3.err" "$tmp/err"; rc=$v3_rc
check "verify: unknown section is a load_error (as for the kernel) with that line" \
  'grep -Eq "unknown_type +load_error .*names no program type: set one with --prog-type" "$tmp/out"' "$tmp/out"
"$RB" verify --prog-type socket_filter "$OBJ/btf_maps.bpf.o:unknown_type" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "verify --prog-type types it" '[ $rc -eq 0 ] && grep -Eq "unknown_type +success" "$tmp/out"' "$tmp/out"
"$RB" verify --prog-type bogus "$OBJ/btf_maps.bpf.o" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "verify --prog-type bogus is a usage error" \
  '[ $rc -eq 2 ] && grep -q "unknown program type .bogus." "$tmp/err"'
"$RB" load --attach-type xdp "$OBJ/btf_maps.bpf.o" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "load --attach-type alone is a usage error" '[ $rc -eq 2 ] && grep -q "needs --prog-type" "$tmp/err"'

# the kernel's and the engine's (old) rows of the five objects from one
# verify with both trackers (their programs' names differ; each tracker's
# rows as its verify alone gives them), not one process per object and side
# (~0.15 s of CPU each): $tmp/k.csv and $tmp/o.csv, CSV
"$RB" verify --csv --tracker kernel --tracker old "$OBJ/iproute2_tc.bpf.o" "$OBJ/em_none.bpf.o" "$OBJ/map_fixups.bpf.o" \
	"$OBJ/mixed_maps.bpf.o" "$OBJ/btf_pinning.bpf.o" >"$tmp/ko.csv" 2>"$tmp/ko.err"
ko_rc=$?
awk -F, -v dir="$tmp" 'NR > 1 && $3 == "kernel" { print >(dir "/k.csv") } NR > 1 && $3 == "old" { print >(dir "/o.csv") }' "$tmp/ko.csv"
cat "$tmp/ko.err" >>"$tmp/k.csv"
field() { awk -F, -v p="$1" '$2 == p {print $4, $6, $7}' "$2"; } # PROG CSV: verdict insns states
if [ $ko_rc -eq 0 ] && grep -q '^iproute2_tc.bpf.o,' "$tmp/k.csv" && ! grep -q ',kernel,unavailable,' "$tmp/k.csv"; then
	check "kernel accepts both iproute2 programs" \
	  'grep -q "^iproute2_tc.bpf.o,from_container,kernel,success," "$tmp/k.csv" && grep -q "^iproute2_tc.bpf.o,tail_slot0,kernel,success," "$tmp/k.csv"' "$tmp/k.csv"
	check "kernel rejects the memset call with the same message" \
	  'grep -Eq "^em_none.bpf.o,sock_memset,kernel,failure,.*,last insn is not an exit or jmp$" "$tmp/k.csv"' "$tmp/k.csv"
	check "kernel creates the fixed-up maps and verifies like the engine" \
	  'grep -Eq "^map_fixups.bpf.o,use_fixed_maps,kernel,success,[0-9]+,[0-9]+," "$tmp/k.csv" &&
	   [ "$(field use_fixed_maps "$tmp/k.csv")" = "$(field use_fixed_maps "$tmp/o.csv")" ]' "$tmp/k.csv"
	check "legacy + BTF maps object: kernel and engine agree" \
	  'grep -q "^mixed_maps.bpf.o,use_both,kernel,success," "$tmp/k.csv" &&
	   [ "$(field use_both "$tmp/k.csv")" = "$(field use_both "$tmp/o.csv")" ]' "$tmp/k.csv"
	check "BTF maps with tc pinning values: kernel and engine agree" \
	  'grep -q "^btf_pinning.bpf.o,pinned_maps,kernel,success," "$tmp/k.csv" &&
	   [ "$(field pinned_maps "$tmp/k.csv")" = "$(field pinned_maps "$tmp/o.csv")" ]' "$tmp/k.csv"
else
	echo "# bpf() unavailable: kernel rows skipped"
fi

# run: a manifest's prog_type column types an object's unknown sections
mkdir -p "$tmp/c"
cp "$OBJ/btf_maps.bpf.o" "$tmp/c/"
printf 'object\tprog_type\nbtf_maps.bpf.o\tsocket_filter\n' >"$tmp/c/manifest.tsv"
"$RB" run --trackers old --db "$tmp/db.sqlite" --no-census -q --filter unknown_type "$tmp/c" >"$tmp/out" 2>&1; rc=$?
check "run with a manifest prog_type column exits 0" '[ $rc -eq 0 ]' "$tmp/out"
sqlite3 "$tmp/db.sqlite" "SELECT verdict FROM results r JOIN programs p ON p.id = r.program_id WHERE p.name = 'unknown_type'" >"$tmp/v" 2>&1
check "the manifest's type is used (accepted, not unsupported)" 'grep -Eqx "accept|success" "$tmp/v"' "$tmp/v"
