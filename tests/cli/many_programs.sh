#!/usr/bin/env bash
# many_programs.sh — no program count aborts a run (issue 24, item 3): a
# verifier child gets its program list through its stdin, not its command
# line (once a 16 KiB buffer, full at ~3,500 programs: the whole run
# stopped, 0 rows stored, and the message blamed the database). An object
# of 4,200 programs is verified whole beside another object.
set -u
RB=${RB:-build/test/rangebench}
. tests/cli/lib/tap.sh

. tests/cli/lib/tiny.sh
mkdir "$tmp/c"
mv "$tmp/tiny.o" "$tmp/c/"
N=4200
# (-O0: one-line programs need no optimising; clang -O2 took 1.06 s of CPU
# for them, -O0 0.39. A legacy SEC("maps") map sends the object to the
# loader's own path, which opens it in a fraction of a second; libbpf takes
# minutes here)
{
	echo '#define SEC(x) __attribute__((section(x), used))'
	echo 'struct { unsigned int type, key_size, value_size, max_entries, map_flags; } legacy SEC("maps") = {1, 4, 4, 1, 0};'
	for i in $(seq 0 $((N - 1))); do echo "SEC(\"socket/p$i\") int p$i(void *c) { return $i; }"; done
	echo 'char _license[] SEC("license") = "GPL";'
} >"$tmp/many.bpf.c"
if ! clang -O0 -target bpf -c "$tmp/many.bpf.c" -o "$tmp/c/many.o" 2>"$tmp/clang.err"; then
	notok "compile an object of $N programs" "$tmp/clang.err"
	exit 1
fi

$RB run -q --db "$tmp/m.sqlite" --trackers old --label many "$tmp/c" >"$tmp/run.out" 2>&1
rc=$?
check "run over an object of $N programs and another object: exit 0, run complete" \
	"[ $rc -eq 0 ] && [ \"\$(sqlite3 $tmp/m.sqlite 'SELECT status FROM runs')\" = complete ]" "$tmp/run.out"
check "every one of the $N programs has its row, each a verdict" \
	"[ \"\$(sqlite3 $tmp/m.sqlite \"SELECT count(DISTINCT program_id) FROM results WHERE obj_path LIKE '%many.o' AND verdict = 'success'\")\" = $N ]" "$tmp/run.out"
check "the other object's 6 rows are stored too" \
	"[ \"\$(sqlite3 $tmp/m.sqlite \"SELECT count(*) FROM results WHERE obj_path LIKE '%tiny.o'\")\" = 6 ]" "$tmp/run.out"
check "nothing blames the database" "! grep -qi 'database' $tmp/run.out" "$tmp/run.out"
