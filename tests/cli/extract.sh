#!/usr/bin/env bash
# extract.sh — `rangebench extract`: finds BPF objects embedded in a larger
# file byte for byte, names them FILE.<n>.o, reports malformed or truncated
# embedded objects with exit 2 and a one-line error (never a crash), and
# rejects bad usage.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}
. tests/cli/lib/tap.sh

# a real BPF object to embed: one the test build made, else compile one
obj=$(ls "$OBJ"/*.bpf.o 2>/dev/null | head -1)
if [ -z "$obj" ]; then
	printf 'int f(void *c) { return 0; }\n' >"$tmp/t.c"
	clang -O2 -target bpf -c "$tmp/t.c" -o "$tmp/t.o" && obj=$tmp/t.o
fi
size=$(stat -c %s "$obj")
# deterministic filler (no ELF magic in it)
# (seq 1 N | tr -d '\n' | head -c N, the same bytes, made in this shell)
filler() { local s="" i=1; while [ ${#s} -lt "$1" ]; do s+=$i i=$((i + 1)); done; printf '%s' "${s:0:$1}"; }

# host = filler, object, filler, object, filler
{ filler 1000; cat "$obj"; filler 333; cat "$obj"; filler 77; } >"$tmp/host"
mkdir "$tmp/out"
"$RB" extract -o "$tmp/out" "$tmp/host" >"$tmp/stdout" 2>"$tmp/stderr"; rc=$?
check "two embedded objects: exit 0" '[ $rc -eq 0 ]'
check "one line per object" '[ $(wc -l <"$tmp/stdout") -eq 2 ]'
check "offsets and sizes reported" \
	'grep -q "	0	0x3e8	$size	" "$tmp/stdout" && grep -q "	1	0x$(printf %x $((1000 + size + 333)))	$size	" "$tmp/stdout"'
check "first object written byte for byte" 'cmp -s "$obj" "$tmp/out/host.0.o"'
check "second object written byte for byte" 'cmp -s "$obj" "$tmp/out/host.1.o"'
check "nothing else written" '[ $(ls "$tmp/out" | wc -l) -eq 2 ]'

# --list writes nothing
mkdir "$tmp/list"
"$RB" extract --list -o "$tmp/list" "$tmp/host" >"$tmp/stdout" 2>&1; rc=$?
check "--list: exit 0, two lines, no files" '[ $rc -eq 0 ] && [ $(wc -l <"$tmp/stdout") -eq 2 ] && [ -z "$(ls "$tmp/list")" ]'

# truncated: the file ends inside the second object
head -c $((1000 + size + 333 + size / 2)) "$tmp/host" >"$tmp/cut"
mkdir "$tmp/cutout"
"$RB" extract -o "$tmp/cutout" "$tmp/cut" >"$tmp/stdout" 2>"$tmp/stderr"; rc=$?
check "truncated embedded object: exit 2" '[ $rc -eq 2 ]'
check "truncated object reported with file and offset" \
	'grep -q "^rangebench extract: $tmp/cut: malformed embedded BPF object at offset 0x$(printf %x $((1000 + size + 333))): " "$tmp/stderr"'
check "the intact first object is still extracted" 'cmp -s "$obj" "$tmp/cutout/cut.0.o" && [ ! -e "$tmp/cutout/cut.1.o" ]'

# hostile header: section header table offset near 2^64 (e_shoff at byte 40)
{ filler 64; cat "$obj"; } >"$tmp/hostile"
printf '\xf0\xff\xff\xff\xff\xff\xff\xff' | dd of="$tmp/hostile" bs=1 seek=$((64 + 40)) conv=notrunc status=none
"$RB" extract -o "$tmp/out" "$tmp/hostile" >"$tmp/stdout" 2>"$tmp/stderr"; rc=$?
check "overflowing e_shoff: exit 2, one error line, nothing extracted" \
	'[ $rc -eq 2 ] && [ $(wc -l <"$tmp/stderr") -eq 1 ] && grep -q "section header table" "$tmp/stderr" && [ ! -s "$tmp/stdout" ]'
# huge e_shnum (byte 60)
{ filler 64; cat "$obj"; } >"$tmp/hostile2"
printf '\xfe\xfe' | dd of="$tmp/hostile2" bs=1 seek=$((64 + 60)) conv=notrunc status=none
"$RB" extract -o "$tmp/out" "$tmp/hostile2" >"$tmp/stdout" 2>"$tmp/stderr"; rc=$?
check "huge e_shnum: exit 2 with a reason" '[ $rc -eq 2 ] && grep -q "malformed embedded BPF object at offset 0x40" "$tmp/stderr"'

# a file with no BPF object: exit 0, nothing written
filler 5000 >"$tmp/plain"
mkdir "$tmp/none"
"$RB" extract -o "$tmp/none" "$tmp/plain" >"$tmp/stdout" 2>&1; rc=$?
check "no embedded object: exit 0, no output" '[ $rc -eq 0 ] && [ ! -s "$tmp/stdout" ] && [ -z "$(ls "$tmp/none")" ]'

# bad usage and unreadable inputs
"$RB" extract >/dev/null 2>&1; rc=$?
check "no FILE: exit 2" '[ $rc -eq 2 ]'
"$RB" extract -o "$tmp/nonexistent" "$tmp/host" >/dev/null 2>"$tmp/stderr"; rc=$?
check "missing output directory: exit 2 with message" '[ $rc -eq 2 ] && grep -q "not a directory" "$tmp/stderr"'
"$RB" extract -o "$tmp/out" "$tmp/nope" >/dev/null 2>"$tmp/stderr"; rc=$?
check "missing input: exit 2 with one line naming it" '[ $rc -eq 2 ] && [ $(wc -l <"$tmp/stderr") -eq 1 ] && grep -q "$tmp/nope: cannot open" "$tmp/stderr"'
"$RB" extract -o "$tmp/out" "$tmp" >/dev/null 2>"$tmp/stderr"; rc=$?
check "directory as input: exit 2" '[ $rc -eq 2 ] && grep -q "not a regular file" "$tmp/stderr"'
"$RB" extract --bogus "$tmp/host" >/dev/null 2>&1; rc=$?
check "unknown option: exit 2" '[ $rc -eq 2 ]'

# a real skeleton, when libbpf-tools is installed
if [ -x /usr/sbin/opensnoop ] && command -v llvm-readelf >/dev/null; then
	mkdir "$tmp/real"
	"$RB" extract -o "$tmp/real" /usr/sbin/opensnoop >/dev/null 2>&1; rc=$?
	check "libbpf-tools opensnoop: one object that llvm-readelf reads as BPF" \
		'[ $rc -eq 0 ] && [ $(ls "$tmp/real" | wc -l) -eq 1 ] && llvm-readelf -h "$tmp/real/opensnoop.0.o" | grep -q "EM_BPF"'
else
	echo "ok $((n += 1)) - # SKIP libbpf-tools not installed"
fi
