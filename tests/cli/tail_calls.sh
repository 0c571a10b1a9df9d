#!/usr/bin/env bash
# tail_calls.sh — the loader's own path (objects libbpf 1.x refuses) as
# tc and older loaders load them: func_info/line_info from .BTF.ext kept
# (legacy_global_func.bpf.o: pick() is global, so 6.18 verifies it on its
# own and global_ret is rejected; without the func_info it was accepted),
# iproute2 "N/M" sections filling their prog array (tail_calls.bpf.o: the
# XDP caller of an array the tc programs own is refused after
# verification), and a tail call through a hash map with the kernel's
# message. Kernel rows only where bpf() works.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}
. tests/cli/lib/tap.sh

G=$OBJ/legacy_global_func.bpf.o
T=$OBJ/tail_calls.bpf.o

# Each command once for both objects (one JSON line, one row per program
# each; their programs' names differ), not once per object (~0.15 s of CPU
# a process): the checks read each object's lines
"$RB" load --json "$G" "$T" >"$tmp/json2" 2>"$tmp/err"; json_rc=$?
grep '^{"file":"[^"]*/legacy_global_func.bpf.o"' "$tmp/json2" >"$tmp/json"; rc=$json_rc
check "load: legacy object with BTF keeps it" \
  '[ $rc -eq 0 ] && grep -q "\"btf\":true,\"legacy_maps\":true" "$tmp/json"' "$tmp/err"
check "load: func_info and line_info of both programs" \
  'grep -Eq "\"name\":\"global_ret\".*\"func_info\":2,\"line_info\":[1-9]" "$tmp/json" &&
   grep -Eq "\"name\":\"static_ret\".*\"func_info\":2,\"line_info\":[1-9]" "$tmp/json"' "$tmp/json"
"$RB" verify "$G" "$T" >"$tmp/v2.out" 2>&1
cp "$tmp/v2.out" "$tmp/out"
check "verify old: the global function's result is unknown to its caller" \
  'grep -Eq "global_ret +failure .*insn 7: R1 unbounded memory access" "$tmp/out" && grep -Eq "static_ret +success" "$tmp/out"' "$tmp/out"

"$RB" load "$T" >"$tmp/out" 2>&1; rc=$?
check "load: N/M sections fill their prog array" \
  '[ $rc -eq 0 ] && grep -Eq "prog slot0 .*tail-call map-id 7 slot 0 fills jmp_tc$" "$tmp/out" &&
   grep -Eq "prog slot1 .*tail-call map-id 7 slot 1 fills jmp_tc$" "$tmp/out"' "$tmp/out"
check "load: a slot past the end or an id no map has fills nothing" \
  'grep -Eq "prog past_end .*tail-call map-id 7 slot 9$" "$tmp/out" && grep -Eq "prog no_map .*tail-call map-id 8 slot 0$" "$tmp/out"' "$tmp/out"
grep '^{"file":"[^"]*/tail_calls.bpf.o"' "$tmp/json2" >"$tmp/json"
check "load --json: the filled map" \
  'grep -q "\"tail_call\":{\"map_id\":7,\"slot\":1,\"fills\":\"jmp_tc\"}" "$tmp/json" &&
   grep -q "\"tail_call\":{\"map_id\":8,\"slot\":0,\"fills\":null}" "$tmp/json"' "$tmp/json"
cp "$tmp/v2.out" "$tmp/out"
check "verify old: the XDP caller of the tc programs' array is refused" \
  'grep -Eq "xdp_entry +failure .*rejected \(Invalid argument\)" "$tmp/out" && grep -Eq "tc_entry +success" "$tmp/out"' "$tmp/out"
check "verify old: tail call through a hash map has 6.18's message" \
  'grep -Eq "through_hash +failure .*insn 3: expected prog array map for tail call *$" "$tmp/out"' "$tmp/out"

. tests/cli/lib/kdiff_each.sh
if "$RB" verify --tracker kernel "$T" "$G" >"$tmp/k2" 2>&1 && ! grep -q unavailable "$tmp/k2"; then
	cp "$tmp/k2" "$tmp/k"
	check "kernel: the XDP caller refused once tc's programs fill the array" \
	  'grep -Eq "xdp_entry +failure .*rejected \(Invalid argument\)" "$tmp/k" && grep -Eq "tc_entry +success" "$tmp/k"' "$tmp/k"
	check "kernel: the hash map message, without the statistics glued to it" \
	  'grep -Eq "through_hash +failure .*insn 3: expected prog array map for tail call *$" "$tmp/k"' "$tmp/k"
	# the three programs in one kdiff, each report read between its frames
	# (kdiff_each.sh's kdiff_split, once per object)
	"$RB" kdiff "$T:through_hash" "$G:global_ret" "$G:static_ret" >"$tmp/kd3" 2>&1
	kd_rc=$?
	{ kdiff_split "$tmp/kd3" "$T" through_hash; kdiff_split "$tmp/kd3" "$G" global_ret static_ret; } >"$tmp/kd3.res"
	check "one kdiff of the three programs: exit 0, each report closed 'agree'" \
	  '[ $kd_rc -eq 0 ] && [ "$(awk "{print \$2}" "$tmp/kd3.res" | tr -d "\n")" = 000 ]' "$tmp/kd3"
	check "kdiff through_hash: logs agree" 'grep -q "^logs agree" "$tmp/through_hash.out"' "$tmp/through_hash.out"
	check "kernel: global_ret rejected as the engine rejects it" \
	  'grep -Eq "global_ret +failure .*insn 7: R1 unbounded memory access" "$tmp/k" && grep -Eq "static_ret +success" "$tmp/k"' "$tmp/k"
	for p in global_ret static_ret; do
		check "kdiff $p: logs agree" 'grep -q "^logs agree" "$tmp/$p.out"' "$tmp/$p.out"
	done
fi
