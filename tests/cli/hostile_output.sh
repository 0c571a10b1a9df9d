#!/usr/bin/env bash
# hostile_output.sh — issue 24 items 4, 6, 7 and 14: `plot` hands no path
# or name to a shell or to gnuplot's command line; an image gnuplot cut
# short (a full disk) is an error, not "wrote"; output lost on a full
# stdout is an error; names with terminal escapes print escaped in tables
# and error lines; CSV cells a spreadsheet would run as formulas are
# neutralised; a newline in a program name never splits a chart data row.
set -u
RB=${RB:-build/test/rangebench}
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/tiny.sh"
trap 'umount "$tmp/full" 2>/dev/null; rm -rf "$tmp"' EXIT

# programs named with a conceal escape, a title-setting OSC, a newline
# (followed by what looks like a data row) and a spreadsheet formula
cat >"$tmp/w.bpf.c" <<'C'
#define SEC(x) __attribute__((section(x), used))
int hide(void *c) __asm__("hidden\x1b[8m") SEC("socket");
int hide(void *c) { return 2; }
int title(void *c) __asm__("t\x1b]0;PWNED TITLE\x07") SEC("socket");
int title(void *c) { return 1; }
int nl(void *c) __asm__("x\nFAKE\t1\t1000000\t1\t1\nreal") SEC("socket");
int nl(void *c) { return 0; }
int formula(void *c) __asm__("=HYPERLINK(1)") SEC("socket");
int formula(void *c) { return 0; }
char _license[] SEC("license") = "GPL";
C
clang -O2 -target bpf -c "$tmp/w.bpf.c" -o "$tmp/w.o" 2>"$tmp/clang.out"
check "compile the object with hostile names" "[ -s $tmp/w.o ]" "$tmp/clang.out"
db=$tmp/w.sqlite
$RB run -q --db "$db" --trackers old,cnum --label A "$tmp/w.o" >"$tmp/runA.out" 2>&1
$RB run -q --db "$db" --trackers old,cnum --label B "$tmp/w.o" >"$tmp/runB.out" 2>&1
check "two runs of it: 8 rows each" "[ \"\$(sqlite3 $db 'SELECT count(*) FROM results')\" = 16 ]" "$tmp/runA.out"
esc=$(printf '\033')

# --- item 14: tables and error lines escaped
$RB verify "$tmp/w.o" >"$tmp/verify.out" 2>&1
check "verify: no ESC or BEL byte, the names escaped (hidden\\x1b[8m, t\\x1b]0;PWNED TITLE\\x07)" \
	"! grep -q \"[$esc$(printf '\007')]\" $tmp/verify.out && grep -qF 'hidden\\x1b[8m' $tmp/verify.out && grep -qF 't\\x1b]0;PWNED TITLE\\x07' $tmp/verify.out" "$tmp/verify.out"
check "verify: the newline in a name is printed as \\n, on the program's own row" \
	"grep -qF 'x\\nFAKE\\t1' $tmp/verify.out && ! has_ere $tmp/verify.out '^real'" "$tmp/verify.out"
$RB compare --db "$db" A B >"$tmp/cmp.out" 2>&1
check "compare: no ESC byte in the table" "! grep -q \"$esc\" $tmp/cmp.out && grep -qF 'hidden\\x1b[8m' $tmp/cmp.out" "$tmp/cmp.out"
$RB load "$tmp/w.o" >"$tmp/load.out" 2>&1
check "load: no ESC byte, names escaped" "! grep -q \"$esc\" $tmp/load.out && grep -qF 'prog hidden\\x1b[8m' $tmp/load.out" "$tmp/load.out"
$RB verify "$tmp/w.o:$(printf 'no\033[2Jsuch')" >"$tmp/noprog.out" 2>&1
check "an error line naming a program: escaped" \
	"[ $? -eq 2 ] && ! grep -q \"$esc\" $tmp/noprog.out && grep -qF \"no program named 'no\\x1b[2Jsuch'\" $tmp/noprog.out" "$tmp/noprog.out"

# --- item 14: CSV formulas neutralised, numbers kept
$RB verify --csv "$tmp/w.o" >"$tmp/v.csv" 2>/dev/null
check "verify --csv: '=HYPERLINK(1)' becomes \"'=HYPERLINK(1)\"" \
	"grep -qF \",\\\"'=HYPERLINK(1)\\\",\" $tmp/v.csv && ! has_ere $tmp/v.csv ',=HYPERLINK'" "$tmp/v.csv"
check "verify --csv: a negative number stays a number (-1)" "has_ere $tmp/v.csv ',-1,'" "$tmp/v.csv"
$RB compare --db "$db" --csv A B >"$tmp/c.csv" 2>/dev/null
check "compare --csv: the formula neutralised" "grep -qF \"'=HYPERLINK(1)\" $tmp/c.csv && ! has_ere $tmp/c.csv ',=HYPERLINK'" "$tmp/c.csv"

# --- item 7: stdout on a full device
for c in "query --db $db --csv runs" "compare --db $db --csv A B" "load --json $tmp/w.o" "verify --csv $tmp/w.o" "query --db $db runs"; do
	$RB $c >/dev/full 2>"$tmp/full.err"
	rc=$?
	check "rangebench $(echo $c | cut -d' ' -f1) ... > /dev/full: exit 2 and 'cannot write the standard output'" \
		"[ $rc -eq 2 ] && has_ere $tmp/full.err 'cannot write the standard output: No space left on device'" "$tmp/full.err"
done

# --- items 4 and 14: plot with a shell-hostile output directory, every
# chart (census rows made by hand, as the census writes them)
sqlite3 "$db" "INSERT INTO runs (id, kind, label, started_at, status) VALUES (9, 'census', 'c', '2026-01-01T00:00:00Z', 'complete');
INSERT INTO census (run_id, tracker, width, op, kind, cases, unsound, optimal, seq) VALUES
 (9, 'old', 8, 'add8', 'alu', 100, 0, 80, 1), (9, 'cnum', 8, 'add8', 'alu', 100, 0, 90, 1),
 (9, 'old', 8, 'jgt8', 'jmp', 100, 0, 70, 2), (9, 'cnum', 8, 'jgt8', 'jmp', 100, 0, 75, 2)"
out="$tmp/out dir;touch $tmp/PWNED;\$(touch $tmp/PWNED2)\`touch $tmp/PWNED3\`'q"
$RB plot --db "$db" -o "$out" --format png A B >"$tmp/plot.out" 2>&1
rc=$?
check "plot -o 'DIR;touch FILE;\$(..)\`..\`'\\''': exit 0, nothing run by a shell" \
	"[ $rc -eq 0 ] && [ ! -e $tmp/PWNED ] && [ ! -e $tmp/PWNED2 ] && [ ! -e $tmp/PWNED3 ]" "$tmp/plot.out"
check "census and before/after charts written there" \
	"[ -s \"\$out/census.png\" ] && [ -s \"\$out/before_after.png\" ] && has_ere $tmp/plot.out ' 0 failed'" "$tmp/plot.out"
check "no chart script calls system()" "! grep -n 'system(' plots/*.gp"
check "pair.tsv: one data row per program (4), the newline in a name made '_'" \
	"[ \$(grep -vc '^#' \"\$out/data/pair.tsv\") -eq 4 ] && has_ere \"\$out/data/pair.tsv\" '^x_FAKE_1_1000000_1_1_real'" "$tmp/plot.out"

# --- item 6: gnuplot on a full disk exits 0; plot checks what it wrote
mkdir "$tmp/full"
if mount -t tmpfs -o size=200k tmpfs "$tmp/full" 2>/dev/null; then
	mkdir -p "$tmp/full/p/data"
	head -c $((200 * 1024 - 16384)) /dev/zero >"$tmp/full/filler" 2>/dev/null
	$RB plot --db "$db" -o "$tmp/full/p" --format png --only scatter_insns A >"$tmp/fullplot.out" 2>&1
	rc=$?
	check "plot on a full disk: exit 2, the image named as cut or empty, not 'wrote'" \
		"[ $rc -eq 2 ] && has_ere $tmp/fullplot.out 'scatter_insns.png is (truncated|empty)|cannot write|write failed|No space' && ! has_ere $tmp/fullplot.out '^wrote'" "$tmp/fullplot.out"
	check "no cut image left behind" "[ ! -s $tmp/full/p/scatter_insns.png ]" "$tmp/fullplot.out"
	rm -f "$tmp/full/filler"
	umount "$tmp/full"
else
	ok "# SKIP cannot mount a tmpfs here (full-disk plot)"
	ok "# SKIP cannot mount a tmpfs here (full-disk plot)"
fi
