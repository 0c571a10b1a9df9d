#!/usr/bin/env bash
# real_objects.sh — the engine (old) agrees with the running kernel line for
# line on every program of tests/objects/real_objects.bpf.c: each pins an
# engine disagreement first seen on a real object from a public project
# (issue 9). Skipped with a note where bpf() is not permitted.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/real_objects.bpf.o
. tests/cli/lib/tap.sh

. tests/cli/lib/kdiff_each.sh
kdiff_every_program "$OBJ" real_objects

# an undefined function without BTF (an uninlined memcmp): the object opens
# (no CO-RE relocations: by our own path, the call kept as the file has it),
# the program that calls it gets the verifier's verdict (issue 9: the kernel
# rejects it; report that verdict), the other verifies
U=${RB_TEST_OBJECTS:-build/test/objects}/uninlined_call.bpf.o
"$RB" load "$U" >"$tmp/u.out" 2>&1
rc=$?
check "uninlined_call opens (libbpf 1.1 refuses it whole)" '[ $rc -eq 0 ] && grep -q "2 programs" "$tmp/u.out"' "$tmp/u.out"
check "calls_memcmp is kept, not left out" \
	'grep "prog calls_memcmp" "$tmp/u.out" | grep -vq "error:"' "$tmp/u.out"
"$RB" verify "$U" >"$tmp/uv.out" 2>&1
check "fine verifies" 'grep -qE "^uninlined_call.bpf.o +fine +success" "$tmp/uv.out"' "$tmp/uv.out"
check "calls_memcmp is rejected by the verifier" \
	'grep -qE "^uninlined_call.bpf.o +calls_memcmp +failure .*last insn is not an exit or jmp" "$tmp/uv.out"' "$tmp/uv.out"
if "$RB" verify --tracker kernel "$U" >"$tmp/uk.out" 2>&1 && ! grep -qE "refused|unavailable" "$tmp/uk.out"; then
	check "the kernel rejects calls_memcmp too" 'grep -qE "^uninlined_call.bpf.o +calls_memcmp +failure" "$tmp/uk.out"' "$tmp/uk.out"
fi
