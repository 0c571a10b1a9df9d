#!/usr/bin/env bash
# hostile_limits.sh — issue 24 items 11, 12 and 15: an object with more
# maps (or a larger map value) than execcheck's concrete machine models
# costs that object's runs only; `verify --tracker kernel` where bpf() is
# refused says so in one line and exits 2; `extract` on a full disk
# leaves nothing partial; extended section numbering is read as libelf
# reads it; a large NOBITS .bss takes no file bytes.
set -u
RB=${RB:-build/test/rangebench}
. tests/cli/lib/tap.sh
. tests/cli/lib/tiny.sh
trap 'umount "$tmp/full" 2>/dev/null; rm -rf "$tmp"' EXIT
RBA=$(readlink -f "$RB")
inc="-I/usr/include/$(uname -m)-linux-gnu"

# --- item 11: 40 maps (80 regions of the machine: more than its old 64)
{
	echo '#include <linux/bpf.h>'
	echo '#include <bpf/bpf_helpers.h>'
	for i in $(seq 0 39); do
		echo "struct { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 1); __type(key, __u32); __type(value, __u64); } m$i SEC(\".maps\");"
	done
	echo 'SEC("socket") int p(void *c) { __u32 k = 0; __u64 *v = bpf_map_lookup_elem(&m39, &k); return v ? (*v & 1) : 0; }'
	echo 'char _license[] SEC("license") = "GPL";'
} >"$tmp/maps40.bpf.c"
# a 158 MiB .bss: no file bytes, a map value beyond the machine's model
cat >"$tmp/bss.bpf.c" <<'C'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
char big[158 << 20];
SEC("socket") int p(void *c) { return big[0] & 1; }
char _license[] SEC("license") = "GPL";
C
clang -O2 -g -target bpf $inc -c "$tmp/maps40.bpf.c" -o "$tmp/maps40.o" 2>"$tmp/cc.out" &&
	clang -O2 -g -target bpf $inc -c "$tmp/bss.bpf.c" -o "$tmp/bss.o" 2>>"$tmp/cc.out"
check "compile the 40-map and the 158 MiB .bss objects" "[ -s $tmp/maps40.o ] && [ -s $tmp/bss.o ]" "$tmp/cc.out"
$RB execcheck --trackers old --runs 3 "$tmp/maps40.o" >"$tmp/x1.out" 2>&1
check "execcheck of a 40-map object: exit 0, its program run (executions > 0)" \
	"[ $? -eq 0 ] && awk '\$1 == \"old\" { exit !(\$2 == 1 && \$4 > 0) }' $tmp/x1.out" "$tmp/x1.out"
$RB execcheck --trackers old --runs 3 "$tmp/bss.o" "$tmp/maps40.o" >"$tmp/x2.out" 2>&1
check "execcheck of a 158 MiB value and the 40-map object: exit 0, the first's runs aborted (named), the second's run" \
	"[ $? -eq 0 ] && grep -q 'more than the 16777216 bytes modelled' $tmp/x2.out && awk '\$1 == \"old\" { exit !(\$2 == 2 && \$4 > 0) }' $tmp/x2.out" "$tmp/x2.out"

# --- item 15: the .bss takes no file bytes and is read
$RB load "$tmp/bss.o" >"$tmp/l1.out" 2>&1
check "load of a 158 MiB .bss object (a 4 KiB file): exit 0, the .bss map 165675008 bytes" \
	"[ $? -eq 0 ] && grep -Eq 'map +[^ ]*bss +type array +key 4 value 165675008' $tmp/l1.out && ! grep -q 'outside the file' $tmp/l1.out" "$tmp/l1.out"
$RB verify "$tmp/bss.o" >"$tmp/v1.out" 2>&1
check "verify of it: accepted" "[ $? -eq 0 ] && grep -Eq ' p +success' $tmp/v1.out" "$tmp/v1.out"
# a NOBITS section larger than a map value may be: the message names the limit
# (bss3g.o; and xnum.o of the extended section numbering below, made by the
# same python3: one interpreter start, not two)
python3 - "$tmp/bss.o" "$tmp/bss3g.o" "$tmp/tiny.o" "$tmp/xnum.o" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<Q', d, 0x28); shnum, shstrndx = struct.unpack_from('<HH', d, 0x3c)
for i in range(shnum):
    o = shoff + 64 * i
    if struct.unpack_from('<I', d, o + 4)[0] == 8:  # SHT_NOBITS
        struct.pack_into('<Q', d, o + 32, 3 << 30)
open(sys.argv[2], 'wb').write(d)
# extended section numbering: e_shnum 0 (the count in section 0's
# sh_size), e_shstrndx SHN_XINDEX (the index in section 0's sh_link)
d = bytearray(open(sys.argv[3], 'rb').read())
shoff, = struct.unpack_from('<Q', d, 0x28); shnum, shstrndx = struct.unpack_from('<HH', d, 0x3c)
struct.pack_into('<HH', d, 0x3c, 0, 0xffff)
struct.pack_into('<Q', d, shoff + 32, shnum)    # sh_size of section 0
struct.pack_into('<I', d, shoff + 40, shstrndx) # sh_link of section 0
open(sys.argv[4], 'wb').write(d)
PY
$RB load "$tmp/bss3g.o" >"$tmp/l2.out" 2>&1
check "a 3 GiB NOBITS section: refused naming the limit (INT_MAX, the kernel's), not 'outside the file'" \
	"[ $? -ne 0 ] && grep -q 'larger than a map value may be (2147483647 bytes' $tmp/l2.out && ! grep -q 'outside the file' $tmp/l2.out" "$tmp/l2.out"

# extended section numbering (xnum.o, made above from tiny.o)
$RB load "$tmp/tiny.o" | sed 1d >"$tmp/x0.txt" 2>&1
$RB load "$tmp/xnum.o" >"$tmp/xn.out" 2>&1
rc=$?
sed 1d "$tmp/xn.out" >"$tmp/xn.txt"
check "extended section numbering: load exit 0, the same programs and maps as the plain file" \
	"[ $rc -eq 0 ] && [ -s $tmp/x0.txt ] && cmp -s $tmp/x0.txt $tmp/xn.txt" "$tmp/xn.out"
$RB verify "$tmp/xnum.o" >"$tmp/xv.out" 2>&1
check "and verify reads it: 6 programs" "[ \$(grep -c '^tiny\\|^xnum' $tmp/xv.out) -eq 6 ]" "$tmp/xv.out"

# --- the scan child's memory limit (run --mem-limit, src/driver/scan.c): a
# loader that allocates without end (RB_TEST_FAULT open=GLOB:hog, 64 MiB
# every 50 ms) costs that object's row; a run's only object is opened by a
# fork of the run (before its threads start), whose own growth counts,
# more objects by exec'd children
mkdir -p "$tmp/ml" && cp "$tmp/tiny.o" "$tmp/ml/a-hog.o" && tiny_obj "$tmp/ml/b.o" 1
RB_TEST_FAULT='open=a-hog.o:hog' timeout 60 $RB run -q -j 1 --no-census --db "$tmp/ml1.sqlite" --trackers old \
	--mem-limit 120 "$tmp/ml/a-hog.o" >"$tmp/ml1.out" 2>&1
check "one object, its (forked) scan child growing without end: killed at --mem-limit 120, one load_error row naming it" \
	"[ $? -eq 0 ] && [ \"\$(sqlite3 $tmp/ml1.sqlite \"SELECT count(*) || ':' || sum(verdict = 'load_error' AND msg LIKE '%a-hog.o: opening it passed the memory limit of 120 MiB%') FROM results\")\" = 1:1 ]" "$tmp/ml1.out"
RB_TEST_FAULT='open=a-hog.o:hog' timeout 60 $RB run -q -j 1 --no-census --db "$tmp/ml.sqlite" --trackers old \
	--mem-limit 120 "$tmp/ml" >"$tmp/ml.out" 2>&1
check "two objects, the (exec'd) scan child growing without end on the first: its one load_error row names the limit, the other's 6 rows stored" \
	"[ $? -eq 0 ] && [ \"\$(sqlite3 $tmp/ml.sqlite \"SELECT count(*) FROM results WHERE verdict = 'load_error' AND msg LIKE '%a-hog.o: opening it passed the memory limit of 120 MiB%'\")\" = 1 ] && [ \"\$(sqlite3 $tmp/ml.sqlite \"SELECT count(*) FROM results WHERE verdict <> 'load_error'\")\" = 6 ]" "$tmp/ml.out"
# a fork's resident size counts the pages it shares with the run (~15 MiB
# in this build, as much as an exec'd child starts with): at --mem-limit 8
# the object still opens (the fork's growth is a few MiB), and each
# verification, in an exec'd child of 11-16 MiB, meets the limit
$RB run -q -j 1 --no-census --db "$tmp/ml8.sqlite" --trackers old --mem-limit 8 "$tmp/tiny.o" >"$tmp/ml8.out" 2>&1
check "--mem-limit 8: the forked scan child opens the object (its own growth counted), the 6 verifications stopped at the limit" \
	"[ \"\$(sqlite3 $tmp/ml8.sqlite \"SELECT count(*) FROM results WHERE verdict = 'limit' AND msg LIKE 'memory limit of 8 MiB exceeded%'\")\" = 6 ]" "$tmp/ml8.out"

# --- item 12: bpf() refused
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && [ "$(cat /proc/sys/kernel/unprivileged_bpf_disabled 2>/dev/null)" != 0 ]; then
	cp "$RBA" "$tmp/rb" && cp "$tmp/tiny.o" "$tmp/t.o" && chmod 755 "$tmp" "$tmp/rb" && chmod 644 "$tmp/t.o"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$tmp/rb" verify --tracker kernel "$tmp/t.o" >"$tmp/k.out" 2>"$tmp/k.err"
	rc=$?
	check "verify --tracker kernel as nobody: exit 2, no rows, one line saying bpf() is refused and why" \
		"[ $rc -eq 2 ] && [ ! -s $tmp/k.out ] && [ \$(wc -l <$tmp/k.err) -eq 1 ] && grep -q 'the kernel tracker cannot run: bpf() not permitted (EPERM): running as uid [0-9]* without CAP_BPF' $tmp/k.err" "$tmp/k.err"
else
	ok "# SKIP needs root, setpriv and unprivileged bpf() disabled"
fi
mkdir "$tmp/full"
if mount -t tmpfs -o size=64k tmpfs "$tmp/full" 2>/dev/null; then
	{ head -c 1000 /dev/zero | tr '\0' x; cat "$tmp/bss.o" "$tmp/maps40.o" "$tmp/maps40.o" "$tmp/maps40.o"; } >"$tmp/host"
	head -c $((64 * 1024 - 8192)) /dev/zero >"$tmp/full/filler" 2>/dev/null
	$RB extract -o "$tmp/full" "$tmp/host" >"$tmp/e.out" 2>&1
	rc=$?
	ls "$tmp/full" >"$tmp/e.ls"
	whole=1 # every .o left is a whole object
	for f in $(grep '\.o$' "$tmp/e.ls"); do
		cmp -s "$tmp/full/$f" "$tmp/maps40.o" || cmp -s "$tmp/full/$f" "$tmp/bss.o" || whole=0
	done
	check "extract on a full disk: exit 2 naming the failed write, no partial or empty .o left" \
		"[ $rc -eq 2 ] && grep -q 'write failed: No space left on device' $tmp/e.out && ! grep -q partial $tmp/e.ls && [ $whole -eq 1 ]" "$tmp/e.out"
	umount "$tmp/full"
else
	ok "# SKIP cannot mount a tmpfs here (extract on a full disk)"
fi
