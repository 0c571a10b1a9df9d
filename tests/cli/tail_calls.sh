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
. "$(dirname "$0")/lib/tap.sh"

G=$OBJ/legacy_global_func.bpf.o
T=$OBJ/tail_calls.bpf.o

"$RB" load --json "$G" >"$tmp/json" 2>"$tmp/err"; rc=$?
check "load: legacy object with BTF keeps it" \
  '[ $rc -eq 0 ] && grep -q "\"btf\":true,\"legacy_maps\":true" "$tmp/json"' "$tmp/err"
check "load: func_info and line_info of both programs" \
  'grep -Eq "\"name\":\"global_ret\".*\"func_info\":2,\"line_info\":[1-9]" "$tmp/json" &&
   grep -Eq "\"name\":\"static_ret\".*\"func_info\":2,\"line_info\":[1-9]" "$tmp/json"' "$tmp/json"
"$RB" verify "$G" >"$tmp/out" 2>&1
check "verify old: the global function's result is unknown to its caller" \
  'grep -Eq "global_ret +failure .*insn 7: R1 unbounded memory access" "$tmp/out" && grep -Eq "static_ret +success" "$tmp/out"' "$tmp/out"

"$RB" load "$T" >"$tmp/out" 2>&1; rc=$?
check "load: N/M sections fill their prog array" \
  '[ $rc -eq 0 ] && grep -Eq "prog slot0 .*tail-call map-id 7 slot 0 fills jmp_tc$" "$tmp/out" &&
   grep -Eq "prog slot1 .*tail-call map-id 7 slot 1 fills jmp_tc$" "$tmp/out"' "$tmp/out"
check "load: a slot past the end or an id no map has fills nothing" \
  'grep -Eq "prog past_end .*tail-call map-id 7 slot 9$" "$tmp/out" && grep -Eq "prog no_map .*tail-call map-id 8 slot 0$" "$tmp/out"' "$tmp/out"
"$RB" load --json "$T" >"$tmp/json" 2>&1
check "load --json: the filled map" \
  'grep -q "\"tail_call\":{\"map_id\":7,\"slot\":1,\"fills\":\"jmp_tc\"}" "$tmp/json" &&
   grep -q "\"tail_call\":{\"map_id\":8,\"slot\":0,\"fills\":null}" "$tmp/json"' "$tmp/json"
"$RB" verify "$T" >"$tmp/out" 2>&1
check "verify old: the XDP caller of the tc programs' array is refused" \
  'grep -Eq "xdp_entry +failure .*rejected \(Invalid argument\)" "$tmp/out" && grep -Eq "tc_entry +success" "$tmp/out"' "$tmp/out"
check "verify old: tail call through a hash map has 6.18's message" \
  'grep -Eq "through_hash +failure .*insn 3: expected prog array map for tail call *$" "$tmp/out"' "$tmp/out"

if "$RB" verify --tracker kernel "$T" >"$tmp/k" 2>&1 && ! grep -q unavailable "$tmp/k"; then
	check "kernel: the XDP caller refused once tc's programs fill the array" \
	  'grep -Eq "xdp_entry +failure .*rejected \(Invalid argument\)" "$tmp/k" && grep -Eq "tc_entry +success" "$tmp/k"' "$tmp/k"
	check "kernel: the hash map message, without the statistics glued to it" \
	  'grep -Eq "through_hash +failure .*insn 3: expected prog array map for tail call *$" "$tmp/k"' "$tmp/k"
	"$RB" kdiff "$T:through_hash" >"$tmp/kd" 2>&1
	check "kdiff through_hash: logs agree" 'grep -q "^logs agree" "$tmp/kd"' "$tmp/kd"
	"$RB" verify --tracker kernel "$G" >"$tmp/k" 2>&1
	check "kernel: global_ret rejected as the engine rejects it" \
	  'grep -Eq "global_ret +failure .*insn 7: R1 unbounded memory access" "$tmp/k" && grep -Eq "static_ret +success" "$tmp/k"' "$tmp/k"
	for p in global_ret static_ret; do
		"$RB" kdiff "$G:$p" >"$tmp/kd" 2>&1
		check "kdiff $p: logs agree" 'grep -q "^logs agree" "$tmp/kd"' "$tmp/kd"
	done
fi
