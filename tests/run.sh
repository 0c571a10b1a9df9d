#!/usr/bin/env bash
# Runs every test: the cmocka unit-test binaries built from tests/unit/ and
# the command-line tests in tests/cli/*.sh (each gets the sanitizer-built
# CLI as $RB). Prints each suite's result and ends with "N passed, N failed".
set -u
bindir=${1:-build/test}
export RB="$bindir/rangebench"
export RB_TEST_BIN="$bindir"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
passed=0; failed=0; failures=()
log=$(mktemp -d)

for t in "$bindir"/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	CMOCKA_MESSAGE_OUTPUT=stdout "$t" >"$log/$name.out" 2>&1
	rc=$?
	p=$(grep -c '^\[       OK \]' "$log/$name.out")
	# cmocka names a failed test twice (when it fails and in the summary)
	# and prints "[  FAILED  ] N test(s)": count distinct test names
	f=$(grep -E '^\[  FAILED  \] [a-z_][a-z_0-9]*$' "$log/$name.out" | sort -u | wc -l)
	# a crash or sanitizer abort counts as a failure even if cmocka did not say so
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	passed=$((passed + p)); failed=$((failed + f))
	printf '%-40s %4d passed %4d failed\n' "$name" "$p" "$f"
	[ "$f" -ne 0 ] && { failures+=("$name"); sed 's/^/    /' "$log/$name.out" | grep -v '^\s*\[ RUN' | tail -80; }
done

for s in tests/cli/*.sh; do
	[ -f "$s" ] || continue
	name=$(basename "$s" .sh)
	bash "$s" >"$log/cli_$name.out" 2>&1
	rc=$?
	p=$(grep -c '^ok ' "$log/cli_$name.out")
	f=$(grep -c '^not ok ' "$log/cli_$name.out")
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	passed=$((passed + p)); failed=$((failed + f))
	printf '%-40s %4d passed %4d failed\n' "cli/$name" "$p" "$f"
	[ "$f" -ne 0 ] && { failures+=("cli/$name"); tail -40 "$log/cli_$name.out" | sed 's/^/    /'; }
done

rm -rf "$log"
[ ${#failures[@]} -ne 0 ] && echo "failing suites: ${failures[*]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
