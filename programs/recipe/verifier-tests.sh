#!/usr/bin/env bash
# verifier-tests.sh — the kernel's own verifier unit tests (test_verifier's
# tables, tools/testing/selftests/bpf/verifier/*.c of linux-source-6.1) as
# programs/corpus/verifier-tests/: one raw-program file (.rbvt, opened by
# src/loader/open_rbvt.c) per test, privileged run only. The generator
# (verifier-tests-gen.c) is compiled together with the kernel's
# test_verifier.c, so the tables, fix-up sizes and fill helpers are the
# kernel's; see that file for what each test becomes.
#   EXPECTED.tsv   object, program, descr, expect (the 6.1 expectation:
#                  accept | reject | undef | skip:<why>), errstr, 6.1 insn count
# kernel-headers.sh must have run (it unpacks the source).
. "$(dirname "$0")/lib.sh"
ver=$(pkg_version linux-source-6.1)
ST=$KSRC/tools/testing/selftests/bpf
out=$CORPUS/verifier-tests
gen=$WORK/verifier-tests
rm -rf "$out" "$gen"; mkdir -p "$out" "$gen/verifier"
[ -f "$ST/test_verifier.c" ] || die "$ST/test_verifier.c missing (kernel-headers step)"
# tests.h as the selftests' Makefile makes it, plus a marker entry naming
# each file ("\001<file>") so tests can be named after their file
{
	echo '#ifdef FILL_ARRAY'
	for f in "$ST"/verifier/*.c; do
		printf '{ .descr = "\\001%s" },\n#include "%s"\n' "$(basename "$f")" "$f"
	done
	echo '#endif'
} >"$gen/verifier/tests.h"
${CC:-cc} -O0 -w -I"$gen" -I"$ST" -I"$KSRC/tools/include" -I"$KSRC/tools/include/uapi" \
	-o "$gen/gen" "$RECIPE/verifier-tests-gen.c" "$ST/cap_helpers.c" -lbpf 2>"$gen/build.err" ||
	{ head -20 "$gen/build.err" >&2; die "verifier-tests generator failed to build"; }
"$gen/gen" "$out" >"$out/EXPECTED.tsv" || die "verifier-tests generator failed"
for o in "$out"/*.rbvt; do
	b=$(basename "$o")
	printf '%s\tlinux-source-6.1\t%s\ttools/testing/selftests/bpf/verifier/%s.c\n' "$b" "$ver" "${b%%.*}"
done >"$out/.provenance.tsv"
log "verifier-tests: $(ls "$out" | grep -c '\.rbvt$') tests, $(grep -c $'\tskip:' "$out/EXPECTED.tsv" || true) skipped (see EXPECTED.tsv)"
