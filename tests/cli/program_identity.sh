#!/usr/bin/env bash
# program_identity.sh — two programs are never stored as one (issue 24,
# item 2): names and sections are kept whole (up to the loader's bounds,
# 1023 and 4095 bytes; a longer name is that program's own error row), and
# two programs of one name in one section are told apart by their ordinal
# in the object; a merge keeps them apart too.
set -u
RB=${RB:-build/test/rangebench}
. "$(dirname "$0")/lib/tap.sh"

# --- names that differ only after 127 (and 300) characters, in a long section
printf -v long 'very_long_generated_name_%.0s' {1..12} # 300 characters
printf -v sec 'socket/%s' "$(printf 'section_part_%.0s' {1..20})" # 267 characters
cat >"$tmp/long.bpf.c" <<C
#define SEC(x) __attribute__((section(x), used))
int a(void *c) __asm__("${long}A") SEC("$sec");
int a(void *c) { return 0; }
int b(void *c) __asm__("${long}B") SEC("$sec");
int b(void *c) { return *(int *)((char *)c + 100000); }
char _license[] SEC("license") = "GPL";
C
clang -O2 -target bpf -c "$tmp/long.bpf.c" -o "$tmp/long.o" 2>"$tmp/clang.err" || { notok "compile long.bpf.c" "$tmp/clang.err"; exit 1; }

# --- and a name past the loader's bound: that program's own error row.
# Both objects in one run (was two, one a database), each check reading its
# own object's rows (issue 26)
printf -v huge 'n%.0s' {1..1100}
cat >"$tmp/huge.bpf.c" <<C
#define SEC(x) __attribute__((section(x), used))
int h(void *c) __asm__("${huge}") SEC("socket");
int h(void *c) { return 0; }
SEC("socket") int small(void *c) { return 0; }
char _license[] SEC("license") = "GPL";
C
clang -O2 -target bpf -c "$tmp/huge.bpf.c" -o "$tmp/huge.o" 2>"$tmp/clang.err" || { notok "compile huge.bpf.c" "$tmp/clang.err"; exit 1; }
mkdir "$tmp/lh" && mv "$tmp/long.o" "$tmp/huge.o" "$tmp/lh/"
$RB run -q --db "$tmp/lh.sqlite" --trackers old --label LH "$tmp/lh" >"$tmp/lh.out" 2>&1
check "names differing after character 300: two programs stored, names and section whole" \
	"[ \"\$(sqlite3 $tmp/lh.sqlite \"SELECT count(*) || ':' || min(length(name)) || ':' || max(length(section)) FROM programs WHERE obj_path LIKE '%/long.o'\")\" = 2:301:${#sec} ]" "$tmp/lh.out"
check "each keeps its own verdict (A success, B failure)" \
	"[ \"\$(sqlite3 $tmp/lh.sqlite \"SELECT group_concat(x, ' ') FROM (SELECT substr(p.name, -1) || '=' || r.verdict AS x FROM results r JOIN programs p ON p.id = r.program_id WHERE p.obj_path LIKE '%/long.o' ORDER BY p.name)\")\" = 'A=success B=failure' ]" "$tmp/lh.out"
$RB verify --csv "$tmp/lh/long.o" >"$tmp/v.csv" 2>&1
check "verify prints the names whole" "[ \$(grep -c ',${long}[AB],' $tmp/v.csv) -eq 2 ]" "$tmp/v.csv"
check "a 1100-byte name: its row says the name passes the bound; the other program verified" \
	"[ \"\$(sqlite3 $tmp/lh.sqlite \"SELECT group_concat(verdict || ':' || (coalesce(msg, '') LIKE 'program name of 1100 bytes is longer than the 1023 rangebench keeps%'), ' ') FROM (SELECT r.verdict, r.msg FROM results r JOIN programs p ON p.id = r.program_id WHERE p.obj_path LIKE '%/huge.o' ORDER BY length(p.name) DESC)\")\" = 'load_error:1 success:0' ]" "$tmp/lh.out"
check "that run: the two objects' 4 programs, no other" \
	"[ \"\$(sqlite3 $tmp/lh.sqlite \"SELECT count(*) || ':' || count(DISTINCT obj_path) || ':' || (SELECT count(*) FROM results) FROM programs\")\" = 4:2:4 ]" "$tmp/lh.out"

# --- two programs of one name in one section (the .strtab edited so that
# 'progqb' reads 'progqa'; libbpf and the loader list both)
cat >"$tmp/dn.bpf.c" <<'C'
#define SEC(x) __attribute__((section(x), used))
SEC("socket") int progqa(void *c) { return 0; }
SEC("socket") int progqb(void *c) { return *(int *)((char *)c + 100000); }
char _license[] SEC("license") = "GPL";
C
clang -O2 -g0 -target bpf -c "$tmp/dn.bpf.c" -o "$tmp/dn.o"
python3 - "$tmp/dn.o" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<Q', d, 0x28); shnum, shstr = struct.unpack_from('<HH', d, 0x3c)
for i in range(shnum):
    h = struct.unpack_from('<IIQQQQIIQQ', d, shoff + 64 * i)
    if h[1] == 3 and b'progqb\0' in d[h[4]:h[4] + h[5]]:
        k = h[4] + d[h[4]:h[4] + h[5]].index(b'progqb\0'); d[k:k + 6] = b'progqa'
open(sys.argv[1], 'wb').write(d)
PY
check "the edited object lists two programs named progqa" "[ \"\$($RB load $tmp/dn.o | grep -c 'prog progqa ')\" = 2 ]"
$RB run -q --db "$tmp/d.sqlite" --trackers old,cnum --label D "$tmp/dn.o" >"$tmp/d.out" 2>&1
check "same name, same section: two programs (ordinals 0 and 1), 4 rows" \
	"[ \"\$(sqlite3 $tmp/d.sqlite \"SELECT group_concat(ordinal, ',') || ':' || (SELECT count(*) FROM results) FROM (SELECT ordinal FROM programs ORDER BY ordinal)\")\" = 0,1:4 ]" "$tmp/d.out"
check "the first accepted, the second rejected, by both trackers" \
	"[ \"\$(sqlite3 $tmp/d.sqlite \"SELECT group_concat(x, ' ') FROM (SELECT p.ordinal || r.tracker || '=' || r.verdict AS x FROM results r JOIN programs p ON p.id = r.program_id ORDER BY p.ordinal, r.tracker)\")\" = '0cnum=success 0old=success 1cnum=failure 1old=failure' ]" "$tmp/d.out"
# a second run adds rows to the same two programs
$RB run -q --db "$tmp/d.sqlite" --trackers old --label D2 "$tmp/dn.o" >/dev/null 2>&1
check "a second run keys the same two programs" "[ \"\$(sqlite3 $tmp/d.sqlite 'SELECT count(*) FROM programs')\" = 2 ]"

# --- merge keeps them apart
$RB run -q --db "$tmp/e.sqlite" --trackers old --label E "$tmp/dn.o" >/dev/null 2>&1
$RB merge "$tmp/m.sqlite" "$tmp/d.sqlite" "$tmp/e.sqlite" >"$tmp/merge.out" 2>&1
check "merge: 2 programs, every row kept (4 + 2 + 2), each on its own program" \
	"[ \"\$(sqlite3 $tmp/m.sqlite \"SELECT (SELECT count(*) FROM programs) || ':' || count(*) || ':' || sum(r.verdict = CASE p.ordinal WHEN 0 THEN 'success' ELSE 'failure' END) FROM results r JOIN programs p ON p.id = r.program_id\")\" = 2:8:8 ]" "$tmp/merge.out"
